"""Live loads: the sources' answers as load chunks for :meth:`Loader.run
<graph.loaders.pipeline.Loader.run>`.

Each ``*_chunks`` function is an async iterator of ``(stable name, Batch)``, one chunk per
request (or per small group of requests), named from what was asked so that the same command
run again yields the same names and the load's checkpoint skips what is done; the response
cache makes that second walk cheap. Ids that cannot be asked for, and ids a source does not
know, become rejections in the load's report rather than errors.

:func:`open_clients` builds the five clients on one ``httpx.AsyncClient`` with the disk cache,
the keys and the base URLs (a mirror, a proxy or a local replay server) from
:class:`~graph.config.Settings`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx

from scholargraph.graph.config import Settings
from scholargraph.graph.errors import ConfigError
from scholargraph.graph.loaders.cache import CacheMode, ResponseCache
from scholargraph.graph.loaders.clients import (
    ArxivClient,
    ArxivSettings,
    OpenAlexClient,
    OpenAlexSettings,
    OrcidClient,
    OrcidSettings,
    RorClient,
    RorSettings,
    S2Settings,
    SemanticScholarClient,
)
from scholargraph.graph.loaders.http import HttpTiming, RetryPolicy
from scholargraph.graph.loaders.live_arxiv import arxiv_chunks
from scholargraph.graph.loaders.live_openalex import openalex_chunks
from scholargraph.graph.loaders.live_registries import orcid_chunks, ror_chunks
from scholargraph.graph.loaders.live_s2 import AUTHOR_FIELDS, PAPER_FIELDS, s2_chunks, s2_paper_ref

__all__ = [
    "AUTHOR_FIELDS",
    "PAPER_FIELDS",
    "USER_AGENT",
    "SourceClients",
    "arxiv_chunks",
    "open_clients",
    "openalex_chunks",
    "orcid_chunks",
    "ror_chunks",
    "s2_chunks",
    "s2_paper_ref",
]

USER_AGENT = "scholargraph (scholarly knowledge graph loader)"


@dataclass(frozen=True)
class SourceClients:
    arxiv: ArxivClient
    s2: SemanticScholarClient
    openalex: OpenAlexClient
    orcid: OrcidClient
    ror: RorClient


def _cache(settings: Settings, cache_mode: CacheMode | str) -> ResponseCache | None:
    try:
        mode = CacheMode(cache_mode)
    except ValueError:
        choices = ", ".join(m.value for m in CacheMode)
        raise ConfigError(f"cache mode {cache_mode!r} is not one of {choices}") from None
    return None if mode is CacheMode.OFF else ResponseCache(settings.cache_dir, mode)


@asynccontextmanager
async def open_clients(
    settings: Settings,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    cache_mode: CacheMode | str = CacheMode.AUTO,
    timing: HttpTiming | None = None,
    retry: RetryPolicy | None = None,
) -> AsyncIterator[SourceClients]:
    """The five source clients sharing one connection pool, closed on exit.

    Responses are cached under ``settings.cache_dir`` (``off``, ``record``, ``replay`` or
    ``auto``, see :mod:`graph.loaders.cache`); the S2 and OpenAlex keys, the ROR client
    id and every source's base URL come from ``settings``. ``transport``, ``timing`` and
    ``retry`` are for tests.
    """
    cache = _cache(settings, cache_mode)
    async with httpx.AsyncClient(transport=transport, headers={"User-Agent": USER_AGENT}) as http:
        arxiv_settings = ArxivSettings(
            api_url=settings.arxiv_api_url, oai_url=settings.arxiv_oai_url
        )
        s2_settings = S2Settings(base_url=settings.s2_api_url, api_key=settings.s2_api_key)
        openalex_settings = OpenAlexSettings(
            base_url=settings.openalex_api_url, api_key=settings.openalex_api_key
        )
        orcid_settings = OrcidSettings(base_url=settings.orcid_api_url)
        ror_settings = RorSettings(base_url=settings.ror_api_url, client_id=settings.ror_client_id)
        yield SourceClients(
            arxiv=ArxivClient(http, arxiv_settings, cache=cache, timing=timing, retry=retry),
            s2=SemanticScholarClient(http, s2_settings, cache=cache, timing=timing, retry=retry),
            openalex=OpenAlexClient(
                http, openalex_settings, cache=cache, timing=timing, retry=retry
            ),
            orcid=OrcidClient(http, orcid_settings, cache=cache, timing=timing, retry=retry),
            ror=RorClient(http, ror_settings, cache=cache, timing=timing, retry=retry),
        )
