"""The registries as load chunks: ORCID records (a person and their employments) and ROR
organisations, by id or by matching the affiliation strings papers print."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from typing import Any, TypeVar

from scholargraph.graph.errors import BadInput, RecordRejected
from scholargraph.graph.ids import normalize_orcid, normalize_ror
from scholargraph.graph.loaders.clients.orcid import OrcidClient
from scholargraph.graph.loaders.clients.ror import RorClient, chosen_organizations
from scholargraph.graph.loaders.http import chunked
from scholargraph.graph.loaders.live_naming import ids_digest, unique, unreadable_chunk
from scholargraph.graph.loaders.parse import orcid_work_ids, parse_orcid_record, parse_ror_record
from scholargraph.graph.loaders.parse.values import JsonObject, excerpt
from scholargraph.graph.records import Batch, InstitutionRecord, Rejection, Source

Chunk = tuple[str, Batch]
T = TypeVar("T")

# Requests in one chunk run together; the clients' rate limits space them out.
REGISTRY_CHUNK = 50


async def orcid_chunks(
    client: OrcidClient, *, orcids: Iterable[str], chunk_size: int = REGISTRY_CHUNK
) -> AsyncIterator[Chunk]:
    """Each iD's public record (``/record``, which holds the work and employment summaries)
    → the person and their employments, ``chunk_size`` iDs a chunk.

    Malformed iDs, iDs ORCID does not know and work ids that are not arXiv ids or DOIs come
    back as rejections.
    """
    wanted, rejected = _canonical(orcids, normalize_orcid, "orcid")
    if rejected:
        yield unreadable_chunk("orcid", rejected)
    for index, ids in enumerate(chunked(wanted, chunk_size)):
        records = await _all(client.record, ids)
        batch = Batch()
        for orcid, record in zip(ids, records, strict=True):
            if record is None:
                batch.rejected.append(Rejection("orcid", orcid, "ORCID has no record for this iD"))
                continue
            batch.extend(parse_orcid_record(record))
            batch.rejected.extend(orcid_work_ids(record).rejected)
        yield f"orcid:records:{index}:{ids_digest(ids)}", batch


async def ror_chunks(
    client: RorClient,
    *,
    ror_ids: Iterable[str] | None = None,
    affiliations: Iterable[str] | None = None,
    chunk_size: int = REGISTRY_CHUNK,
) -> AsyncIterator[Chunk]:
    """Organisations by ROR id, then the organisations ROR's matcher *chose* (``chosen:
    true``, never simply the best score) for raw affiliation strings; ``chunk_size`` ids or
    strings a chunk. Unknown ids and strings with no chosen match come back as rejections.
    """
    wanted, rejected = _canonical(ror_ids or (), normalize_ror, "ror")
    if rejected:
        yield unreadable_chunk("ror", rejected)
    for index, ids in enumerate(chunked(wanted, chunk_size)):
        records = await _all(client.organization, ids)
        batch = Batch()
        for ror_id, record in zip(ids, records, strict=True):
            if record is None:
                reason = "ROR has no organization with this id"
                batch.rejected.append(Rejection("ror", ror_id, reason))
            else:
                _add_organization(batch, record, ror_id)
        yield f"ror:organizations:{index}:{ids_digest(ids)}", batch
    texts = unique(text.strip() for text in affiliations or () if text.strip())
    for index, strings in enumerate(chunked(texts, chunk_size)):
        answers = await _all(client.match_affiliation, strings)
        batch = Batch()
        for text, answer in zip(strings, answers, strict=True):
            chosen = chosen_organizations(answer)
            if not chosen:
                reason = "ROR's affiliation matcher chose no organization for this text"
                batch.rejected.append(Rejection("ror", text, reason))
            for organization in chosen:
                _add_organization(batch, organization, text)
        batch.institutions = _distinct(batch.institutions)
        yield f"ror:affiliations:{index}:{ids_digest(strings)}", batch


def _canonical(
    raw_ids: Iterable[str], canonical: Callable[[str], str], source: Source
) -> tuple[list[str], list[Rejection]]:
    wanted: list[str] = []
    rejected: list[Rejection] = []
    for raw in raw_ids:
        try:
            wanted.append(canonical(raw))
        except BadInput as exc:
            rejected.append(Rejection(source, raw, str(exc)))
    return unique(wanted), rejected


async def _all(fetch: Callable[[str], Coroutine[Any, Any, T]], keys: Sequence[str]) -> list[T]:
    """``fetch`` for every key at once, answers in key order; one failure cancels the rest."""
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(fetch(key)) for key in keys]
    except ExceptionGroup as failures:
        # Callers catch the source's own error (SourceUnavailable, …), not a group of them.
        raise failures.exceptions[0] from None
    return [task.result() for task in tasks]


def _add_organization(batch: Batch, record: JsonObject, ref: str) -> None:
    try:
        batch.institutions.append(parse_ror_record(record))
    except RecordRejected as exc:
        batch.rejected.append(Rejection("ror", exc.ref or ref, exc.reason, excerpt(record)))


def _distinct(institutions: list[InstitutionRecord]) -> list[InstitutionRecord]:
    """One record per ROR id: many affiliation strings name the same organisation."""
    by_id = {record.ror_id: record for record in institutions}
    return list(by_id.values())
