"""The writer against the real database: identity rules, idempotence, COAUTHOR, atomicity."""

from __future__ import annotations

from typing import Any

import pytest

from scholargraph.graph import curation
from scholargraph.graph.db import Database
from scholargraph.graph.errors import DatabaseError
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import InstitutionRef
from scholargraph.graph.stats import graph_stats
from scholargraph.queries import Query
from scholargraph.queries import writer as wq
from tests.loaders.records_factory import author, paper

ROWS = Query(
    "test.authorships",
    "MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper) "
    "RETURN p.key AS paper, a.position AS position, r.id AS id, r.name AS name, "
    "a.method AS method, a.sources AS sources, a.kind AS kind, r.s2_ids AS s2_ids, "
    "r.openalex_ids AS openalex_ids, r.orcid AS orcid ORDER BY paper, position",
)
COAUTHORS = Query(
    "test.coauthors",
    "MATCH (a:Researcher)-[c:COAUTHOR]->(b:Researcher) "
    "RETURN a.name AS a, b.name AS b, c.joint_papers AS n, c.first_year AS y0, "
    "c.last_year AS y1, a.id < b.id AS ordered ORDER BY a, b",
)


async def rows(db: Database, query: Query = ROWS) -> list[dict[str, Any]]:
    return await db.run(query)


async def test_one_paper_from_three_sources_is_one_set_of_researchers(db: Database) -> None:
    writer = GraphWriter(db)
    names = ["Shenggan Cheng", "Ziming Liu", "Jiangsu Du", "Yang You"]
    await writer.write_papers([paper("2301.08658", list(names))])
    s2 = [author(n, "s2", s2=f"10{i}") for i, n in enumerate(names)]
    await writer.write_papers([paper("2301.08658", list(s2), source="s2")])
    oa = [author(n, "openalex", openalex=f"A50{i}") for i, n in enumerate(names)]
    oa[1] = author("Ziming Liu", "openalex", openalex="A501", orcid="0009-0009-3355-6770")
    await writer.write_papers([paper("2301.08658", list(oa), source="openalex")])

    result = await rows(db)
    assert [r["name"] for r in result] == names
    assert [r["kind"] for r in result] == ["first", "middle", "middle", "last"]
    assert all(r["method"] == "cross_source" for r in result)
    assert all(r["sources"] == ["arxiv", "openalex", "s2"] for r in result)
    ziming = result[1]
    assert ziming["s2_ids"] == ["101"] and ziming["openalex_ids"] == ["A501"]
    assert ziming["orcid"] == "0009-0009-3355-6770"
    stats = await graph_stats(db)
    assert stats["nodes"]["Researcher"] == 4
    assert stats["nodes"]["Identifier"] == 9
    assert stats["relationships"]["COAUTHOR"] == 6


async def test_writing_the_same_records_twice_changes_nothing(db: Database) -> None:
    writer = GraphWriter(db)
    batch = [
        paper(
            "0704.0001",
            ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C.-P. Yuan"],
            categories=("hep-ph",),
            year=2007,
        ),
        paper("astro-ph/9901001", ["A. Author", "B. Writer"], categories=("astro-ph",), year=1999),
    ]
    first = await writer.write_papers(batch)
    stats = await graph_stats(db)
    snapshot = await rows(db)
    second = await writer.write_papers(batch)
    assert (first.created, first.unchanged) == (2, 0)
    assert (second.created, second.updated, second.unchanged) == (0, 0, 2)
    assert await graph_stats(db) == stats
    assert await rows(db) == snapshot


async def test_coauthor_edges_count_joint_papers_and_years(db: Database) -> None:
    writer = GraphWriter(db)
    ada, bob, cy = (
        author(n, "s2", s2=s)
        for n, s in [("Ada Lovelace", "1"), ("Bob Babbage", "2"), ("Cy Clark", "3")]
    )
    await writer.write_papers(
        [
            paper("2001.00001", [ada, bob], source="s2", year=2020),
            paper("2201.00001", [ada, bob, cy], source="s2", year=2022),
        ]
    )
    await writer.write_papers([paper("1801.00001", [bob, ada], source="s2", year=2018)])
    edges = await rows(db, COAUTHORS)
    assert all(e["ordered"] for e in edges)
    by_pair = {(e["a"], e["b"]) if e["a"] < e["b"] else (e["b"], e["a"]): e for e in edges}
    assert by_pair[("Ada Lovelace", "Bob Babbage")]["n"] == 3
    assert by_pair[("Ada Lovelace", "Bob Babbage")]["y0"] == 2018
    assert by_pair[("Ada Lovelace", "Bob Babbage")]["y1"] == 2022
    assert by_pair[("Ada Lovelace", "Cy Clark")]["n"] == 1


async def test_papers_over_the_cap_keep_authorships_but_add_no_coauthors(db: Database) -> None:
    writer = GraphWriter(db, coauthor_cap=3)
    crowd = [f"Member{i} Collab" for i in range(5)]
    await writer.write_papers([paper("1207.7214", crowd, categories=("hep-ex",))])
    stats = await graph_stats(db)
    assert stats["relationships"]["AUTHORED"] == 5
    assert "COAUTHOR" not in stats["relationships"]
    flagged = await db.run(Query("test.hyper", "MATCH (p:Paper) RETURN p.hyperauthored AS h"))
    assert flagged == [{"h": True}]


