"""The demo corpus loaded in different orders of sources and batch sizes gives the same author
slots: each ``(paper, position)`` once, with the position, raw name and kind of the source that
owns the author order, and every source's ids and affiliations on it; the same researchers,
each holding the same slots with the same external ids; and the same canonical dump of what
the graph says (:func:`graph.canonical.state_of`: papers with every id, slots, researchers
with their names, ids and features, COAUTHOR ties, affiliations)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from scholargraph.graph.canonical import canonical_dump, differences, state_of
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import write_demo_files
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA

SLOTS = Query(
    "test.order_slots",
    """
    MATCH (:Researcher)-[a:AUTHORED]->(p:Paper)
    RETURN collect([p.key, a.position, a.kind, a.raw_name, a.source, a.sources, a.source_ids,
                    a.affiliations, size(a.mentions)]) AS rows
    """,
)
# Each live researcher as the slots they hold, with their external ids.
PEOPLE = Query(
    "test.order_people",
    """
    MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper)
    WHERE r.merged_into IS NULL
    WITH r, collect(p.key + '#' + toString(a.position)) AS slots
    RETURN collect({id: r.id, slots: slots, orcid: r.orcid,
                    ids: [(i:Identifier)-[:IDENTIFIES]->(r) | i.key]}) AS rows
    """,
)
ORDERS = [
    (("openalex", "s2", "arxiv"), 500),
    (("arxiv", "s2", "openalex"), 500),
    (("s2", "arxiv", "openalex"), 40),
    (("openalex", "arxiv", "s2"), 17),
    (("s2", "openalex", "arxiv"), 100),
    (("arxiv", "openalex", "s2"), 60),
]


async def _graph(db: Database, folder: Path, sources: tuple[str, ...], batch: int) -> Dump:
    await db.run(CLEAR_DATA)
    for source in ("ror", *sources):
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        await Loader(db, papers_per_transaction=batch).run(file_chunks(paths))
    slots = sorted(json.dumps(row) for row in await db.run_rows(SLOTS))
    people = await db.run_rows(PEOPLE)
    held = sorted(json.dumps([sorted(p["slots"]), p["orcid"], sorted(p["ids"])]) for p in people)
    return Dump(slots, held, state_of(await canonical_dump(db)))


class Dump(NamedTuple):
    slots: list[str]
    people: list[str]
    state: dict[str, Any]


def _differs(first: list[str], here: list[str]) -> str:
    return f"{[r for r in first if r not in here][:3]} / {[r for r in here if r not in first][:3]}"


async def test_any_order_of_sources_and_batches_gives_the_same_graph(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=120, seed=3)
    first, *others = [await _graph(db, folder, sources, batch) for sources, batch in ORDERS]
    assert len({json.loads(row)[0] for row in first.slots}) == 120
    keys = [tuple(json.loads(row)[:2]) for row in first.slots]
    assert len(keys) == len(set(keys))  # no slot held twice
    assert len(first.people) > 300
    for (sources, batch), dump in zip(ORDERS[1:], others, strict=True):
        order = f"{sources} in batches of {batch}"
        assert dump.slots == first.slots, f"{order}: {_differs(first.slots, dump.slots)}"
        assert dump.people == first.people, f"{order}: {_differs(first.people, dump.people)}"
        assert differences(first.state, dump.state) == [], order
