"""Semantic Scholar Graph API: papers and authors as raw JSON.

Paper references take any form the API understands: ``arXiv:2301.08658``, ``DOI:10.…``,
``CorpusId:123``, ``URL:…`` or a bare S2 paper id (:func:`arxiv_ref` and friends build them).
Batch answers are aligned with the ids asked for; ``None`` marks an id S2 does not know.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from scholargraph.graph.config import Secret
from scholargraph.graph.errors import BadInput, ConfigError, SourceError
from scholargraph.graph.ids import normalize_arxiv_id, normalize_doi
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

MAX_PAPER_BATCH = 500
MAX_AUTHOR_BATCH = 1000
MAX_PAGE = 1000
# A key starts at one request per second; keyless callers share one pool, so go gently.
KEYED_RATE = RateLimit(per_second=1.0)
KEYLESS_RATE = RateLimit(per_second=1 / 3)


def arxiv_ref(arxiv_id: str) -> str:
    return f"arXiv:{normalize_arxiv_id(arxiv_id)}"


def doi_ref(doi: str) -> str:
    return f"DOI:{normalize_doi(doi)}"


def corpus_ref(corpus_id: int | str) -> str:
    return f"CorpusId:{corpus_id}"


@dataclass(frozen=True)
class S2Settings:
    base_url: str = "https://api.semanticscholar.org/graph/v1"
    api_key: Secret | None = None
    key_setting: str = "S2_API_KEY"
    rate: RateLimit | None = None  # None: KEYED_RATE with a key, KEYLESS_RATE without
    timeout_seconds: float = 30.0
    paper_batch_size: int = MAX_PAPER_BATCH
    author_batch_size: int = MAX_AUTHOR_BATCH

    def __post_init__(self) -> None:
        if not 1 <= self.paper_batch_size <= MAX_PAPER_BATCH:
            raise ConfigError(f"S2 paper_batch_size must be 1..{MAX_PAPER_BATCH}")
        if not 1 <= self.author_batch_size <= MAX_AUTHOR_BATCH:
            raise ConfigError(f"S2 author_batch_size must be 1..{MAX_AUTHOR_BATCH}")

    def profile(self) -> SourceProfile:
        headers = {"x-api-key": self.api_key.reveal()} if self.api_key else {}
        return SourceProfile(
            name="s2",
            label="Semantic Scholar",
            rate=self.rate or (KEYED_RATE if self.api_key else KEYLESS_RATE),
            timeout_seconds=self.timeout_seconds,
            headers=headers,
            credential_setting=self.key_setting,
        )


class SemanticScholarClient:
    def __init__(
        self,
        client: httpx.AsyncClient,
        settings: S2Settings | None = None,
        *,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        timing: HttpTiming | None = None,
    ) -> None:
        self.settings = settings or S2Settings()
        self._http = SourceHttp(
            client, self.settings.profile(), retry=retry, cache=cache, timing=timing
        )

    async def paper(self, ref: str, fields: Sequence[str]) -> JsonObject | None:
        return await self._object(f"/paper/{_path_id(ref)}", {"fields": ",".join(fields)})

    async def author(self, author_id: str, fields: Sequence[str]) -> JsonObject | None:
        return await self._object(f"/author/{_path_id(author_id)}", {"fields": ",".join(fields)})

    async def papers(self, refs: Sequence[str], fields: Sequence[str]) -> list[JsonObject | None]:
        """``POST /paper/batch`` in chunks; one answer per ref, ``None`` where unknown."""
        return await self._batch("/paper/batch", refs, fields, self.settings.paper_batch_size)

    async def authors(
        self, author_ids: Sequence[str], fields: Sequence[str]
    ) -> list[JsonObject | None]:
        """``POST /author/batch`` in chunks; one answer per id, ``None`` where unknown."""
        return await self._batch(
            "/author/batch", author_ids, fields, self.settings.author_batch_size
        )

    def author_paper_pages(
        self, author_id: str, fields: Sequence[str], *, page_size: int = 100
    ) -> AsyncIterator[JsonObject]:
        """``/author/{id}/papers`` pages: ``{"offset", "next"?, "data": [...]}``."""
        return self._pages(f"/author/{_path_id(author_id)}/papers", fields, page_size)

    def paper_author_pages(
        self, ref: str, fields: Sequence[str], *, page_size: int = 100
    ) -> AsyncIterator[JsonObject]:
        """``/paper/{id}/authors`` pages: ``{"offset", "next"?, "data": [...]}``."""
        return self._pages(f"/paper/{_path_id(ref)}/authors", fields, page_size)

    async def _object(self, path: str, params: Params) -> JsonObject | None:
        payload = await self._http.get_json(self._url(path), params, missing_ok=True)
        if payload is None:
            return None
        return _expect_object(payload, path)

    async def _batch(
        self, path: str, ids: Sequence[str], fields: Sequence[str], size: int
    ) -> list[JsonObject | None]:
        answers: list[JsonObject | None] = []
        for chunk in chunked(ids, size):
            payload = await self._http.post_json(
                self._url(path), {"ids": chunk}, {"fields": ",".join(fields)}
            )
            if not isinstance(payload, list) or len(payload) != len(chunk):
                raise SourceError(
                    f"Semantic Scholar answered {path} for {len(chunk)} ids with something "
                    "other than a list of the same length"
                )
            answers.extend(None if item is None else _expect_object(item, path) for item in payload)
        return answers

    async def _pages(
        self, path: str, fields: Sequence[str], page_size: int
    ) -> AsyncIterator[JsonObject]:
        if not 1 <= page_size <= MAX_PAGE:
            raise BadInput(f"S2 page_size must be 1..{MAX_PAGE}, got {page_size}")
        offset: int | None = 0
        while offset is not None:
            params: Params = {"fields": ",".join(fields), "offset": offset, "limit": page_size}
            page = _expect_object(await self._http.get_json(self._url(path), params), path)
            yield page
            # S2 leaves "next" out on the last page.
            following = page.get("next")
            offset = following if isinstance(following, int) and following > offset else None

    def _url(self, path: str) -> str:
        return f"{self.settings.base_url.rstrip('/')}{path}"


def _path_id(ref: str) -> str:
    # DOIs keep their slashes in the path (S2 expects /paper/10.1093/mind/…); anything that
    # would end the path early, such as "?" or "#", is escaped.
    return quote(ref, safe="/:")


def _expect_object(payload: Any, path: str) -> JsonObject:
    if not isinstance(payload, dict):
        raise SourceError(f"Semantic Scholar answered {path} with {type(payload).__name__}")
    return payload
