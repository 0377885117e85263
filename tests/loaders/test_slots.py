"""One researcher per author slot ``(paper, position)``, whatever the sources and their order;
positions from the source that owns the author order; every source's mention on the edge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.identity.rules import METHOD_RANK
from scholargraph.graph.loaders.converge import converge_blocks
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import PaperRecord
from scholargraph.queries import Query
from tests.loaders.records_factory import author, paper

HELD_TWICE = Query(
    "test.slots_held_twice",
    "MATCH (p:Paper)<-[a:AUTHORED]-(r:Researcher) "
    "WITH p, a.position AS position, collect(r.id) AS holders WHERE size(holders) > 1 "
    "RETURN p.key AS paper, position, holders ORDER BY paper, position",
)
SLOTS = Query(
    "test.slot_edges",
    "MATCH (p:Paper)<-[a:AUTHORED]-(r:Researcher) "
    "RETURN p.key AS paper, a.position AS position, r.id AS id, a.raw_name AS raw_name, "
    "a.source AS source, a.sources AS sources, a.mentions AS mentions, a.method AS method, "
    "a.rank AS rank, a.source_ids AS source_ids ORDER BY paper, position",
)
MISCOUNTED = Query(
    "test.miscounted_researchers",
    "MATCH (r:Researcher) WHERE r.paper_count <> COUNT { (r)-[:AUTHORED]->() } "
    "OR r.citation_count <> coalesce(COLLECT { MATCH (r)-[:AUTHORED]->(p:Paper) "
    "RETURN sum(coalesce(p.citation_count, 0)) }[0], 0) RETURN r.id AS id",
)
MATCHED = Query(
    "test.matched_authors",
    "MATCH (p:Paper {key: $key}) RETURN COUNT { (p)<-[:AUTHORED]-() } AS matched",
)


async def slots(db: Database) -> list[dict[str, Any]]:
    return await db.run(SLOTS)


def _jong(source: str) -> PaperRecord:
    if source == "arxiv":
        return paper("2105.00001", ["Anna Berg", "Pieter Jong", "Sara Kim"])
    names = [
        author("Anna Berg", "openalex", openalex="A51"),
        author("Pieter van Jong", "openalex", openalex="A52"),
        author("Sara Kim", "openalex", openalex="A53"),
    ]
    return paper("2105.00001", list(names), source="openalex")


@pytest.mark.parametrize("order", [("openalex", "arxiv"), ("arxiv", "openalex")])
async def test_two_printings_of_one_slot_are_one_researcher(
    db: Database, order: tuple[str, str]
) -> None:
    writer = GraphWriter(db)
    for source in order:
        await writer.write_papers([_jong(source)])
    assert await db.run(HELD_TWICE) == []
    assert (await db.run(MATCHED, {"key": "2105.00001"}))[0]["matched"] == 3
    jong = (await slots(db))[1]
    assert (jong["position"], jong["raw_name"], jong["source"]) == (2, "Pieter Jong", "arxiv")
    assert sorted(m.split(":", 2)[2] for m in jong["mentions"]) == [
        "Pieter Jong",
        "Pieter van Jong",
    ]
    assert jong["source_ids"] == ["openalex:A52"]


@pytest.mark.parametrize("order", [("openalex", "arxiv"), ("arxiv", "openalex")])
async def test_positions_come_from_arxiv_whichever_source_loads_first(
    db: Database, order: tuple[str, str]
) -> None:
    records = {
        "arxiv": paper("2106.00001", ["Ada Lovelace", "Alan Turing", "Grace Hopper"]),
        "openalex": paper(
            "2106.00001",
            [
                author("Alan Turing", "openalex", openalex="A2"),
                author("Ada Lovelace", "openalex", openalex="A1"),
                author("Grace Hopper", "openalex", openalex="A3"),
            ],
            source="openalex",
        ),
    }
    writer = GraphWriter(db)
    for source in order:
        await writer.write_papers([records[source]])
    held = [(s["position"], s["raw_name"], s["source"]) for s in await slots(db)]
    assert held == [
        (1, "Ada Lovelace", "arxiv"),
        (2, "Alan Turing", "arxiv"),
        (3, "Grace Hopper", "arxiv"),
    ]


@pytest.mark.parametrize("order", [("openalex", "arxiv"), ("arxiv", "openalex")])
async def test_sources_that_disagree_on_a_slot_leave_one_holder_with_both_mentions(
    db: Database, order: tuple[str, str]
) -> None:
    records = {
        "arxiv": paper("2107.00001", ["Ada Lovelace", "John Smith"]),
        "openalex": paper(
            "2107.00001",
            [
                author("Ada Lovelace", "openalex", openalex="A1"),
                author("Wei Zhang", "openalex", openalex="A9"),
            ],
            source="openalex",
        ),
    }
    writer = GraphWriter(db)
    for source in order:
        await writer.write_papers([records[source]])
    assert await db.run(HELD_TWICE) == []
    second = (await slots(db))[1]
    assert (second["raw_name"], second["source"]) == ("John Smith", "arxiv")
    assert second["sources"] == ["arxiv", "openalex"]
    assert any(m.endswith(":Wei Zhang") for m in second["mentions"])


async def test_no_slot_of_a_demo_load_is_held_twice_and_every_edge_keeps_its_provenance(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=600, seed=5)
    await load_demo(db, folder)
    assert await db.run(HELD_TWICE) == []
    truth = json.loads((folder / "truth.json").read_text())
    arxiv_slots = sum(len(p["arxiv"]) for p in truth["people"])
    edges = await slots(db)
    assert len({(e["paper"], e["position"]) for e in edges}) == len(edges) >= arxiv_slots
    assert await db.run(MISCOUNTED) == []
    for edge in edges:
        assert edge["rank"] == METHOD_RANK[edge["method"]]
        assert [m.split(":", 1)[0] for m in edge["mentions"]] == edge["sources"]
        assert isinstance(edge["source_ids"], list)


async def test_no_slot_of_the_10k_demo_load_is_held_twice_and_nothing_is_left_to_converge(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=10_000, seed=1)
    await load_demo(db, folder)
    assert await db.run(HELD_TWICE) == []
    assert await db.run(MISCOUNTED) == []
    assert await converge_blocks(db) == 0


TWO_MENTIONS_OF_ONE_SOURCE = Query(
    "test.slots_two_mentions_of_one_source",
    "MATCH (p:Paper)<-[a:AUTHORED]-(r:Researcher) "
    "WITH p, r, [m IN a.mentions | split(m, ':')[0]] AS sources "
    "WHERE size(sources) > size(COLLECT { UNWIND sources AS x RETURN DISTINCT x }) "
    "RETURN p.key AS paper, r.id AS researcher",
)


async def test_no_slot_is_held_twice_when_arxiv_loads_before_the_sources_with_ids(
    db: Database, tmp_path: Path
) -> None:
    """arXiv first places authors by name alone; S2's and OpenAlex's ids then decide which
    of two authors printed with one name is where, without a slot held twice or two slots
    of one source folded onto one edge."""
    folder = write_demo_files(tmp_path, papers=2000, seed=3)
    for source in ("ror", "arxiv", "s2", "openalex"):
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        await Loader(db, papers_per_transaction=500).run(file_chunks(paths))
    assert await db.run(HELD_TWICE) == []
    assert await db.run(TWO_MENTIONS_OF_ONE_SOURCE) == []
    assert await db.run(MISCOUNTED) == []


POSITIONS = Query(
    "test.slot_positions",
    "MATCH (:Paper {key: $key})<-[a:AUTHORED]-(r:Researcher) "
    "RETURN a.position AS position, r.id AS id, a.raw_name AS raw_name ORDER BY position",
)


async def test_an_id_placing_a_known_author_elsewhere_takes_no_other_authors_slot(
    db: Database,
) -> None:
    """OpenAlex lists Honghan Xu (known by her ORCID) third, where arXiv prints her first and
    "H. Xu" third: H. Xu's slot stays his, none of the four slots is lost."""
    honghan = author("Honghan Xu", "openalex", orcid="0000-0002-1034-4013", openalex="A1")
    lin, li = (
        author("Mei Lin", "openalex", openalex="A3"),
        author("Bo Li", "openalex", openalex="A4"),
    )
    writer = GraphWriter(db)
    await writer.write_papers(
        [paper("2101.00001", [honghan, lin, li], source="openalex", categories=("cs.CL",))]
    )
    await writer.write_papers(
        [paper("2102.00001", ["Honghan Xu", "Bo Li", "H. Xu", "Mei Lin"], categories=("cs.CL",))]
    )
    (known,) = [s for s in await slots(db) if s["paper"] == "2101.00001" and s["position"] == 1]
    first = (await db.run(POSITIONS, {"key": "2102.00001"}))[0]
    assert first["id"] == known["id"]  # arXiv's "Honghan Xu" is the ORCID holder
    hao = author("Hao Xu", "openalex", openalex="A2")
    listed = [hao, li, honghan, lin]
    await writer.write_papers(
        [paper("2102.00001", listed, source="openalex", categories=("cs.CL",))]
    )
    held = await db.run(POSITIONS, {"key": "2102.00001"})
    assert [row["position"] for row in held] == [1, 2, 3, 4]
    assert held[0]["id"] == known["id"] and held[2]["id"] != known["id"]
    assert await db.run(HELD_TWICE) == []