async def test_same_orcid_is_one_researcher_and_different_orcids_never_merge(
    db: Database,
) -> None:
    writer = GraphWriter(db)
    one = author("Jun Li", "openalex", orcid="0000-0002-1825-0097")
    other = author("Jun Li", "openalex", orcid="0000-0001-5109-3700")
    await writer.write_papers(
        [
            paper("2101.00001", [one, "Wei Zhang"], source="openalex"),
            paper("2102.00001", [one, "Wei Zhang"], source="openalex"),
            paper("2103.00001", [other, "Wei Zhang"], source="openalex"),
        ]
    )
    result = await rows(db)
    jun = {r["paper"]: r["id"] for r in result if r["name"] == "Jun Li"}
    assert jun["2101.00001"] == jun["2102.00001"] != jun["2103.00001"]


async def test_institutions_get_public_ids_and_affiliations(db: Database) -> None:
    writer = GraphWriter(db)
    nus = InstitutionRef(
        ror_id="01tgyzw49",
        openalex_id="I165932596",
        name="National University of Singapore",
        country_code="SG",
    )
    await writer.write_papers(
        [paper("2301.08658", ["Yang You"], source="openalex", institutions={1: nus}, year=2023)]
    )
    await writer.write_papers(
        [paper("2302.00001", ["Yang You"], source="openalex", institutions={1: nus}, year=2021)]
    )
    rows_ = await db.run(
        Query(
            "test.affiliated",
            "MATCH (r:Researcher)-[a:AFFILIATED]->(i:Institution) "
            "RETURN i.id AS id, i.name AS name, i.ror_id AS ror, a.first_year AS y0, "
            "a.last_year AS y1",
        )
    )
    assert len(rows_) == 1
    assert rows_[0]["ror"] == "01tgyzw49" and rows_[0]["id"] >= 10_000
    assert (rows_[0]["y0"], rows_[0]["y1"]) == (2021, 2023)


AFFILIATIONS = Query(
    "test.affiliations",
    "MATCH (r:Researcher)-[a:AFFILIATED]->(i:Institution) WHERE r.merged_into IS NULL "
    "RETURN r.id AS id, i.name AS name, a.first_year AS y0, a.last_year AS y1 "
    "ORDER BY id, name",
)


async def test_a_curator_split_takes_the_affiliations_the_moved_papers_give(
    db: Database,
) -> None:
    writer = GraphWriter(db)
    nus = InstitutionRef(ror_id="01tgyzw49", name="National University of Singapore")
    berkeley = InstitutionRef(ror_id="01an7q238", name="UC Berkeley")
    you = author("Yang You", "openalex", openalex="A5000000001")
    for key, year, where in [
        ("2001.00001", 2019, nus),
        ("2101.00001", 2021, nus),
        ("2301.00001", 2023, berkeley),
    ]:
        await writer.write_papers(
            [paper(key, [you], source="openalex", institutions={1: where}, year=year)]
        )
    [source] = {row["id"] for row in await rows(db)}
    assert [(r["name"], r["y0"], r["y1"]) for r in await db.run(AFFILIATIONS)] == [
        ("National University of Singapore", 2019, 2021),
        ("UC Berkeley", 2023, 2023),
    ]

    event = await curation.split(
        db, source, ["2301.00001", "2101.00001"], actor="ana", reason="two people"
    )
    [target] = [researcher for researcher, role in event.roles if role == "target"]
    assert [(r["id"], r["name"], r["y0"], r["y1"]) for r in await db.run(AFFILIATIONS)] == sorted(
        [
            (source, "National University of Singapore", 2019, 2019),
            (target, "National University of Singapore", 2021, 2021),
            (target, "UC Berkeley", 2023, 2023),
        ]
    )


async def test_a_failing_batch_leaves_nothing_half_written(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = GraphWriter(db)
    # A new paper's edges are created (CREATE_AUTHORSHIPS), after its researchers and itself.
    broken = Query(
        wq.CREATE_AUTHORSHIPS.name + ".broken", "UNWIND $rows AS row RETURN 1/0", "write"
    )
    monkeypatch.setattr(wq, "CREATE_AUTHORSHIPS", broken)
    with pytest.raises(DatabaseError, match="failed"):
        await writer.write_papers([paper("2301.08658", ["Ziming Liu", "Yang You"])])
    stats = await graph_stats(db)
    assert "Paper" not in stats["nodes"]
    assert "Researcher" not in stats["nodes"]


async def test_ror_children_link_to_parents_that_arrive_later(db: Database) -> None:
    from scholargraph.graph.loaders.profiles import write_institutions
    from scholargraph.graph.records import InstitutionRecord

    child = InstitutionRecord(
        name="Child Lab", source="ror", ror_id="02aaaaa11", parent_ids=("03bbbbb22",)
    )
    parent = InstitutionRecord(name="Parent University", source="ror", ror_id="03bbbbb22")
    await write_institutions(db, [child])
    assert "PART_OF" not in (await graph_stats(db))["relationships"]
    await write_institutions(db, [parent])
    await write_institutions(db, [parent])  # again: still one link
    assert (await graph_stats(db))["relationships"]["PART_OF"] == 1
