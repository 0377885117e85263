"""Bulk files as load chunks of about ``chunk_size`` records, each with a stable name for the
checkpoint (small files such as arXiv ``.abs`` records are grouped)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

from scholargraph.graph.loaders.parse.files import BulkFormat, iter_bulk_files
from scholargraph.graph.records import Batch

CHUNK_RECORDS = 2000


def _grouped(
    paths: Sequence[Path], format: BulkFormat | None, chunk_size: int
) -> Iterator[tuple[str, Batch]]:
    pending = Batch()
    first: str | None = None
    grouped = 0
    pieces: dict[Path, int] = {}
    for path, batch in iter_bulk_files(paths, format=format, chunk_size=chunk_size):
        piece = pieces.get(path, 0)
        pieces[path] = piece + 1
        first = first or f"{path.resolve()}#{piece}"
        pending.extend(batch)
        grouped += 1
        if len(pending) + len(pending.rejected) >= chunk_size:
            yield f"{first}+{grouped}", pending
            pending, first, grouped = Batch(), None, 0
    if first is not None:
        yield f"{first}+{grouped}", pending


async def file_chunks(
    paths: Sequence[Path], *, format: BulkFormat | None = None, chunk_size: int = CHUNK_RECORDS
) -> AsyncIterator[tuple[str, Batch]]:
    """Parse in a worker thread, one chunk ahead: the next chunk is parsed while the
    database writes the one just handed out."""
    iterator = _grouped(paths, format, chunk_size)
    done = object()
    ahead = asyncio.ensure_future(asyncio.to_thread(next, iterator, done))
    try:
        while (item := await ahead) is not done:
            assert isinstance(item, tuple)
            ahead = asyncio.ensure_future(asyncio.to_thread(next, iterator, done))
            yield item
    finally:
        # Closed early: the parse under way ends before the iterator goes (a running
        # generator cannot be closed), and what it found is not handed out.
        await asyncio.wait([ahead])
        if not ahead.cancelled():
            ahead.exception()
