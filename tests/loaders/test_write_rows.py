"""Rows of one statement: a batch creates the edges of papers no one held outright (they
cannot exist yet), and the statement leaves exactly what the upsert leaves given the same rows
on an empty slate, so a load through both paths is the same graph. An edge's affiliation rows
are taken together and leave what they leave one by one, in any order; two edges joined into
one in one statement keep the better score, whichever comes last. Two authorship rows of one
edge, or two folds into one edge, in one statement leave what they leave one by one: each
row's owner and rule are weighed against the edge as the rows before it left it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.identity.mentions import ORDER_RANK
from scholargraph.graph.identity.plan import BatchPlan
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import InstitutionRef
from scholargraph.queries import Query
from scholargraph.queries import curation as kq
from scholargraph.queries import writer as wq
from scholargraph.queries.admin import CLEAR_DATA
from tests.conftest import record_query
from tests.loaders.records_factory import author, paper

AUTHORED = Query("test.write_rows.authored", "MATCH ()-[a:AUTHORED]->() RETURN properties(a) AS p")
AFFILIATED = Query(
    "test.write_rows.affiliated", "MATCH ()-[a:AFFILIATED]->() RETURN properties(a) AS p"
)
SEED = Query(
    "test.write_rows.seed",
    "CREATE (:Researcher {id: 7, name: 'Ada Lovelace'}), (:Paper {key: 'p1', title: 't'}), "
    "(:Institution {id: 3, name: 'NUS'})",
    "write",
)

AUTHORSHIP_ROW = wq.AuthorshipRow(
    paper="p1",
    researcher=7,
    position=1,
    kind="first",
    raw_name="A. Lovelace",
    source="openalex",
    method="openalex_id",
    rank=1,
    confidence=1.0,
    source_ids=["openalex:A1"],
    mention="openalex:openalex_id:A. Lovelace",
    affiliations=["NUS"],
    institutions=["openalex:openalex:I1", "openalex:ror:01tgyzw49"],
    raw_affiliations=["openalex:Dept. of Maths, NUS"],
)


def _affiliation(**changes: Any) -> wq.AffiliationRow:
    row = wq.AffiliationRow(
        researcher=7,
        institution=3,
        source="openalex",
        first_year=2020,
        last_year=2020,
        from_papers=True,
        from_strings=False,
        profile_keys=[],
        method="id",
        score=1.0,
        raw=[],
    )
    row.update(changes)  # type: ignore[typeddict-item]
    return row


def _matched(year: int, method: str, raw: list[str]) -> wq.AffiliationRow:
    """A row of a slot's strings the matcher linked (score 0.9)."""
    strings = {"from_papers": False, "from_strings": True, "score": 0.9}
    return _affiliation(first_year=year, last_year=year, method=method, raw=raw, **strings)


AFFILIATION_ROWS = [
    _affiliation(),
    _affiliation(first_year=None, last_year=None),
    _matched(2018, "name", ["National Univ. of Singapore", "NUS"]),
    _matched(2023, "acronym", ["NUS", *(f"NUS lab {i:02}" for i in range(25))]),
    _affiliation(
        first_year=2010,
        last_year=2012,
        from_papers=False,
        from_strings=False,
        profile_keys=["orcid:0000-0002-1825-0097"],
        method="profile",
        score=0.95,
    ),
]


async def _left_by(
    db: Database, query: Query, rows: Sequence[Any], read: Query
) -> list[dict[str, Any]]:
    await db.run(CLEAR_DATA)
    await db.run(SEED)
    await db.run(query, {"rows": list(rows), "order": dict(ORDER_RANK)})
    return [row["p"] for row in await db.run(read)]


async def test_a_created_edge_is_what_the_upsert_makes_of_a_new_one(db: Database) -> None:
    created = await _left_by(db, wq.CREATE_AUTHORSHIPS, [AUTHORSHIP_ROW], AUTHORED)
    upserted = await _left_by(db, wq.UPSERT_AUTHORSHIPS, [AUTHORSHIP_ROW], AUTHORED)
    assert created == upserted
    bare = wq.AuthorshipRow(
        **{**AUTHORSHIP_ROW, "source_ids": [], "affiliations": [], "institutions": []}
    )
    bare["raw_affiliations"] = []
    assert await _left_by(db, wq.CREATE_AUTHORSHIPS, [bare], AUTHORED) == await _left_by(
        db, wq.UPSERT_AUTHORSHIPS, [bare], AUTHORED
    )


