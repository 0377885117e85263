"""The demo corpus loaded in different orders of sources and batch sizes gives the same author
slots: each ``(paper, position)`` once, with the position, raw name and kind of the source that
owns the author order, and every source's ids and affiliations on it."""

from __future__ import annotations

import json
from pathlib import Path

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
ORDERS = [
    (("openalex", "s2", "arxiv"), 500),
    (("arxiv", "s2", "openalex"), 500),
    (("s2", "arxiv", "openalex"), 40),
    (("openalex", "arxiv", "s2"), 17),
]


async def _slots(db: Database, folder: Path, sources: tuple[str, ...], batch: int) -> list[str]:
    await db.run(CLEAR_DATA)
    for source in ("ror", *sources):
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        await Loader(db, papers_per_transaction=batch).run(file_chunks(paths))
    return sorted(json.dumps(row) for row in await db.run_rows(SLOTS))


async def test_any_order_of_sources_and_batches_gives_the_same_slots(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=120, seed=3)
    first, *others = [await _slots(db, folder, sources, batch) for sources, batch in ORDERS]
    assert len({json.loads(row)[0] for row in first}) == 120
    keys = [tuple(json.loads(row)[:2]) for row in first]
    assert len(keys) == len(set(keys))  # no slot held twice
    for (sources, batch), slots in zip(ORDERS[1:], others, strict=True):
        only_first = [row for row in first if row not in slots][:3]
        only_here = [row for row in slots if row not in first][:3]
        assert slots == first, f"{sources} in batches of {batch}: {only_first} / {only_here}"
