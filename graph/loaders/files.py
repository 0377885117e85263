"""Bulk files as load chunks of about ``chunk_size`` records, each with a stable name for the
checkpoint (small files such as arXiv ``.abs`` records are grouped)."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path

from scholargraph.graph.loaders.parse.files import BulkFormat, SkippedFile, iter_bulk_files
from scholargraph.graph.records import Batch

CHUNK_RECORDS = 2000


def input_fingerprint(paths: Sequence[Path]) -> str:
    """A digest of every file under ``paths`` (name, size, modification time; hidden ones,
    which loads skip, aside): a checkpoint taken on other contents must not be resumed."""
    digest = hashlib.sha256()
    for root in paths:
        files = sorted(root.rglob("*")) if root.is_dir() else [root]
        for path in files:
            hidden = root.is_dir() and any(p.startswith(".") for p in path.relative_to(root).parts)
            if path.is_file() and not hidden:
                stat = path.stat()
                digest.update(f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _grouped(
    paths: Sequence[Path],
    format: BulkFormat | None,
    source: str | None,
    chunk_size: int,
    on_skip: Callable[[SkippedFile], None] | None,
) -> Iterator[tuple[str, Batch]]:
    pending = Batch()
    first: str | None = None
    grouped = 0
    pieces: dict[Path, int] = {}
    files = iter_bulk_files(
        paths, format=format, source=source, chunk_size=chunk_size, on_skip=on_skip
    )
    for path, batch in files:
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
    paths: Sequence[Path],
    *,
    format: BulkFormat | None = None,
    source: str | None = None,
    chunk_size: int = CHUNK_RECORDS,
    on_skip: Callable[[SkippedFile], None] | None = None,
) -> AsyncIterator[tuple[str, Batch]]:
    """Parse in a worker thread, one chunk ahead: the next chunk is parsed while the
    database writes the one just handed out. ``format``, ``source`` and ``on_skip`` are
    those of :func:`~graph.loaders.parse.files.iter_bulk_files`."""
    iterator = _grouped(paths, format, source, chunk_size, on_skip)
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


async def one_chunk(batch: Batch, name: str = "chunk-0") -> AsyncIterator[tuple[str, Batch]]:
    """A batch already in memory as the one chunk of a load."""
    yield name, batch
