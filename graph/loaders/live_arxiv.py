"""arXiv as load chunks: papers by id or by search through the Atom API, or harvested
through OAI-PMH ``ListRecords``. One chunk is one request's answer."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from datetime import date

from scholargraph.graph.errors import BadInput
from scholargraph.graph.ids import parse_arxiv_id
from scholargraph.graph.loaders.clients.arxiv import ArxivClient, MetadataPrefix
from scholargraph.graph.loaders.http import chunked
from scholargraph.graph.loaders.live_naming import ids_digest, unique, unreadable_chunk
from scholargraph.graph.loaders.parse import parse_atom_feed, parse_oai_page
from scholargraph.graph.records import Batch, Rejection

Chunk = tuple[str, Batch]

SEARCH_PAGE_SIZE = 100


async def arxiv_chunks(
    client: ArxivClient,
    *,
    ids: Iterable[str] | None = None,
    set_spec: str | None = None,
    from_date: date | None = None,
    until: date | None = None,
    query: str | None = None,
    prefix: MetadataPrefix = "arXiv",
    limit: int | None = None,
    page_size: int = SEARCH_PAGE_SIZE,
) -> AsyncIterator[Chunk]:
    """Papers by ``ids`` (Atom, ``ids_per_request`` a chunk), by a ``query`` (Atom search,
    ``page_size`` a chunk, at most ``limit`` entries), or otherwise harvested with OAI-PMH
    (``prefix`` format, optionally one ``set_spec`` and a datestamp window), a page a chunk.

    Ids that are not arXiv ids, and ids arXiv does not know, come back as rejections.
    """
    harvest_options = set_spec is not None or from_date is not None or until is not None
    if ids is not None and query is not None:
        raise BadInput("ask arXiv for ids or for a search query, not both")
    if (ids is not None or query is not None) and (harvest_options or prefix != "arXiv"):
        raise BadInput(
            "set, from, until and the metadata prefix select an OAI-PMH harvest; "
            "leave them out when asking for ids or a search query"
        )
    if ids is not None:
        async for chunk in _by_id(client, ids):
            yield chunk
    elif query is not None:
        async for chunk in _by_search(client, query, limit=limit, page_size=page_size):
            yield chunk
    else:
        async for chunk in _by_harvest(client, prefix, set_spec, from_date, until):
            yield chunk


def _requested_ids(raw_ids: Iterable[str]) -> tuple[list[str], list[Rejection]]:
    """Ids in the form the Atom API reads (canonical, with the version when one was given)."""
    wanted: list[str] = []
    rejected: list[Rejection] = []
    for raw in raw_ids:
        try:
            arxiv_id, version = parse_arxiv_id(raw)
        except BadInput as exc:
            rejected.append(Rejection("arxiv", raw, str(exc)))
            continue
        wanted.append(f"{arxiv_id}v{version}" if version else arxiv_id)
    return unique(wanted), rejected


def _bare(raw: str) -> str | None:
    try:
        return parse_arxiv_id(raw)[0]
    except BadInput:
        return None


async def _by_id(client: ArxivClient, raw_ids: Iterable[str]) -> AsyncIterator[Chunk]:
    wanted, rejected = _requested_ids(raw_ids)
    if rejected:
        yield unreadable_chunk("arxiv", rejected)
    for index, ids in enumerate(chunked(wanted, client.settings.ids_per_request)):
        batch = Batch()
        async for feed in client.feeds_by_id(ids):
            batch.extend(parse_atom_feed(feed).batch)
        answered = {paper.arxiv_id for paper in batch.papers}
        answered |= {_bare(rejection.ref) for rejection in batch.rejected}
        # The Atom API simply leaves out an id it does not know.
        batch.rejected.extend(
            Rejection("arxiv", arxiv_id, "arXiv has no paper with this id")
            for arxiv_id in ids
            if _bare(arxiv_id) not in answered
        )
        yield f"arxiv:atom:ids:{index}:{ids_digest(ids)}", batch


async def _by_search(
    client: ArxivClient, query: str, *, limit: int | None, page_size: int
) -> AsyncIterator[Chunk]:
    pages = client.search_pages(query, page_size=page_size, limit=limit)
    index = 0
    async for feed in pages:
        yield f"arxiv:atom:query={query}:size={page_size}:page={index}", parse_atom_feed(feed).batch
        index += 1


async def _by_harvest(
    client: ArxivClient,
    prefix: MetadataPrefix,
    set_spec: str | None,
    from_date: date | None,
    until: date | None,
) -> AsyncIterator[Chunk]:
    parts = [f"arxiv:oai:{prefix}"]
    parts += [f"set={set_spec}"] if set_spec is not None else []
    parts += [f"from={from_date.isoformat()}"] if from_date is not None else []
    parts += [f"until={until.isoformat()}"] if until is not None else []
    label = ":".join(parts)
    pages = client.list_record_pages(prefix, set_spec=set_spec, from_date=from_date, until=until)
    index = 0
    async for page_xml in pages:
        page = parse_oai_page(page_xml)
        batch = page.batch
        batch.rejected.extend(
            Rejection("arxiv", arxiv_id, "arXiv marks this record deleted; it was not loaded")
            for arxiv_id in page.deleted
        )
        yield f"{label}:page={index}", batch
        index += 1
