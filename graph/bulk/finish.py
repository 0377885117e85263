"""A store the import tool wrote, made whole: its empty arrays set, and the schema installed."""

from __future__ import annotations

import time
from dataclasses import dataclass

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.schema.install import install_schema
from scholargraph.queries import bulk as q

# Each statement walks every marked node (or every relationship) once, in transactions of
# 10,000 rows.
FILL_TIMEOUT_S = 3600.0


@dataclass(frozen=True, slots=True)
class Finished:
    arrays_s: float  # setting the empty arrays
    schema_s: float  # installing the indexes and constraints, and waiting for them


async def finish_store(settings: Settings, db: Database) -> Finished:
    """Set the empty arrays the files could not carry, then install every index and
    constraint and wait until they are online."""
    began = time.perf_counter()
    await db.run(q.FILL_EMPTY_NODE_ARRAYS, timeout_s=FILL_TIMEOUT_S)
    await db.run(q.FILL_EMPTY_RELATIONSHIP_ARRAYS, timeout_s=FILL_TIMEOUT_S)
    filled = time.perf_counter()
    await install_schema(settings, db)
    return Finished(filled - began, time.perf_counter() - filled)
