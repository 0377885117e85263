"""The whole store read out into import files, a page of internal ids at a time.

The store must not be written while it is read: a value whose type no longer matches the
columns read first stops the export with :class:`~scholargraph.graph.errors.BulkError`.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from scholargraph.graph.bulk.files import ImportFiles, ImportSet, groups
from scholargraph.graph.db import Database
from scholargraph.queries import bulk as q

IDS_PER_PAGE = 20_000
# The column scans read every property of the store in one statement.
SCAN_TIMEOUT_S = 3600.0


@dataclass(frozen=True, slots=True)
class Exported:
    files: ImportSet
    seconds: float


async def export_store(db: Database, folder: Path, *, page: int = IDS_PER_PAGE) -> Exported:
    """Write every node and relationship of the store into import files under ``folder``."""
    began = time.perf_counter()
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    node_columns = await db.run(q.NODE_COLUMNS, timeout_s=SCAN_TIMEOUT_S)
    relationship_columns = await db.run(q.RELATIONSHIP_COLUMNS, timeout_s=SCAN_TIMEOUT_S)
    out = ImportFiles(
        folder,
        groups(cast(list[q.ColumnRow], node_columns[0]["rows"])),
        groups(cast(list[q.ColumnRow], relationship_columns[0]["rows"])),
    )
    try:
        await _write_pages(db, out, page)
    finally:
        files = out.close()
    return Exported(files, time.perf_counter() - began)


async def _write_pages(db: Database, out: ImportFiles, page: int) -> None:
    top = (await db.run(q.TOP_IDS, timeout_s=SCAN_TIMEOUT_S))[0]
    for first in range(0, int(top["nodes"]) + 1, page):
        rows = await db.run_rows(q.NODES, {"first": first, "last": first + page - 1})
        out.write_nodes(cast(list[q.NodeRow], rows))
    for first in range(0, int(top["relationships"]) + 1, page):
        rows = await db.run_rows(q.RELATIONSHIPS, {"first": first, "last": first + page - 1})
        out.write_relationships(cast(list[q.RelationshipRow], rows))
