"""``why``: a researcher's identity with its evidence — ids, matched authorships, same-name
records with their scores, and the curation events that concern them."""

from __future__ import annotations

from typing import Any

from scholargraph.graph import curation
from scholargraph.graph.db import Database
from scholargraph.graph.repo.entities import ResearcherRef, find_researcher
from scholargraph.graph.repo.same_name import same_name
from scholargraph.queries import provenance as q


async def why(db: Database, researcher: str, *, limit: int = 20) -> dict[str, Any]:
    me = await find_researcher(db, ResearcherRef(id=researcher))
    params = {"id": me.id, "limit": limit}
    cluster = (await same_name(db, [me.id], limit)).get(me.id)
    events = (await curation.events(db, [me.id])).get(me.id, ())
    return {
        "researcher": {
            "id": me.id,
            "name": me.name,
            "path": me.path,
            "orcid": me.orcid,
            "merged_into": me.merged_into,
        },
        "identifiers": await db.run(q.IDENTIFIERS, params),
        "authorships": await db.run(q.AUTHORSHIPS, params),
        "same_name": [
            {
                "id": rec.researcher.id,
                "name": rec.researcher.name,
                "papers": rec.researcher.paper_count,
                "same_person": round(rec.score.probability, 3),
                "marked_distinct": rec.marked_distinct,
                "evidence": [e.text for e in rec.score.evidence],
            }
            for rec in (cluster.records if cluster else ())
        ],
        "events": [
            {"kind": e.kind, "actor": e.actor, "reason": e.reason, "at": e.at.isoformat()}
            for e in events
        ],
    }
