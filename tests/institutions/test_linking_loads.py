"""Loads link the affiliation strings of author slots to the ROR institutions in the store:
at the load when ROR came first, by the pass after a ROR load when it came after, to the same
``AFFILIATED`` edges either way (see :mod:`graph.institutions.linking`)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from scholargraph.graph import curation
from scholargraph.graph.canonical import canonical_dump, differences, state_of
from scholargraph.graph.db import Database
from scholargraph.graph.institutions.linking import AffiliationLinker
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader, LoadSummary
from scholargraph.graph.loaders.rematch import rematch
from scholargraph.graph.records import Batch, InstitutionRef, PaperRecord
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.researchers import affiliation_pages
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA
from tests.institutions.records import KING_KHALID, TOKYO, UW, write_records
from tests.loaders.records_factory import author, paper

EDGES = Query(
    "test.linking_edges",
    """
    MATCH (r:Researcher)-[a:AFFILIATED]->(i:Institution)
    RETURN collect({name: r.name, ror: i.ror_id, source: a.source, method: a.method,
                    score: a.score, raw: a.raw, first_year: a.first_year,
                    last_year: a.last_year, from_papers: a.from_papers,
                    from_strings: a.from_strings, from_profile: a.from_profile}) AS rows
    """,
)
RESEARCHER_IDS = Query("test.linking_researcher_ids", "MATCH (r:Researcher) RETURN r.id AS id")
SLOT_STRINGS = Query(
    "test.linking_slot_strings",
    """
    MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper)
    RETURN collect({name: r.name, paper: p.key, raw: a.raw_affiliations}) AS rows
    """,
)


def _with_strings(record: PaperRecord, strings: dict[int, tuple[str, ...]]) -> PaperRecord:
    authorships = tuple(
        replace(a, raw_affiliations=strings.get(a.position, ())) for a in record.authorships
    )
    return replace(record, authorships=authorships)


def _papers() -> tuple[list[PaperRecord], list[PaperRecord]]:
    """Two sources' papers: arXiv's and Semantic Scholar's, one paper in both."""
    arxiv = [
        _with_strings(
            paper("2301.00001", ["Ana Lima", "Ben Okafor"], year=2021),
            {
                1: ("Department of Physics, University of Tokyo, Tokyo, Japan",),
                2: ("Institute of Physics",),  # generic without its place: abstains
            },
        ),
        _with_strings(
            paper("2301.00002", ["Chen Wei"], year=2022),
            {1: ("Dept. of Mathematics, University of Washington, Seattle, WA, USA",)},
        ),
    ]
    s2 = [
        _with_strings(
            paper(
                "2301.00001",
                [author("Ana Lima", "s2", s2="111"), author("Ben Okafor", "s2", s2="222")],
                source="s2",
                year=2021,
            ),
            {
                1: ("UTokyo, Tokyo 113-0033, Japan",),
                2: ("King Khalid University, Abha, Saudi Arabia",),
            },
        ),
        _with_strings(
            paper("2301.00003", [author("Dana Roy", "s2", s2="333")], source="s2", year=2019),
            {1: ("Somewhere College, Nowhere",)},
        ),
    ]
    return arxiv, s2


async def _chunks(name: str, papers: list[PaperRecord]) -> AsyncIterator[tuple[str, Batch]]:
    yield name, Batch(papers=papers)


async def _load_papers(db: Database, papers: list[PaperRecord]) -> LoadSummary:
    return await Loader(db, embed=False).run(_chunks("papers", papers))


async def _load_ror(db: Database, folder: Path) -> LoadSummary:
    return await Loader(db, embed=False).run(file_chunks([folder]))


async def _edges(db: Database) -> list[dict[str, Any]]:
    rows = await db.run_rows(EDGES)
    return sorted(rows, key=lambda r: (r["name"], r["ror"], r["source"]))


async def test_strings_link_at_the_load_when_ror_came_first(db: Database, tmp_path: Path) -> None:
    await _load_ror(db, write_records(tmp_path / "ror"))
    arxiv, s2 = _papers()
    await _load_papers(db, arxiv)
    await _load_papers(db, s2)
    edges = await _edges(db)
    assert [(e["name"], e["ror"], e["source"]) for e in edges] == [
        ("Ana Lima", TOKYO, "arxiv"),
        ("Ana Lima", TOKYO, "s2"),
        ("Ben Okafor", KING_KHALID, "s2"),
        ("Chen Wei", UW, "arxiv"),
    ]
    tokyo_arxiv, tokyo_s2 = edges[0], edges[1]
    assert tokyo_arxiv["method"] == "exact_name" and 0.7 <= tokyo_arxiv["score"] <= 1.0
    assert tokyo_arxiv["raw"] == ["Department of Physics, University of Tokyo, Tokyo, Japan"]
    assert (tokyo_arxiv["first_year"], tokyo_arxiv["last_year"]) == (2021, 2021)
    assert tokyo_arxiv["from_strings"] and not tokyo_arxiv["from_papers"]
    assert not tokyo_arxiv["from_profile"]
    assert tokyo_s2["method"] == "acronym_with_city"
    assert tokyo_s2["raw"] == ["UTokyo, Tokyo 113-0033, Japan"]
    # The strings stay on the slots, tagged with their source, for a later ROR load.
    slots = {(r["name"], r["paper"]): r["raw"] for r in await db.run_rows(SLOT_STRINGS)}
    assert slots[("Ana Lima", "2301.00001")] == [
        "arxiv:Department of Physics, University of Tokyo, Tokyo, Japan",
        "s2:UTokyo, Tokyo 113-0033, Japan",
    ]


