"""``scholargraph neo4j compact``: the local store rewritten by ``neo4j-admin database import``.

A store that loads have written for a long time keeps the space of every record merges and
refreshes deleted (Community has no ``neo4j-admin database copy``, and a dump keeps the
holes). Compacting reads the graph out (:mod:`graph.bulk.export`), stops the server, has
the import tool write the same graph into a new store beside it, swaps the two folders,
starts the server and installs the schema. The counts of every label and type must match
before and after, or the old store is put back. The old folder is kept as
``<data dir>.before-compact`` unless told otherwise.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from scholargraph.graph import localserver
from scholargraph.graph.bulk.export import export_store
from scholargraph.graph.bulk.finish import Finished, finish_store
from scholargraph.graph.bulk.tool import DATABASE, run_import
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BulkError
from scholargraph.graph.stats import graph_stats

WORK_SUFFIX = ".compacting"
OLD_SUFFIX = ".before-compact"


@dataclass(frozen=True, slots=True)
class Compacted:
    nodes: int
    relationships: int
    export_s: float
    import_s: float
    arrays_s: float
    schema_s: float
    total_s: float
    store_bytes_before: int
    store_bytes_after: int
    old_store: str | None  # the folder kept, if any


def store_bytes(home: Path) -> int:
    """Bytes of the graph database's store files (not the system database, not the logs)."""
    folder = home / "data" / "databases" / DATABASE
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def check_disk(data_dir: Path) -> None:
    """The files and the new store each take about the store's size: refuse without twice
    that free, before anything is written."""
    used = sum(f.stat().st_size for f in (data_dir / "data").rglob("*") if f.is_file())
    free = shutil.disk_usage(data_dir.parent).free
    if free < 2 * used:
        raise BulkError(
            f"compact needs about {2 * used / 2**30:.1f} GiB free beside {data_dir} (the import "
            f"files and the new store); {free / 2**30:.1f} GiB is"
        )


def _running(settings: Settings) -> Settings:
    """The settings of the local server as it runs: it starts again on its port and memory."""
    if not settings.local:
        raise BulkError("compact rewrites the local server's store; NEO4J_URI names another server")
    state = localserver.status(settings.neo4j_data_dir.resolve())
    if state.info is None or not state.alive:
        raise BulkError("the local server is not running: `scholargraph neo4j start` first")
    return settings.with_overrides(
        neo4j_data_dir=settings.neo4j_data_dir.resolve(),
        neo4j_bolt_port=state.info.port,
        neo4j_heap=state.info.heap,
        neo4j_pagecache=state.info.pagecache,
    )


async def compact(settings: Settings, *, keep_old: bool = True) -> Compacted:
    settings = _running(settings)
    data_dir = settings.neo4j_data_dir
    work = data_dir.with_name(data_dir.name + WORK_SUFFIX)
    old = data_dir.with_name(data_dir.name + OLD_SUFFIX)
    if old.exists():
        raise BulkError(f"{old} is left from a compaction before: remove it first")
    check_disk(data_dir)
    began = time.perf_counter()
    shutil.rmtree(work, ignore_errors=True)
    try:
        async with Database.connect(settings) as db:
            before = await graph_stats(db)
            exported = await export_store(db, work / "import")
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)  # a part of the files: nothing to keep
        raise
    localserver.stop(data_dir)
    size_before = store_bytes(data_dir)  # once stopped: a running store's files lag its logs
    try:
        ran = run_import(settings.neo4j_home, work, exported.files)
    except BulkError:
        localserver.start(settings)
        raise
    shutil.rmtree(work / "import")
    data_dir.rename(old)
    work.rename(data_dir)
    try:
        finished = await _start_and_finish(settings, before)
    except BaseException:
        localserver.stop(data_dir)
        data_dir.rename(work)
        old.rename(data_dir)
        localserver.start(settings)
        raise
    if not keep_old:
        shutil.rmtree(old)
    return Compacted(
        nodes=sum(before["nodes"].values()),
        relationships=sum(before["relationships"].values()),
        export_s=round(exported.seconds, 2),
        import_s=round(ran.seconds, 2),
        arrays_s=round(finished.arrays_s, 2),
        schema_s=round(finished.schema_s, 2),
        total_s=round(time.perf_counter() - began, 2),
        store_bytes_before=size_before,
        store_bytes_after=store_bytes(data_dir),
        old_store=str(old) if keep_old else None,
    )


async def _start_and_finish(settings: Settings, before: dict[str, dict[str, int]]) -> Finished:
    localserver.start(settings)
    async with Database.connect(settings) as db:
        finished = await finish_store(settings, db)
        after = await graph_stats(db)
    if after != before:
        raise BulkError(f"the rewritten store's counts differ: {after} against {before}")
    return finished
