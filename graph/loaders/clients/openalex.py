"""OpenAlex: works, authors and institutions as raw JSON.

An API key (the ``api_key`` query parameter) has been required since February 2026. List
answers cut ``authorships`` off at 100 and say so in ``is_authors_truncated``; the single work
has them all, which :meth:`OpenAlexClient.complete_authorships` fetches.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from scholargraph.graph.config import Secret
from scholargraph.graph.errors import BadInput, ConfigError, SourceError
from scholargraph.graph.ids import (
    arxiv_doi,
    normalize_doi,
    normalize_openalex,
    normalize_orcid,
    normalize_ror,
)
from scholargraph.graph.loaders.cache import ResponseCache
from scholargraph.graph.loaders.http import (
    HttpTiming,
    Params,
    RateLimit,
    RetryPolicy,
    SourceHttp,
    SourceProfile,
    chunked,
)

JsonObject = dict[str, Any]

MAX_RATE = 100.0  # requests per second, the most any key may make
MAX_DOIS_PER_FILTER = 50
MAX_PER_PAGE = 200
DEFAULT_RATE = RateLimit(per_second=10.0, burst=10)
# Characters that separate values or filters inside ``filter=``; a DOI holding one is looked
# up on its own.
FILTER_SEPARATORS = ("|", ",")


@dataclass(frozen=True)
class OpenAlexSettings:
    base_url: str = "https://api.openalex.org"
    api_key: Secret | None = None
    key_setting: str = "OPENALEX_API_KEY"
    rate: RateLimit = DEFAULT_RATE
    timeout_seconds: float = 30.0
    dois_per_request: int = MAX_DOIS_PER_FILTER
    per_page: int = MAX_PER_PAGE

    def __post_init__(self) -> None:
        if self.rate.per_second > MAX_RATE:
            raise ConfigError(f"OpenAlex allows at most {MAX_RATE:.0f} requests per second")
        if not 1 <= self.dois_per_request <= MAX_DOIS_PER_FILTER:
            raise ConfigError(f"OpenAlex dois_per_request must be 1..{MAX_DOIS_PER_FILTER}")
        if not 1 <= self.per_page <= MAX_PER_PAGE:
            raise ConfigError(f"OpenAlex per_page must be 1..{MAX_PER_PAGE}")

    def profile(self) -> SourceProfile:
        return SourceProfile(
            name="openalex",
            label="OpenAlex",
            rate=self.rate,
            timeout_seconds=self.timeout_seconds,
            params={"api_key": self.api_key.reveal()} if self.api_key else {},
            secret_params=frozenset({"api_key"}),
            credential_setting=self.key_setting,
        )


class OpenAlexClient:
    def __init__(
        self,
        client: httpx.AsyncClient,
        settings: OpenAlexSettings | None = None,
        *,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        timing: HttpTiming | None = None,
    ) -> None:
        self.settings = settings or OpenAlexSettings()
        self._http = SourceHttp(
            client, self.settings.profile(), retry=retry, cache=cache, timing=timing
        )

    async def work(self, work_id: str, *, select: Sequence[str] = ()) -> JsonObject | None:
        """One work by OpenAlex id (``W…`` or its URL) or by ``doi:``/``pmid:``/… key."""
        key = work_id if ":" in work_id and "openalex.org" not in work_id else None
        return await self._entity("works", key or normalize_openalex(work_id), select)

    async def work_by_arxiv_id(self, arxiv_id: str) -> JsonObject | None:
        """The work behind arXiv's DataCite DOI. A preprint merged into its journal version
        may come back as that version: callers check the ids before trusting it."""
        return await self._entity("works", f"doi:{arxiv_doi(arxiv_id)}", ())

    async def author(self, author_id: str) -> JsonObject | None:
        return await self._entity("authors", normalize_openalex(author_id), ())

    async def author_by_orcid(self, orcid: str) -> JsonObject | None:
        return await self._entity("authors", f"orcid:{normalize_orcid(orcid)}", ())

    async def institution(self, institution_id: str) -> JsonObject | None:
        return await self._entity("institutions", normalize_openalex(institution_id), ())

    async def institution_by_ror(self, ror: str) -> JsonObject | None:
        return await self._entity("institutions", f"ror:{normalize_ror(ror)}", ())

    async def rate_limit_status(self) -> JsonObject:
        """The key's budget: what it may spend today and what is left."""
        return _expect_object(await self._http.get_json(self._url("/rate-limit")), "rate-limit")

    async def work_pages(
        self,
        filter_expr: str,
        *,
        select: Sequence[str] = (),
        search: str | None = None,
        sort: str | None = None,
    ) -> AsyncIterator[JsonObject]:
        """Pages of ``/works?filter=…`` (``{"meta": …, "results": […]}``), by cursor."""
        params: dict[str, str | int] = {"filter": filter_expr, "per-page": self.settings.per_page}
        if select:
            params["select"] = ",".join(select)
        if search:
            params["search"] = search
        if sort:
            params["sort"] = sort
        cursor: str | None = "*"
        while cursor:
            page = _expect_object(
                await self._http.get_json(self._url("/works"), {**params, "cursor": cursor}),
                "works",
            )
            yield page
            meta = page.get("meta")
            following = meta.get("next_cursor") if isinstance(meta, dict) else None
            # The last page may still carry a cursor; an empty page ends the walk for sure.
            cursor = following if isinstance(following, str) and page.get("results") else None

    async def works_by_doi(
        self, dois: Iterable[str], *, full_authorships: bool = True
    ) -> AsyncIterator[JsonObject]:
        """The works OpenAlex has for ``dois`` (DOIs it lacks are simply absent), asked
        ``dois_per_request`` at a time with ``filter=doi:a|b|…``; with ``full_authorships``,
        works whose authorships were truncated are fetched again whole."""
        batchable: list[str] = []
        for doi in (normalize_doi(raw) for raw in dois):
            if any(sep in doi for sep in FILTER_SEPARATORS):
                work = await self.work(f"doi:{doi}")
                if work is not None:
                    yield work
            else:
                batchable.append(doi)
        for chunk in chunked(batchable, self.settings.dois_per_request):
            async for page in self.work_pages("doi:" + "|".join(chunk)):
                for work in _results(page):
                    yield await self.complete_authorships(work) if full_authorships else work

    async def complete_authorships(self, work: JsonObject) -> JsonObject:
        """``work`` itself, or the single-work answer when its authorships were cut off."""
        if not work.get("is_authors_truncated"):
            return work
        work_id = work.get("id")
        if not isinstance(work_id, str):
            raise BadInput("an OpenAlex work without an id cannot be fetched again")
        return await self.work(work_id) or work

    async def _entity(self, kind: str, key: str, select: Sequence[str]) -> JsonObject | None:
        params: Params = {"select": ",".join(select)} if select else {}
        path = f"/{kind}/{quote(key, safe='/:')}"
        payload = await self._http.get_json(self._url(path), params, missing_ok=True)
        return None if payload is None else _expect_object(payload, kind)

    def _url(self, path: str) -> str:
        return f"{self.settings.base_url.rstrip('/')}{path}"


def _results(page: JsonObject) -> list[JsonObject]:
    results = page.get("results")
    if not isinstance(results, list):
        raise SourceError("OpenAlex sent a list page without results")
    return [_expect_object(item, "works") for item in results]


def _expect_object(payload: Any, what: str) -> JsonObject:
    if not isinstance(payload, dict):
        raise SourceError(f"OpenAlex answered {what} with {type(payload).__name__}")
    return payload