async def test_ror_after_the_papers_gives_the_same_edges(db: Database, tmp_path: Path) -> None:
    ror = write_records(tmp_path / "ror")
    arxiv, s2 = _papers()
    await _load_ror(db, ror)
    await _load_papers(db, arxiv)
    await _load_papers(db, s2)
    before = state_of(await canonical_dump(db))
    assert len(before["affiliations"]) == 4

    await db.run(CLEAR_DATA)
    await _load_papers(db, s2)
    await _load_papers(db, arxiv)
    assert await _edges(db) == []
    summary = await _load_ror(db, ror)
    assert summary.strings_rematched == 4
    after = state_of(await canonical_dump(db))
    assert differences(before, after) == []
    assert before["affiliations"] == after["affiliations"]


async def test_rematch_again_changes_nothing(db: Database, tmp_path: Path) -> None:
    arxiv, s2 = _papers()
    await _load_papers(db, arxiv)
    await _load_papers(db, s2)
    await _load_ror(db, write_records(tmp_path / "ror"))
    once = json.dumps(await _edges(db), sort_keys=True)
    assert await rematch(db, per_page=1) == 4  # one researcher a page
    assert json.dumps(await _edges(db), sort_keys=True) == once


async def test_an_id_a_source_gave_is_method_id_and_its_strings_are_not_matched(
    db: Database, tmp_path: Path
) -> None:
    await _load_ror(db, write_records(tmp_path / "ror"))
    record = paper(
        "W1",
        [author("Eva Berg", "openalex", openalex="A1")],
        source="openalex",
        institutions={1: InstitutionRef(ror_id=UW, name="University of Washington")},
    )
    # The string names another institution: with an id given, the id decides.
    record = _with_strings(record, {1: ("King Khalid University, Abha, Saudi Arabia",)})
    await _load_papers(db, [record])
    edges = await _edges(db)
    assert [(e["ror"], e["method"], e["score"], e["raw"]) for e in edges] == [(UW, "id", 1.0, [])]
    assert [r["raw"] for r in await db.run_rows(SLOT_STRINGS)] == [[]]


async def test_an_edge_reached_by_id_and_by_string_keeps_the_id(
    db: Database, tmp_path: Path
) -> None:
    await _load_ror(db, write_records(tmp_path / "ror"))
    eva = author("Eva Berg", orcid="0000-0002-1825-0097")
    given = paper(
        "2301.00009",
        [eva],
        institutions={1: InstitutionRef(ror_id=UW, name="University of Washington")},
        year=2018,
    )
    printed = _with_strings(
        paper("2301.00010", [eva], year=2023),
        {1: ("University of Washington, Seattle, WA, USA",)},
    )
    await _load_papers(db, [printed])
    await _load_papers(db, [given])
    [edge] = await _edges(db)
    assert (edge["method"], edge["score"]) == ("id", 1.0)
    assert edge["raw"] == ["University of Washington, Seattle, WA, USA"]
    assert (edge["first_year"], edge["last_year"]) == (2018, 2023)
    assert edge["from_papers"] and edge["from_strings"]


async def test_affiliation_pages_show_the_best_method_and_score(
    db: Database, tmp_path: Path
) -> None:
    await _load_ror(db, write_records(tmp_path / "ror"))
    arxiv, s2 = _papers()
    await _load_papers(db, arxiv)
    await _load_papers(db, s2)
    rows = await db.run_rows(
        Query(
            "test.linking_ana",
            "MATCH (r:Researcher {name: 'Ana Lima'}) RETURN collect(r.id) AS rows",
        )
    )
    pages = await affiliation_pages(db, rows, PageRequest(first=10))
    [edge] = pages[rows[0]].edges
    assert edge.node.institution.ror_id == TOKYO
    assert edge.node.sources == ("arxiv", "s2")
    # the arXiv string's exact name scores above S2's acronym
    assert edge.node.method == "exact_name" and edge.node.score is not None
    assert edge.node.score > 0.9


async def test_the_linker_matches_each_string_once_per_index(db: Database, tmp_path: Path) -> None:
    linker = AffiliationLinker(db)
    assert await linker.match(["University of Tokyo, Japan"]) == {}  # no ROR yet
    await _load_ror(db, write_records(tmp_path / "ror"))
    assert await linker.match(["University of Tokyo, Japan"]) == {}  # the index read before
    linker.stale()
    found = await linker.match(["University of Tokyo, Japan", "Institute of Physics"])
    assert list(found) == ["University of Tokyo, Japan"]
    assert found["University of Tokyo, Japan"].ror_id == TOKYO


async def test_a_split_settles_the_string_edges_on_the_slots_left(
    db: Database, tmp_path: Path
) -> None:
    """A string edge rests on the slots printing its strings: when a curator moves one of
    them away, the edge keeps the strings, years and best match of the slots left."""
    await _load_ror(db, write_records(tmp_path / "ror"))
    tokyo = "Department of Physics, University of Tokyo, Tokyo, Japan"
    await _load_papers(
        db,
        [
            _with_strings(paper("1901.00001", ["Ana Lima"], year=2019), {1: (tokyo,)}),
            _with_strings(
                paper("2101.00001", ["Ana Lima"], year=2021),
                {1: ("UTokyo, Tokyo 113-0033, Japan",)},
            ),
        ],
    )
    [before] = await _edges(db)
    assert (before["first_year"], before["last_year"], len(before["raw"])) == (2019, 2021, 2)
    [row] = await db.run(RESEARCHER_IDS)
    await curation.split(db, row["id"], ["2101.00001"], actor="ana", reason="two people")
    [left] = [e for e in await _edges(db) if e["source"] == "arxiv"]
    assert (left["first_year"], left["last_year"], left["raw"]) == (2019, 2019, [tokyo])
    assert left["method"] == "exact_name"
