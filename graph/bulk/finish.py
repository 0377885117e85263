"""A store the import tool wrote, made whole: its empty arrays set, and the schema installed."""

from __future__ import annotations

import time

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.schema.install import install_schema
from scholargraph.queries import bulk as q

# Each statement walks every marked node (or every relationship) once, in transactions of
# 10,000 rows.
FILL_TIMEOUT_S = 3600.0


async def finish_store(settings: Settings, db: Database) -> float:
    """Set the empty arrays the files could not carry, then install every index and
    constraint and wait until they are online; returns the seconds it took."""
    began = time.perf_counter()
    await db.run(q.FILL_EMPTY_NODE_ARRAYS, timeout_s=FILL_TIMEOUT_S)
    await db.run(q.FILL_EMPTY_RELATIONSHIP_ARRAYS, timeout_s=FILL_TIMEOUT_S)
    await install_schema(settings, db)
    return time.perf_counter() - began
