"""OpenAlex as load chunks: works looked up by DOI (arXiv papers by their DataCite DOI), or
every work a ``filter`` selects, with authorships cut off at 100 fetched again whole."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

from scholargraph.graph.errors import BadInput, RecordRejected
from scholargraph.graph.ids import arxiv_doi, normalize_arxiv_id, normalize_doi
from scholargraph.graph.loaders.clients.openalex import OpenAlexClient
from scholargraph.graph.loaders.http import chunked
from scholargraph.graph.loaders.live_naming import ids_digest, unreadable_chunk
from scholargraph.graph.loaders.parse import parse_openalex_work
from scholargraph.graph.loaders.parse.values import JsonObject, excerpt, optional_doi
from scholargraph.graph.records import Batch, Rejection

Chunk = tuple[str, Batch]


async def openalex_chunks(
    client: OpenAlexClient,
    *,
    arxiv_ids: Iterable[str] | None = None,
    dois: Iterable[str] | None = None,
    filter: str | None = None,
) -> AsyncIterator[Chunk]:
    """Works for ``arxiv_ids`` and ``dois``, ``dois_per_request`` a chunk, or the pages of
    ``/works?filter=…`` by cursor, a page a chunk.

    An id OpenAlex has no work for comes back as a rejection under the id as it was given.
    """
    if filter is not None and (arxiv_ids is not None or dois is not None):
        raise BadInput("ask OpenAlex for ids or for a filter, not both")
    if filter is None and arxiv_ids is None and dois is None:
        raise BadInput("ask OpenAlex for arXiv ids, DOIs or a filter")
    if filter is not None:
        async for chunk in _by_filter(client, filter):
            yield chunk
    else:
        async for chunk in _by_doi(client, arxiv_ids or (), dois or ()):
            yield chunk


def _lookups(
    arxiv_ids: Iterable[str], dois: Iterable[str]
) -> tuple[dict[str, str], list[Rejection]]:
    """DOI to look up → the id it stands for, as reported back (the arXiv id or the DOI)."""
    wanted: dict[str, str] = {}
    rejected: list[Rejection] = []
    for raw in arxiv_ids:
        try:
            wanted.setdefault(arxiv_doi(raw), normalize_arxiv_id(raw))
        except BadInput as exc:
            rejected.append(Rejection("openalex", raw, str(exc)))
    for raw in dois:
        doi = optional_doi(raw)
        if doi is None:
            reason = f"{raw!r} is not a DOI; expected e.g. 10.48550/arxiv.2301.08658"
            rejected.append(Rejection("openalex", raw, reason))
        else:
            wanted.setdefault(doi, doi)
    return wanted, rejected


def _add_work(batch: Batch, work: JsonObject) -> set[str]:
    """Parse ``work`` into ``batch``; the DOIs it answers for (its own and its arXiv one)."""
    raw_doi = work.get("doi")
    answered = {normalize_doi(raw_doi)} if isinstance(raw_doi, str) else set()
    try:
        paper = parse_openalex_work(work)
    except RecordRejected as exc:
        batch.rejected.append(Rejection("openalex", exc.ref, exc.reason, excerpt(work)))
        return answered
    batch.papers.append(paper)
    # A preprint merged into its journal work keeps the journal DOI; its arXiv id still counts.
    if paper.arxiv_id:
        answered.add(arxiv_doi(paper.arxiv_id))
    return answered


async def _by_doi(
    client: OpenAlexClient, arxiv_ids: Iterable[str], dois: Iterable[str]
) -> AsyncIterator[Chunk]:
    wanted, rejected = _lookups(arxiv_ids, dois)
    if rejected:
        yield unreadable_chunk("openalex", rejected)
    for index, asked in enumerate(chunked(wanted, client.settings.dois_per_request)):
        batch = Batch()
        answered: set[str] = set()
        async for work in client.works_by_doi(asked):
            answered |= _add_work(batch, work)
        batch.rejected.extend(
            Rejection("openalex", wanted[doi], f"OpenAlex has no work with DOI {doi}")
            for doi in asked
            if doi not in answered
        )
        yield f"openalex:dois:{index}:{ids_digest(asked)}", batch


async def _by_filter(client: OpenAlexClient, filter_expr: str) -> AsyncIterator[Chunk]:
    index = 0
    async for page in client.work_pages(filter_expr):
        batch = Batch()
        results = page.get("results")
        for work in results if isinstance(results, list) else []:
            if isinstance(work, dict):
                _add_work(batch, await client.complete_authorships(work))
        yield f"openalex:filter={filter_expr}:page={index}", batch
        index += 1
