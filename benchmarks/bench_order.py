"""Load order and researcher groupings: the demo corpus loaded in six orders of sources and
batch sizes, each compared with the first by the set of author slots each researcher holds.
Prints JSON; the target is 0 groupings differing in every order.

    python -m benchmarks.bench_order [--papers 120]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks.run import throwaway_store
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import write_demo_files
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.schema.install import install_schema
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA

GROUPS = Query(
    "bench_order.groups",
    """
    MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper)
    WHERE r.merged_into IS NULL
    RETURN r.id AS id,
           collect(p.key + '#' + toString(a.position) + ' ' + coalesce(a.raw_name, ''))
             AS slots
    """,
)
ORDERS: tuple[tuple[tuple[str, ...], int], ...] = (
    (("openalex", "s2", "arxiv"), 500),
    (("arxiv", "s2", "openalex"), 500),
    (("s2", "arxiv", "openalex"), 40),
    (("openalex", "arxiv", "s2"), 17),
    (("s2", "openalex", "arxiv"), 100),
    (("arxiv", "openalex", "s2"), 60),
)
Groups = set[frozenset[str]]


async def groups(db: Database, folder: Path, sources: tuple[str, ...], batch: int) -> Groups:
    await db.run(CLEAR_DATA)
    for source in ("ror", *sources):
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        await Loader(db, papers_per_transaction=batch).run(file_chunks(paths))
    return {frozenset(row["slots"]) for row in await db.run(GROUPS)}


async def run(papers: int) -> dict[str, object]:
    with throwaway_store("order") as (settings, tmp):
        folder = write_demo_files(tmp / "demo", papers=papers, seed=3)
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
            found = [await groups(db, folder, sources, batch) for sources, batch in ORDERS]
    first = found[0]
    orders = {}
    for (sources, batch), here in zip(ORDERS[1:], found[1:], strict=True):
        differ = sorted(sorted(g) for g in here ^ first)
        orders[f"{','.join(sources)} in batches of {batch}"] = {
            "researchers": len(here),
            "groupings_differing": len(here - first),
            "examples": differ[:3],
        }
    first_order = f"{','.join(ORDERS[0][0])} in batches of {ORDERS[0][1]}"
    return {"papers": papers, "first": first_order, "researchers": len(first), "orders": orders}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--papers", type=int, default=120)
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args.papers)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
