"""Same-name records: the other researchers filed under a researcher's name, each with the
"same person?" score of :func:`graph.identity.score` and the evidence behind it.

A record is listed when its name could be the same person's (``Z. Liu`` with ``Ziming Liu``,
not ``Zhang Liu``). Each record is scored against the researcher from what the graph keeps
per researcher: names, affiliations and their ROR ids, coauthor keys, categories, the middle
of the years active, ORCID, and S2/OpenAlex author ids (one shared id is the same person).
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
    mine = _mention(me)
    context = ScoringContext.build([mine, *(_mention(o) for o in others)])
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
    shared_s2 = sorted(set(a.get("s2_ids") or ()) & set(b.get("s2_ids") or ()))
    shared_openalex = sorted(set(a.get("openalex_ids") or ()) & set(b.get("openalex_ids") or ()))
    s2 = shared_s2[0] if shared_s2 else None
    openalex = shared_openalex[0] if shared_openalex else None
    return _mention(a, s2, openalex), _mention(b, s2, openalex)


def _mention(row: Row, s2_id: str | None = None, openalex_id: str | None = None) -> Mention:
    year_min, year_max = row.get("year_min"), row.get("year_max")
    years = [y for y in (year_min, year_max) if y is not None]
    return Mention(
        mention_id=str(row["id"]),
        name=parse_name(row["name"]),
        affiliations=tuple(row.get("affiliation_names") or ()),
        ror_ids=tuple(row.get("ror_ids") or ()),
        coauthors=frozenset(row.get("coauthor_keys") or ()),
        categories=frozenset(row.get("category_codes") or ()),
        year=round(sum(years) / len(years)) if years else None,
        orcid=row.get("orcid"),
        s2_author_id=s2_id,
        openalex_author_id=openalex_id,
    )
