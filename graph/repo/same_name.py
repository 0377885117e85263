"""Same-name records: the other researchers filed under a researcher's name, each with the
"same person?" score of :func:`graph.identity.score` and the evidence behind it.

A record is listed when its name could be the same person's (``Z. Liu`` with ``Ziming Liu``,
not ``Zhang Liu``). Each record is scored against the researcher from what the graph keeps
per researcher, made into a mention by :func:`graph.identity.mentions.stored_mention` — the
same mention the loader scores a new slot against: names, affiliations and their ROR ids,
coauthor keys, categories, the middle of the years active, ORCID, and S2/OpenAlex author ids
(one shared id is the same person).
The scoring context (token weights, name priors) is built over the researcher and the listed
records, so scores are comparable within one list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scholargraph.graph.db import Database
from scholargraph.graph.identity import (
    Mention,
    PairScore,
    ScoringContext,
    compare_names,
    parse_name,
    score,
)
from scholargraph.graph.identity.mentions import stored_mention
from scholargraph.graph.identity.scoring import Evidence
from scholargraph.graph.repo.models import Researcher, Row
from scholargraph.queries import read_researchers as q


@dataclass(frozen=True, slots=True)
class SameNameRecord:
    researcher: Researcher
    score: PairScore
    marked_distinct: bool


@dataclass(frozen=True, slots=True)
class SameNameCluster:
    records: tuple[SameNameRecord, ...]
    block_size: int  # records under the name block, compatible names or not


async def same_name(
    db: Database, researcher_ids: Sequence[int], limit: int
) -> dict[int, SameNameCluster]:
    rows = await db.run(q.SAME_NAME, {"ids": list(researcher_ids), "limit": limit})
    return {row["id"]: _cluster(row) for row in rows}


def _cluster(row: Row) -> SameNameCluster:
    me = row["self"]
    my_name = parse_name(me["name"])
    others = [o for o in row["others"] if compare_names(my_name, parse_name(o["name"])).compatible]
    mine = stored_mention(me)
    context = ScoringContext.build([mine, *(stored_mention(o) for o in others)])
    distinct = set(me.get("distinct_from") or ())
    records = tuple(
        SameNameRecord(
            researcher=Researcher.from_row(other),
            score=_coauthors_apart(other) or score(*_pair(me, other), context),
            marked_distinct=other["id"] in distinct,
        )
        for other in others
    )
    return SameNameCluster(records, row["total"])


def _coauthors_apart(other: Row) -> PairScore | None:
    """Two records that wrote papers together are two people, whatever their names say."""
    together = int(other.get("together") or 0)
    if not together:
        return None
    text = f"they wrote {together} paper{'s' if together > 1 else ''} together: two people"
    return PairScore(0.0, -50.0, (Evidence("coauthors", together, -50.0, text),), rule="coauthors")


def _pair(a: Row, b: Row) -> tuple[Mention, Mention]:
    """The two mentions, carrying an S2 or OpenAlex author id only when the two share it."""
    return stored_mention(a, shared_with=b), stored_mention(b, shared_with=a)
