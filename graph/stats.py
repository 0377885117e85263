from __future__ import annotations

from graph.db import Database
from queries import stats as q


async def graph_stats(db: Database) -> dict[str, dict[str, int]]:
    """Counts of nodes by label and relationships by type: ``{"nodes": …, "relationships": …}``."""
    nodes = await db.run(q.NODE_COUNTS)
    rels = await db.run(q.RELATIONSHIP_COUNTS)
    return {
        "nodes": {row["label"]: row["n"] for row in nodes if row["n"]},
        "relationships": {row["type"]: row["n"] for row in rels if row["n"]},
    }
