"""ROR v2: organizations by id, by search and by affiliation matching, as raw JSON.

The affiliation matcher scores several candidates; only the one it marks ``chosen: true`` is
a match (:func:`chosen_organizations`), never simply the best score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from scholargraph.graph.config import Secret
from scholargraph.graph.errors import SourceError
from scholargraph.graph.ids import normalize_ror
from scholargraph.graph.loaders.cache import ResponseCache
from scholargraph.graph.loaders.http import (
    HttpTiming,
    Params,
    RateLimit,
    RetryPolicy,
    SourceHttp,
    SourceProfile,
)

JsonObject = dict[str, Any]

# 2000 requests per 5 minutes with a client id, 50 without; a full bucket is part of the window.
CLIENT_RATE = RateLimit.per_window(2000, 300, burst=20)
ANONYMOUS_RATE = RateLimit.per_window(50, 300, burst=5)


@dataclass(frozen=True)
class RorSettings:
    base_url: str = "https://api.ror.org/v2"
    client_id: Secret | None = None
    client_id_setting: str = "ROR_CLIENT_ID"
    rate: RateLimit | None = None  # None: CLIENT_RATE with a client id, ANONYMOUS_RATE without
    timeout_seconds: float = 30.0

    def profile(self) -> SourceProfile:
        return SourceProfile(
            name="ror",
            label="ROR",
            rate=self.rate or (CLIENT_RATE if self.client_id else ANONYMOUS_RATE),
            timeout_seconds=self.timeout_seconds,
            headers={"Client-Id": self.client_id.reveal()} if self.client_id else {},
            credential_setting=self.client_id_setting,
        )


def chosen_organizations(affiliation_answer: JsonObject) -> list[JsonObject]:
    """The organizations the matcher chose (``chosen: true``), whatever their scores.

    >>> chosen_organizations({"items": [
    ...     {"score": 0.95, "chosen": False, "organization": {"id": "https://ror.org/a"}},
    ...     {"score": 0.90, "chosen": True, "organization": {"id": "https://ror.org/b"}}]})
    [{'id': 'https://ror.org/b'}]
    """
    items = affiliation_answer.get("items")
    if not isinstance(items, list):
        return []
    return [
        item["organization"]
        for item in items
        if isinstance(item, dict)
        and item.get("chosen") is True
        and isinstance(item.get("organization"), dict)
    ]


class RorClient:
    def __init__(
        self,
        client: httpx.AsyncClient,
        settings: RorSettings | None = None,
        *,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        timing: HttpTiming | None = None,
    ) -> None:
        self.settings = settings or RorSettings()
        self._http = SourceHttp(
            client, self.settings.profile(), retry=retry, cache=cache, timing=timing
        )

    async def organization(self, ror_id: str) -> JsonObject | None:
        payload = await self._http.get_json(
            self._url(f"/organizations/{normalize_ror(ror_id)}"), missing_ok=True
        )
        return None if payload is None else _expect_object(payload)

    async def search(self, query: str, *, page: int | None = None) -> JsonObject:
        """``?query=``: ``{"number_of_results", "items": [organization, …], …}``."""
        params: Params = {"query": query} if page is None else {"query": query, "page": page}
        return _expect_object(await self._http.get_json(self._url("/organizations"), params))

    async def match_affiliation(self, affiliation: str) -> JsonObject:
        """``?affiliation=``: ``{"items": [{score, matching_type, chosen, substring,
        organization}, …]}``; pass it to :func:`chosen_organizations`."""
        params: Params = {"affiliation": affiliation}
        return _expect_object(await self._http.get_json(self._url("/organizations"), params))

    def _url(self, path: str) -> str:
        return f"{self.settings.base_url.rstrip('/')}{path}"


def _expect_object(payload: Any) -> JsonObject:
    if not isinstance(payload, dict):
        raise SourceError(f"ROR answered with {type(payload).__name__}, expected an object")
    return payload