async def _one_by_one(
    db: Database, query: Query, rows: Sequence[Any], read: Query
) -> list[dict[str, Any]]:
    """What the rows leave written one statement each, in their order."""
    await _left_by(db, query, rows[:1], read)
    for row in rows[1:]:
        await db.run(query, {"rows": [row], "order": dict(ORDER_RANK)})
    return [row["p"] for row in await db.run(read)]


@pytest.mark.parametrize("order", [1, -1], ids=["in order", "reversed"])
async def test_an_edge_s_rows_together_leave_what_they_leave_one_by_one(
    db: Database, order: int
) -> None:
    rows = AFFILIATION_ROWS[::order]
    together = await _left_by(db, wq.UPSERT_AFFILIATIONS, rows, AFFILIATED)
    assert together == await _one_by_one(db, wq.UPSERT_AFFILIATIONS, rows, AFFILIATED)
    assert together == await _one_by_one(db, wq.UPSERT_AFFILIATIONS, rows[::-1], AFFILIATED)
    [edge] = together
    # The best score with its method, whichever row came last.
    assert (edge["first_year"], edge["last_year"], edge["method"]) == (2010, 2023, "id")
    assert len(edge["raw"]) == 20
    assert edge["profile_years"] == ["orcid:0000-0002-1825-0097|2010|2012"]
    assert edge["from_papers"] and edge["from_strings"] and edge["from_profile"]


async def _graph_of(db: Database) -> list[Any]:
    writer = GraphWriter(db)
    nus = InstitutionRef(ror_id="01tgyzw49", openalex_id="I165932596", name="NUS")
    names = ["Ziming Liu", "Yang You", "Ada Lovelace"]
    ids = {name: f"A{i}" for i, name in enumerate(names)}
    for key, people in (("2301.08658", names[:2]), ("2302.00001", names), ("2303.1", names[1:])):
        await writer.write_papers(
            [
                paper(
                    key,
                    [author(n, "openalex", openalex=ids[n]) for n in people],
                    source="openalex",
                    institutions={1: nus, 2: nus},
                )
            ]
        )
    await writer.write_papers(
        [paper("2302.00001", [author(n, "s2", s2=ids[n]) for n in names], source="s2")]
    )
    dump = Query(
        "test.write_rows.dump",
        "MATCH (r:Researcher) OPTIONAL MATCH (r)-[e]-(x) "
        "WITH r, e, x ORDER BY type(e), coalesce(x.key, x.name, toString(x.id)) "
        "RETURN r.name AS name, r {.*, id: null} AS r, "
        "collect([type(e), properties(e), coalesce(x.key, x.name)]) AS edges ORDER BY name",
    )
    return await db.run(dump)


