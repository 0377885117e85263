from __future__ import annotations

from scholargraph.graph.db import Database
from scholargraph.queries import stats as q


async def graph_stats(db: Database) -> dict[str, dict[str, int]]:
    """Counts of nodes by label and relationships by type: ``{"nodes": …, "relationships": …}``."""
    nodes = await db.run(q.NODE_COUNTS)
    rels = await db.run(q.RELATIONSHIP_COUNTS)
    return {
        "nodes": {row["label"]: row["n"] for row in nodes if row["n"]},
        "relationships": {row["type"]: row["n"] for row in rels if row["n"]},
    }


async def analyze(db: Database, *, timeout_s: int = 300) -> None:
    """Bring the planner up to date after a big load (as SQL's ``ANALYZE``): resample the
    index statistics that are out of date, wait for the indexes, and drop cached plans."""
    await db.run(q.RESAMPLE_OUTDATED_INDEXES)
    await db.run(q.AWAIT_INDEXES, {"timeout_s": timeout_s}, timeout_s=timeout_s + 30)
    await db.run(q.CLEAR_QUERY_CACHES)
