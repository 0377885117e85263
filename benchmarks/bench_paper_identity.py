"""What paper identity and per-field precedence cost a load, measured in the same run.

The demo corpus (``BENCH_PAPERS`` papers, default 2,000; every paper from OpenAlex, S2 and
arXiv, in the demo's load order) is loaded through the real loaders into a throw-away Neo4j.
Every statement is timed as it runs; the paper identity statements (the ``PaperId`` lookup,
their upsert, renames and merges) are summed apart from the rest, and the pure planning
(:func:`plan_papers` and :func:`paper_fields` over every record) is timed on its own. The
share is what they add to a load of the same corpus, whatever the machine's speed.

    python -m benchmarks.bench_paper_identity
    SCHOLARGRAPH_BENCH_NEO4J_URI=bolt://… python -m benchmarks.bench_paper_identity
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.run import throwaway_store
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database, Tx
from scholargraph.graph.identity.paper_merge import Identified, paper_fields
from scholargraph.graph.identity.papers import plan_papers
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.loaders.parse.files import iter_bulk_files
from scholargraph.graph.loaders.rows import category_rows, paper_props
from scholargraph.graph.schema.install import install_schema
from scholargraph.graph.stats import graph_stats
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA


@contextmanager
def statement_clock() -> Iterator[dict[str, float]]:
    """Seconds spent in each named statement, however it runs (alone or in a transaction)."""
    spent: dict[str, float] = defaultdict(float)
    in_tx, alone = Tx.run, Database.run_seen

    async def tx_run(self: Tx, query: Query, params: Mapping[str, Any] | None = None) -> Any:
        began = time.perf_counter()
        try:
            return await in_tx(self, query, params)
        finally:
            spent[query.name] += time.perf_counter() - began

    async def run_seen(self: Database, query: Query, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return await alone(self, query, *args, **kwargs)
        finally:
            spent[query.name] += time.perf_counter() - began

    Tx.run, Database.run_seen = tx_run, run_seen  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        Tx.run, Database.run_seen = in_tx, alone  # type: ignore[method-assign]


def planning_seconds(folder: Path) -> float:
    """The pure part: keys and field choices for every record of the corpus, batch by batch."""
    total = 0.0
    for source in ("openalex", "s2", "arxiv"):
        paths = sorted((folder / source).glob("*"))
        for _, batch in iter_bulk_files(paths):
            for start in range(0, len(batch.papers), 500):
                records = batch.papers[start : start + 500]
                began = time.perf_counter()
                identified = Identified(plan_papers(records, {}))
                items = [(p, paper_props(p, 100), category_rows(p)) for p in identified.records]
                paper_fields(items, identified)
                total += time.perf_counter() - began
    return total


async def run(settings: Settings, papers: int, cache: Path) -> dict[str, object]:
    folder = write_demo_files(cache, papers=papers, seed=2)
    async with Database.connect(settings) as db:
        await install_schema(settings, db)
        await db.run(CLEAR_DATA)
        with statement_clock() as spent:
            began = time.perf_counter()
            summaries = await load_demo(db, folder)
            seconds = time.perf_counter() - began
        stats = await graph_stats(db)
        await db.run(CLEAR_DATA)
    identity = {k: round(v, 3) for k, v in spent.items() if k.startswith("paper_identity.")}
    statements = sum(spent.values())
    planning = planning_seconds(folder)
    return {
        "papers": papers,
        "load_seconds": round(seconds, 2),
        "statement_seconds": round(statements, 2),
        "paper_identity_statements": identity,
        "paper_identity_share_of_statements": round(sum(identity.values()) / statements, 4),
        "planning_seconds": round(planning, 3),
        "planning_share_of_load": round(planning / seconds, 4),
        "paper_merges": sum(s.papers.paper_merges for s in summaries.values()),
        "graph": {"Paper": stats["nodes"].get("Paper"), "PaperId": stats["nodes"].get("PaperId")},
    }


async def main() -> int:
    papers = int(os.environ.get("BENCH_PAPERS", "2000"))
    with throwaway_store("paper-identity") as (settings, tmp):
        print(json.dumps(await run(settings, papers, tmp / "demo"), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