async def test_a_load_through_the_create_path_is_the_graph_of_the_upsert(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[str] = []

    def hear(query: Query, params: Mapping[str, Any]) -> None:
        record_query(query, params)
        sent.append(query.name)

    db.on_query = hear
    fast = await _graph_of(db)
    assert wq.CREATE_AUTHORSHIPS.name in sent
    await db.run(CLEAR_DATA)
    sent.clear()
    # Every row through the upsert: no edge created outright.
    monkeypatch.setattr(BatchPlan, "split_authorships", lambda self: ([], list(self.authorships)))
    slow = await _graph_of(db)
    assert wq.CREATE_AUTHORSHIPS.name not in sent
    assert fast == slow
    assert any(edge[0] == "AFFILIATED" for row in fast for edge in row["edges"])


JOINED = Query(
    "test.write_rows.joined",
    """
    CREATE (i:Institution {id: 3, name: 'NUS'}), (:Researcher {id: 9, name: 'Ada Lovelace'})
    CREATE (:Researcher {id: 1, name: 'A. Lovelace'})
           -[:AFFILIATED {source: 'openalex', score: 0.9, method: 'name', first_year: 2020,
                          last_year: 2020, raw: ['NUS'], matches: ['0.9|name|NUS']}]->(i)
    CREATE (:Researcher {id: 2, name: 'Ada L.'})
           -[:AFFILIATED {source: 'openalex', score: 0.8, method: 'acronym', first_year: 2021,
                          last_year: 2021, raw: ['N.U.S.'], matches: ['0.8|acronym|N.U.S.']}]->(i)
    """,
    "write",
)


@pytest.mark.parametrize("merged", [[1, 2], [2, 1]], ids=["better first", "better last"])
async def test_two_edges_joined_into_one_keep_the_better_score(
    db: Database, merged: list[int]
) -> None:
    await db.run(JOINED)
    rows = [kq.PairRow(survivor=9, merged=m) for m in merged]
    await db.run(kq.MOVE_AFFILIATIONS, {"rows": rows})
    [edge] = [row["p"] for row in await db.run(AFFILIATED)]
    assert (edge["score"], edge["method"]) == (0.9, "name")
    assert (edge["first_year"], edge["last_year"]) == (2020, 2021)
    assert edge["matches"] == ["0.8|acronym|N.U.S.", "0.9|name|NUS"]


def _mention(**changes: Any) -> wq.AuthorshipRow:
    row = wq.AuthorshipRow(**AUTHORSHIP_ROW)
    row.update(changes)  # type: ignore[typeddict-item]
    return row


# One person printed twice by one source (an id at 1, a name match at 3), and the source that
# owns the author order at 2.
MENTIONS = [
    AUTHORSHIP_ROW,
    _mention(position=3, kind="other", raw_name="Ada L.", method="name", rank=4, confidence=0.7),
    _mention(
        position=2,
        kind="other",
        raw_name="Ada Lovelace",
        source="arxiv",
        method="orcid",
        rank=2,
        mention="arxiv:orcid:Ada Lovelace",
        source_ids=["orcid:0000-0002-1825-0097"],
    ),
]


@pytest.mark.parametrize("order", [1, -1], ids=["in order", "reversed"])
async def test_an_edge_s_authorship_rows_together_leave_what_they_leave_one_by_one(
    db: Database, order: int
) -> None:
    rows = MENTIONS[::order]
    together = await _left_by(db, wq.UPSERT_AUTHORSHIPS, rows, AUTHORED)
    assert together == await _one_by_one(db, wq.UPSERT_AUTHORSHIPS, rows, AUTHORED)
    [edge] = together
    # The strongest rule, and the order's owner's position, whichever row came last.
    assert (edge["method"], edge["rank"]) == ("openalex_id", 1)
    assert (edge["source"], edge["position"], edge["raw_name"]) == ("arxiv", 2, "Ada Lovelace")


FOLDED = Query(
    "test.write_rows.folded",
    """
    CREATE (p:Paper {key: 'p1', title: 't'})
    CREATE (:Researcher {id: 1, name: 'A. Lovelace'})
           -[:AUTHORED {source: 'arxiv', position: 2, kind: 'other', raw_name: 'A. Lovelace',
                        method: 'orcid', rank: 2, confidence: 1.0,
                        mentions: ['arxiv:orcid:A. Lovelace'], sources: ['arxiv']}]->(p)
    CREATE (:Researcher {id: 2, name: 'Ada L.'})
           -[:AUTHORED {source: 's2', position: 5, kind: 'last', raw_name: 'Ada L.',
                        method: 's2_id', rank: 1, confidence: 1.0,
                        mentions: ['s2:s2_id:Ada L.'], sources: ['s2']}]->(p)
    CREATE (:Researcher {id: 9, name: 'Ada Lovelace'})
           -[:AUTHORED {source: 'openalex', position: 4, kind: 'other',
                        raw_name: 'Ada Lovelace', method: 'name', rank: 4, confidence: 0.8,
                        mentions: ['openalex:name:Ada Lovelace'], sources: ['openalex']}]->(p)
    """,
    "write",
)


async def _folded(db: Database, folds: Sequence[list[wq.FoldRow]]) -> list[dict[str, Any]]:
    await db.run(CLEAR_DATA)
    await db.run(FOLDED)
    for rows in folds:
        await db.run(wq.FOLD_SLOTS, {"rows": rows, "order": dict(ORDER_RANK)})
    return [row["p"] for row in await db.run(AUTHORED)]


@pytest.mark.parametrize("losers", [[1, 2], [2, 1]], ids=["owner first", "owner last"])
async def test_two_folds_into_one_edge_leave_what_they_leave_one_by_one(
    db: Database, losers: list[int]
) -> None:
    rows = [wq.FoldRow(paper="p1", researcher=r, into=9, source="openalex") for r in losers]
    together = await _folded(db, [rows])
    assert together == await _folded(db, [[row] for row in rows])
    [edge] = together
    # Position from the source that owns the order (arXiv), rule from the strongest (S2's id).
    assert (edge["source"], edge["position"], edge["raw_name"]) == ("arxiv", 2, "A. Lovelace")
    assert (edge["method"], edge["rank"]) == ("s2_id", 1)
    assert edge["mentions"] == [
        "arxiv:orcid:A. Lovelace",
        "openalex:name:Ada Lovelace",
        "s2:s2_id:Ada L.",
    ]
