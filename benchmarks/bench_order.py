"""Load order: the demo corpus loaded in six orders of sources and batch sizes, each
compared with the first, by the set of author slots each researcher holds (its grouping) and
by the canonical dump (:mod:`graph.canonical`: papers with all ids, slots with each source's
name, ids and affiliations, researchers with their ids, COAUTHOR ties), without and with the
load's history (curation events, retired researchers, the rule each mention was matched by
on arrival). Prints JSON; the target is 0 differences of the state in every order.

    python -m benchmarks.bench_order [--papers 120] [--orders 6]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.run import throwaway_store
from scholargraph.graph.canonical import canonical_dump, differences, state_of
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
Dump = dict[str, Any]


async def load(
    db: Database, folder: Path, sources: tuple[str, ...], batch: int
) -> tuple[Groups, Dump, float]:
    await db.run(CLEAR_DATA)
    started = time.perf_counter()
    for source in ("ror", *sources):
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        await Loader(db, papers_per_transaction=batch).run(file_chunks(paths))
    seconds = time.perf_counter() - started
    found = {frozenset(row["slots"]) for row in await db.run(GROUPS)}
    return found, await canonical_dump(db), seconds


def parts_differing(left: Dump, right: Dump) -> dict[str, int]:
    """Per part of two dumps, how many entries only one of them has."""
    counts: dict[str, int] = {}
    for part in sorted(set(left) | set(right)):
        a, b = left.get(part), right.get(part)
        if isinstance(a, dict) and isinstance(b, dict):
            counts[part] = sum(a.get(k) != b.get(k) for k in set(a) | set(b))
        elif isinstance(a, list) and isinstance(b, list):
            counts[part] = len(set(map(repr, a)) ^ set(map(repr, b)))
        else:
            counts[part] = int(a != b)
    return counts


async def run(papers: int, count: int = len(ORDERS)) -> tuple[dict[str, object], list[Dump]]:
    """The report, and each order's dump, of the first ``count`` orders."""
    orders_run = ORDERS[: max(count, 2)]
    with throwaway_store("order") as (settings, tmp):
        folder = write_demo_files(tmp / "demo", papers=papers, seed=3)
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
            found = []
            for sources, batch in orders_run:
                found.append(await load(db, folder, sources, batch))
                print(
                    f"{','.join(sources)} in batches of {batch}: loaded in {found[-1][2]:.1f} s",
                    file=sys.stderr,
                    flush=True,
                )
    first, first_dump, first_seconds = found[0]
    orders = {}
    first_state = state_of(first_dump)
    for (sources, batch), (here, dump, seconds) in zip(orders_run[1:], found[1:], strict=True):
        state = state_of(dump)
        parts = parts_differing(first_state, state)
        orders[f"{','.join(sources)} in batches of {batch}"] = {
            "researchers": len(here),
            "groupings_differing": len(here - first),
            "state_entries_differing": parts,
            "state_identical": not any(parts.values()),
            "with_history_entries_differing": parts_differing(first_dump, dump),
            "examples": differences(first_state, state, limit=3),
            "load_s": round(seconds, 1),
        }
    first_order = f"{','.join(ORDERS[0][0])} in batches of {ORDERS[0][1]}"
    report = {
        "papers": papers,
        "first": first_order,
        "first_load_s": round(first_seconds, 1),
        "researchers": len(first),
        "orders_with_identical_state": sum(o["state_identical"] for o in orders.values()),
        "orders": orders,
    }
    return report, [dump for _, dump, _ in found]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--papers", type=int, default=120)
    parser.add_argument("--dumps", type=Path, help="write each order's canonical dump here")
    parser.add_argument(
        "--orders", type=int, default=len(ORDERS), help="only the first N orders (2 or more)"
    )
    args = parser.parse_args(argv)
    report, dumps = asyncio.run(run(args.papers, args.orders))
    if args.dumps is not None:
        args.dumps.mkdir(parents=True, exist_ok=True)
        for index, dump in enumerate(dumps):
            text = json.dumps(dump, indent=1, default=str)
            (args.dumps / f"order-{index}.json").write_text(text)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