async def test_an_id_decides_which_of_two_authors_of_one_name_is_where(db: Database) -> None:
    """arXiv prints "Yusuke Sato" second and third and gives the known Yusuke Sato the first
    of them by name; S2's id places him third. The two edges are exchanged: he holds the
    third slot with S2's id, the other Yusuke Sato the second, each slot held once."""
    sato = author("Yusuke Sato", "s2", s2="701")
    lin, li = author("Mei Lin", "s2", s2="702"), author("Bo Li", "s2", s2="703")
    writer = GraphWriter(db)
    await writer.write_papers(
        [paper("2101.00001", [lin, sato, li], source="s2", categories=("cs.CL",))]
    )
    (known,) = [s for s in await slots(db) if s["raw_name"] == "Yusuke Sato"]
    printed = ["Mei Lin", "Yusuke Sato", "Yusuke Sato", "Bo Li"]
    await writer.write_papers([paper("2102.00001", list(printed), categories=("cs.CL",))])
    held = await db.run(POSITIONS, {"key": "2102.00001"})
    assert held[1]["id"] == known["id"]  # by name, the first of the two
    other = author("Yusuke Sato", "s2", s2="704")
    listed = [lin, other, sato, li]
    await writer.write_papers([paper("2102.00001", listed, source="s2", categories=("cs.CL",))])
    held = await db.run(POSITIONS, {"key": "2102.00001"})
    assert [row["position"] for row in held] == [1, 2, 3, 4]
    assert held[2]["id"] == known["id"] and held[1]["id"] != known["id"]
    assert await db.run(HELD_TWICE) == []
    edges = {s["position"]: s for s in await slots(db) if s["paper"] == "2102.00001"}
    assert edges[3]["source_ids"] == ["s2:701"] and edges[2]["source_ids"] == ["s2:704"]
    assert all(
        len([m for m in e["mentions"] if m.startswith("arxiv:")]) == 1 for e in edges.values()
    )


