"""ORCID public API v3.0: a person's record, works and employments as raw JSON.

Work groups carry ``external-ids`` of type ``arxiv`` and ``doi`` (a direct link from an ORCID
iD to papers); employments carry ``disambiguated-organization`` ids (ROR, Ringgold, …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import httpx

from scholargraph.graph.errors import SourceError
from scholargraph.graph.ids import normalize_orcid
from scholargraph.graph.loaders.cache import ResponseCache
from scholargraph.graph.loaders.http import (
    HttpTiming,
    RateLimit,
    RetryPolicy,
    SourceHttp,
    SourceProfile,
)

JsonObject = dict[str, Any]
Section = Literal["record", "works", "employments", "person", "educations", "activities"]

# "About 24 requests per second, bursts of 40."
DEFAULT_RATE = RateLimit(per_second=24.0, burst=40)


@dataclass(frozen=True)
class OrcidSettings:
    base_url: str = "https://pub.orcid.org/v3.0"
    rate: RateLimit = DEFAULT_RATE
    timeout_seconds: float = 30.0

    def profile(self) -> SourceProfile:
        return SourceProfile(
            name="orcid",
            label="ORCID",
            rate=self.rate,
            timeout_seconds=self.timeout_seconds,
            headers={"Accept": "application/json"},
        )


class OrcidClient:
    def __init__(
        self,
        client: httpx.AsyncClient,
        settings: OrcidSettings | None = None,
        *,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        timing: HttpTiming | None = None,
    ) -> None:
        self.settings = settings or OrcidSettings()
        self._http = SourceHttp(
            client, self.settings.profile(), retry=retry, cache=cache, timing=timing
        )

    async def record(self, orcid: str) -> JsonObject | None:
        return await self.section(orcid, "record")

    async def works(self, orcid: str) -> JsonObject | None:
        return await self.section(orcid, "works")

    async def employments(self, orcid: str) -> JsonObject | None:
        return await self.section(orcid, "employments")

    async def section(self, orcid: str, section: Section) -> JsonObject | None:
        """``/{orcid}/{section}``, or ``None`` when ORCID has no such iD."""
        orcid_id = normalize_orcid(orcid)
        url = f"{self.settings.base_url.rstrip('/')}/{orcid_id}/{section}"
        payload = await self._http.get_json(url, missing_ok=True)
        if payload is None:
            return None
        if not isinstance(payload, dict):
            raise SourceError(f"ORCID answered {orcid_id}/{section} with {type(payload).__name__}")
        return payload
