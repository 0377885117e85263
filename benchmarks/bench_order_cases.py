"""Load order on small hard cases (:mod:`benchmarks.order_cases`): each case's three sources
loaded in three orders into a fresh local Neo4j, each a ``Loader`` with its pass, and the
canonical state (:mod:`graph.canonical`) of each order compared with the first. Prints JSON:
how many cases give one state in every order, by the kinds of disagreement a case holds,
and the seeds that do not, with a few of their differences. The target is every case.

    python -m benchmarks.bench_order_cases [--cases 30] [--first-seed 1] [--kinds KINDS]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from benchmarks.order_cases import KINDS, Case, case
from benchmarks.run import throwaway_store
from scholargraph.graph.canonical import canonical_dump, differences, state_of
from scholargraph.graph.db import Database
from scholargraph.graph.errors import ScholargraphError
from scholargraph.graph.loaders.files import one_chunk
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.records import Source
from scholargraph.graph.schema.install import install_schema
from scholargraph.queries.admin import CLEAR_DATA

EXAMPLE_CHARS = 400
ORDERS: tuple[tuple[Source, ...], ...] = (
    ("openalex", "s2", "arxiv"),
    ("arxiv", "s2", "openalex"),
    ("s2", "arxiv", "openalex"),
)


async def state(db: Database, one: Case, order: Sequence[Source]) -> dict[str, Any]:
    """The canonical state of the case loaded in ``order``."""
    await db.run(CLEAR_DATA)
    for source in order:
        if one.batches[source].papers:
            await Loader(db).run(one_chunk(one.batches[source], "case"))
    return state_of(await canonical_dump(db))


def _entry(one: Case) -> dict[str, Any]:
    return {"seed": one.seed, "kinds": sorted(one.kinds)}


def _short(examples: list[str]) -> list[str]:
    """The first differences, each cut to a line (a researcher's entry holds its vector)."""
    return [e if len(e) <= EXAMPLE_CHARS else e[:EXAMPLE_CHARS] + " …" for e in examples[:3]]


async def run(cases: int, first_seed: int, kinds: frozenset[str]) -> dict[str, Any]:
    report: list[dict[str, Any]] = []
    began = time.perf_counter()
    with throwaway_store("order-cases") as (settings, _):
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
            for seed in range(first_seed, first_seed + cases):
                one = case(seed, kinds)
                try:
                    states = [await state(db, one, order) for order in ORDERS]
                except ScholargraphError as error:  # a load that fails is a finding too
                    report.append({**_entry(one), "failed": f"{type(error).__name__}: {error}"})
                    print(f"seed {seed}: a load failed", file=sys.stderr)
                    continue
                differing = [
                    {"order": ",".join(order), "examples": _short(differences(states[0], s))}
                    for order, s in zip(ORDERS[1:], states[1:], strict=True)
                    if s != states[0]
                ]
                report.append({**_entry(one), "differing": differing})
                print(f"seed {seed}: {'differs' if differing else 'same'}", file=sys.stderr)
    by_kinds: Counter[str] = Counter()
    alike: Counter[str] = Counter()
    for entry in report:
        label = "+".join(entry["kinds"]) or "none"
        by_kinds[label] += 1
        alike[label] += _alike(entry)
    return {
        "cases": cases,
        "first_seed": first_seed,
        "kinds_drawn": sorted(kinds),
        "orders": [",".join(order) for order in ORDERS],
        "cases_alike_in_every_order": sum(_alike(e) for e in report),
        "loads_failed": sum("failed" in e for e in report),
        "alike_by_kinds_held": {k: f"{alike[k]}/{n}" for k, n in sorted(by_kinds.items())},
        "seconds": round(time.perf_counter() - began, 1),
        "differing": [e for e in report if not _alike(e)],
    }


def _alike(entry: dict[str, Any]) -> bool:
    return "failed" not in entry and not entry["differing"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cases", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help=f"drawn from {', '.join(KINDS)} (or none)"
    )
    args = parser.parse_args(argv)
    kinds = frozenset(k for k in args.kinds.split(",") if k and k != "none")
    unknown = kinds - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    print(json.dumps(asyncio.run(run(args.cases, args.first_seed, kinds)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
