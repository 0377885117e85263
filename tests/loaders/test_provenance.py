"""Every AUTHORED edge keeps the strongest rule that matched it, with its score, and every
source's name, ids and rule for the slot, as lists."""

from __future__ import annotations

from typing import Any

from scholargraph.graph.db import Database
from scholargraph.graph.identity.rules import METHOD_RANK
from scholargraph.graph.loaders.profiles import write_authors
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.repo.provenance import why
from scholargraph.queries import Query
from tests.loaders.records_factory import author, paper

EDGES = Query(
    "test.provenance_edges",
    "MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper) "
    "RETURN p.key AS paper, a.position AS position, r.id AS id, a.method AS method, "
    "a.rank AS rank, a.confidence AS confidence, a.sources AS sources, "
    "a.source_ids AS source_ids, a.mentions AS mentions, a.raw_name AS raw_name, "
    "a.source AS source ORDER BY paper, position",
)
ADA_ORCID = "0000-0002-1825-0097"


async def edges(db: Database) -> list[dict[str, Any]]:
    return await db.run(EDGES)


async def test_an_orcid_match_stays_the_rule_after_a_name_only_write(db: Database) -> None:
    await write_authors(db, [author("Ada Lovelace", "orcid", orcid=ADA_ORCID)])
    writer = GraphWriter(db)
    ada = author("Ada Lovelace", "openalex", openalex="A5001", orcid=ADA_ORCID)
    await writer.write_papers(
        [paper("1843.00001", [ada, "Charles Babbage"], source="openalex", categories=("cs.NA",))]
    )
    await writer.write_papers([paper("1843.00001", ["Ada Lovelace", "Charles Babbage"])])

    first = (await edges(db))[0]
    assert (first["method"], first["rank"], first["confidence"]) == ("orcid", 1, 1.0)
    assert first["sources"] == ["arxiv", "openalex"]
    assert first["source_ids"] == ["openalex:A5001", f"orcid:{ADA_ORCID}"]
    assert first["mentions"] == [
        "arxiv:cross_source:Ada Lovelace",
        "openalex:orcid:Ada Lovelace",
    ]
    report = await why(db, str(first["id"]))
    assert report["authorships"][0]["source_ids"] == first["source_ids"]
    assert report["authorships"][0]["method"] == "orcid"
    assert report["authorships"][0]["mentions"] == first["mentions"]


async def test_each_edge_ranks_its_rule_and_keeps_lists(db: Database) -> None:
    writer = GraphWriter(db)
    await writer.write_papers([paper("2301.08658", ["Ziming Liu", "Yang You"])])
    s2 = [author("Ziming Liu", "s2", s2="1"), author("Yang You", "s2", s2="2")]
    await writer.write_papers([paper("2301.08658", list(s2), source="s2")])
    for edge in await edges(db):
        assert edge["rank"] == METHOD_RANK[edge["method"]]
        assert isinstance(edge["source_ids"], list) and len(edge["source_ids"]) == 1
        assert [m.split(":")[0] for m in edge["mentions"]] == edge["sources"] == ["arxiv", "s2"]
        assert edge["source"] == "arxiv"


async def test_a_stronger_rule_from_a_later_source_replaces_a_weaker_one(db: Database) -> None:
    writer = GraphWriter(db)
    await writer.write_papers([paper("2301.08658", ["Ziming Liu", "Yang You"])])
    await write_authors(db, [author("Ziming Liu", "s2", s2="2004394")])  # known from a profile
    await writer.write_papers(
        [paper("2301.08658", [author("Ziming Liu", "s2", s2="2004394"), "Yang You"], source="s2")]
    )
    first = (await edges(db))[0]
    assert (first["method"], first["rank"]) == ("s2_id", METHOD_RANK["s2_id"])
    assert first["raw_name"] == "Ziming Liu" and first["source"] == "arxiv"
