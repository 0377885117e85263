"""The store written by ``neo4j-admin database import``, beside the transactional load that
made it: the demo corpus loaded through all four sources, then ``scholargraph neo4j
compact`` on that store (read out, import, empty arrays and schema), and the canonical dump
compared before and after. Prints JSON.

    python -m benchmarks.bench_bulk [--papers 10000] [--no-embed]

The import is the physical floor of writing this graph; what it does not include is the
planning (identity, paper merges, affiliations) that decides the graph in the first place.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from benchmarks.run import throwaway_store
from scholargraph.graph.bulk.compact import compact
from scholargraph.graph.canonical import canonical_dump, differences
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.schema.install import install_schema


def _rate(papers: int, seconds: float) -> float:
    return round(papers / seconds, 1) if seconds > 0 else 0.0


async def run(papers: int, *, embed: bool) -> dict[str, Any]:
    with throwaway_store("bulk") as (settings, tmp):
        if not settings.local:
            raise SystemExit(
                "bench_bulk rewrites a local store: unset SCHOLARGRAPH_BENCH_NEO4J_URI"
            )
        folder = write_demo_files(tmp / "demo", papers=papers, seed=2)
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
            began = time.perf_counter()
            await load_demo(db, folder, embed=embed)
            load_s = time.perf_counter() - began
            before = await canonical_dump(db)
        print(f"loaded {papers} papers in {load_s:.1f} s", file=sys.stderr, flush=True)
        done = await compact(settings, keep_old=False)
        async with Database.connect(settings) as db:
            found = differences(before, await canonical_dump(db))
    return {
        "papers": papers,
        "embedding": embed,
        "transactional_load_s": round(load_s, 1),
        "transactional_papers_per_s": _rate(papers, load_s),
        **asdict(done),
        "import_papers_per_s": _rate(papers, done.import_s),
        "import_and_schema_papers_per_s": _rate(
            papers, done.import_s + done.arrays_s + done.schema_s
        ),
        "canonical_identical": not found,
        "differences": found,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--no-embed", action="store_true", help="load without the embedding")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args.papers, embed=not args.no_embed)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
