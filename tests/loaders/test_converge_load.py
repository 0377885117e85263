"""After each load the touched name blocks are decided again from the final graph: moves are
recorded machine decisions, a second pass has nothing left to move, and no author slot is
ever held twice (asserted on the 10,000-paper demo corpus)."""

from __future__ import annotations

from pathlib import Path

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.converge import converge_blocks
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA

SLOTS_HELD_TWICE = Query(
    "test.slots_held_twice",
    """
    MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper)
    WITH p.key AS paper, a.position AS position, count(r) AS holders
    WHERE holders > 1
    RETURN collect({paper: paper, position: position, holders: holders}) AS rows
    """,
)
MOVES = Query(
    "test.machine_moves",
    """
    MATCH (e:CurationEvent {kind: 'move'})
    RETURN collect({actor: e.actor, reason: e.reason, papers: e.papers,
                    roles: [(e)-[c:CONCERNS]->(r:Researcher) | c.role]}) AS rows
    """,
)


async def test_a_load_converges_and_a_second_pass_moves_nothing(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=120, seed=3)
    await db.run(CLEAR_DATA)
    moved = 0
    for source in ("ror", "arxiv", "s2", "openalex"):
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        summary = await Loader(db, papers_per_transaction=40).run(file_chunks(paths))
        moved += summary.slots_moved
    assert moved > 0  # arXiv-first, some name-only slots land with the wrong namesake
    events = await db.run_rows(MOVES)
    assert sum(len(e["papers"]) for e in events) == moved
    assert all(e["actor"] == "machine" and "name block" in e["reason"] for e in events)
    assert all(sorted(e["roles"]) == ["source", "target"] for e in events)
    assert await converge_blocks(db) == 0
    assert await db.run_rows(SLOTS_HELD_TWICE) == []


async def test_no_author_slot_is_held_twice_in_the_10k_demo_load(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=10_000, seed=1)
    await db.run(CLEAR_DATA)
    await load_demo(db, folder)
    assert await db.run_rows(SLOTS_HELD_TWICE) == []
    assert await converge_blocks(db) == 0