@pytest.mark.parametrize("order", [("s2", "arxiv"), ("arxiv", "s2")])
async def test_a_name_printed_at_two_positions_keeps_each_sources_author_at_its_own(
    db: Database, order: tuple[str, str]
) -> None:
    """Two namesakes on one paper: S2 prints ``Zhang Wei`` and ``W. Zhang`` with an id each,
    arXiv ``W. Zhang`` twice. After S2, arXiv's first ``W. Zhang`` finds the researcher of
    S2's second slot by name, and its second finds the same one at the same position: the
    one at the same position keeps him, the first is someone else. Either order, each S2
    author stays at its own position with its own id, and arXiv's printings sit one to a slot."""
    records = {
        "s2": paper(
            "2406.03405",
            [author("Zhang Wei", "s2", s2="3441"), author("W. Zhang", "s2", s2="3451")],
            source="s2",
        ),
        "arxiv": paper("2406.03405", ["W. Zhang", "W. Zhang"]),
    }
    writer = GraphWriter(db)
    for source in order:
        await writer.write_papers([records[source]])
    assert await db.run(HELD_TWICE) == []
    edges = {s["position"]: s for s in await slots(db)}
    assert [edges[p]["source_ids"] for p in (1, 2)] == [["s2:3441"], ["s2:3451"]]
    assert all(
        sorted(m.split(":", 1)[0] for m in e["mentions"]) == ["arxiv", "s2"] for e in edges.values()
    )
