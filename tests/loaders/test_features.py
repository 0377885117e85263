"""A researcher's matching features follow their authorships: a split or a merge makes them
again from the papers each side keeps, so the next paper is matched by what is true now, and
the moved papers' other authors name the block of whoever holds the slot now."""

from __future__ import annotations

from typing import Any

from scholargraph.graph import curation
from scholargraph.graph.db import Database, Tx
from scholargraph.graph.identity.resolver import MachineMerge
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import Authorship, PaperRecord
from scholargraph.queries import Query
from tests.loaders.records_factory import author, paper

FEATURES = Query(
    "test.features",
    "MATCH (r:Researcher {id: $id}) RETURN r.affiliation_names AS affiliations, "
    "r.category_codes AS categories, r.coauthor_keys AS coauthors, r.year_min AS year_min, "
    "r.year_max AS year_max",
)
HOLDER = Query(
    "test.feature_holder",
    "MATCH (r:Researcher)-[:AUTHORED {position: 1}]->(:Paper {key: $paper}) RETURN r.id AS id",
)
TIES = Query(
    "test.feature_ties",
    "MATCH (r:Researcher)-[:AUTHORED {position: $position}]->(:Paper {key: $paper}) "
    "RETURN r.coauthor_keys AS ties",
)


def _at(record: PaperRecord, affiliation: str) -> PaperRecord:
    """The record with its first author's affiliation printed."""
    first, *rest = record.authorships
    printed = Authorship(first.position, first.raw_name, first.author, (), (affiliation,))
    return PaperRecord(**{**_fields(record), "authorships": (printed, *rest)})


def _fields(record: PaperRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name in record.__dataclass_fields__}


async def _holder(db: Database, key: str) -> int:
    rows = await db.run(HOLDER, {"paper": key})
    return int(rows[0]["id"])


async def test_a_split_rebuilds_both_sides_and_the_next_paper_follows_the_split(
    db: Database,
) -> None:
    writer = GraphWriter(db)
    jun = author("Jun Li", "s2", s2="7")  # S2 gave two people one author id
    await writer.write_papers(
        [
            _at(
                paper(
                    f"1801.0000{i}",
                    [jun, "Wei Zhang"],
                    source="s2",
                    categories=("cs.LG",),
                    year=2018,
                ),
                "MIT",
            )
            for i in (1, 2)
        ]
        + [
            _at(
                paper(
                    "2201.00001",
                    [jun, "Mei Chen"],
                    source="s2",
                    categories=("q-bio.GN",),
                    year=2022,
                ),
                "Tsinghua University",
            )
        ]
    )
    first = await _holder(db, "1801.00001")
    assert await _holder(db, "2201.00001") == first
    event = await curation.split(
        db, first, ["2201.00001"], actor="curator:test", reason="a biologist Jun Li"
    )
    other = next(r for r, role in event.roles if role == "target")

    kept = (await db.run(FEATURES, {"id": first}))[0]
    moved = (await db.run(FEATURES, {"id": other}))[0]
    assert kept["affiliations"] == ["MIT"] and kept["categories"] == ["cs.LG"]
    assert kept["coauthors"] == ["w zhang"]
    assert (kept["year_min"], kept["year_max"]) == (2018, 2018)
    assert moved["affiliations"] == ["Tsinghua University"]
    assert moved["categories"] == ["q-bio.GN"] and moved["coauthors"] == ["m chen"]

    later = paper("2301.00001", ["Jun Li", "Mei Chen"], categories=("q-bio.GN",), year=2023)
    await writer.write_papers([_at(later, "Tsinghua University")])
    assert await _holder(db, "2301.00001") == other


async def test_a_merge_rebuilds_the_survivor_from_both_sides_papers(db: Database) -> None:
    writer = GraphWriter(db)
    # S2 split one person into two author ids: two researchers until a curator merges them.
    await writer.write_papers(
        [
            _at(
                paper(
                    "1801.00001",
                    [author("Jun Li", "s2", s2="1"), "Wei Zhang"],
                    source="s2",
                    categories=("cs.LG",),
                    year=2018,
                ),
                "MIT",
            ),
            _at(
                paper(
                    "2201.00001",
                    [author("Jun Li", "s2", s2="2"), "Mei Chen"],
                    source="s2",
                    categories=("q-bio.GN",),
                    year=2022,
                ),
                "NUS",
            ),
        ]
    )
    first, second = await _holder(db, "1801.00001"), await _holder(db, "2201.00001")
    assert first != second
    await curation.merge(db, first, [second], actor="curator:test", reason="one person")
    features = (await db.run(FEATURES, {"id": first}))[0]
    assert sorted(features["affiliations"]) == ["MIT", "NUS"]
    assert sorted(features["categories"]) == ["cs.LG", "q-bio.GN"]
    assert sorted(features["coauthors"]) == ["m chen", "w zhang"]
    assert (features["year_min"], features["year_max"]) == (2018, 2022)


def _two_people(survivor: str, merged: str) -> list[PaperRecord]:
    """Two researchers of two blocks, each with a coauthor of their own."""
    return [
        paper("1801.00001", [author(survivor, "s2", s2="1"), "Wei Zhang"], source="s2"),
        paper("2201.00001", [author(merged, "s2", s2="2"), "Mei Chen"], source="s2"),
    ]


async def _ties(db: Database, key: str, position: int) -> list[str]:
    rows = await db.run(TIES, {"paper": key, "position": position})
    return list(rows[0]["ties"])


async def test_a_merge_across_blocks_is_named_so_by_the_moved_papers_other_authors(
    db: Database,
) -> None:
    """Features name each coauthor by the block their researcher is filed under: after a
    curator merges ``Yuki Tanaka`` into ``Jun Li``, Tanaka's coauthor names ``j li``, not the
    block of a researcher that holds no slot any more."""
    await GraphWriter(db).write_papers(_two_people("Jun Li", "Yuki Tanaka"))
    first, second = await _holder(db, "1801.00001"), await _holder(db, "2201.00001")
    assert await _ties(db, "2201.00001", 2) == ["y tanaka"]
    await curation.merge(db, first, [second], actor="curator:test", reason="one person")
    assert await _ties(db, "2201.00001", 2) == ["j li"]
    assert await _ties(db, "1801.00001", 2) == ["j li"]


async def test_a_machine_merge_across_blocks_is_named_so_by_the_moved_papers_other_authors(
    db: Database,
) -> None:
    """The loader's merges (a wave of them) make the moved papers' other authors' features
    again too, as a curator's merge does."""
    await GraphWriter(db).write_papers(_two_people("Jun Li", "Yuki Tanaka"))
    first, second = await _holder(db, "1801.00001"), await _holder(db, "2201.00001")

    async def merge(tx: Tx) -> None:
        await curation.machine_merges(tx, [MachineMerge(first, second, "a test's merge")])

    await db.unit(merge)
    assert await _ties(db, "2201.00001", 2) == ["j li"]


async def test_a_split_into_a_researcher_of_another_block_is_named_so_by_its_coauthors(
    db: Database,
) -> None:
    """A curator's split ``into`` a researcher filed under another block: the moved paper's
    other authors name that block from then on."""
    await GraphWriter(db).write_papers(_two_people("Jun Li", "Yuki Tanaka"))
    first, second = await _holder(db, "1801.00001"), await _holder(db, "2201.00001")
    await curation.split(
        db, first, ["1801.00001"], actor="curator:test", reason="Tanaka's paper", into=second
    )
    assert await _ties(db, "1801.00001", 2) == ["y tanaka"]
