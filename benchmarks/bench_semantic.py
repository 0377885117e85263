"""Semantic search: quality on the judged queries, latency, and what embedding costs a load.

On a throw-away local Neo4j (or ``SCHOLARGRAPH_BENCH_NEO4J_URI``):

1. The demo corpus of ``BENCH_SEMANTIC_PAPERS`` papers (default 5,000) through all four
   loaders, with embedding off and on, alternately, ``BENCH_REPEATS`` times each (default 2):
   the median load time of each side and their ratio.
2. On the store with vectors: nDCG@10 and recall@10 of keyword, semantic and hybrid search on
   the judged demo queries (``benchmarks/relevance/demo.json``), and p50/p95 of a semantic
   and a hybrid search (each judged query run ``ROUNDS`` times after a warm-up).
3. The model alone: seconds to embed 1,000 paper texts.
4. With ``../shared/data``: the recorded arXiv 0704 block (1,000 abstracts) loaded, and the
   judged known-item queries (``benchmarks/relevance/arxiv-0704.json``) in the three modes.

``--single-source`` measures instead one source's load alone (arXiv, then OpenAlex, each
after ROR), embedding off and on alternately: a load of one source computes its researchers'
topics at its own end, where the four-source load computes them once.

    python -m benchmarks.bench_semantic
    BENCH_SEMANTIC_PAPERS=2000 python -m benchmarks.bench_semantic --single-source
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.run import ROOT, throwaway_store
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, source_paths, write_demo_files
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.search import ALL_KINDS, SearchKind, SearchMode, search
from scholargraph.graph.schema.install import install_schema
from scholargraph.graph.semantic import model
from scholargraph.graph.semantic.relevance import judge, read_set
from scholargraph.graph.semantic.store import vector_coverage
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA

RELEVANCE = ROOT / "benchmarks" / "relevance"
SHARED = ROOT.parent / "shared" / "data"
ROUNDS = 5
TEXTS = Query(
    "bench.semantic_texts",
    "MATCH (p:Paper) WITH p ORDER BY p.key LIMIT 1000 "
    "RETURN collect([p.title, p.abstract]) AS rows",
)


async def timed_load(db: Database, folder: Path, *, embed: bool) -> float:
    await db.run(CLEAR_DATA)  # a finished load leaves no checkpoint: each load starts anew
    began = time.perf_counter()
    await load_demo(db, folder, embed=embed)
    return time.perf_counter() - began


async def latencies(
    db: Database, queries: list[str], mode: SearchMode, kinds: tuple[SearchKind, ...] = ALL_KINDS
) -> dict[str, float]:
    for text in queries[:3]:
        await search(db, text, PageRequest(10), kinds, mode=mode)
    times = []
    for _ in range(ROUNDS):
        for text in queries:
            began = time.perf_counter()
            await search(db, text, PageRequest(10), kinds, mode=mode)
            times.append(1000 * (time.perf_counter() - began))
    times.sort()
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
        "requests": len(times),
    }


async def model_cost(db: Database) -> dict[str, float]:
    pairs = (await db.run(TEXTS))[0]["rows"]
    texts = [model.paper_text(title, abstract) for title, abstract in pairs]
    model.embed(texts[:10])
    began = time.perf_counter()
    model.embed(texts)
    seconds = time.perf_counter() - began
    return {"texts": len(texts), "seconds_per_1000": round(1000 * seconds / max(len(texts), 1), 3)}


def quality(results: dict[str, Any]) -> dict[str, Any]:
    return {mode: q.as_dict() for mode, q in results.items()}


async def demo_side(db: Database, papers: int, repeats: int) -> dict[str, Any]:
    folder = write_demo_files(
        Path(os.environ.get("TMPDIR", "/tmp")) / "bench-semantic", papers=papers, seed=7
    )
    await timed_load(db, folder, embed=True)  # warm-up: plans and the model
    off, on = [], []
    for _ in range(repeats):
        off.append(await timed_load(db, folder, embed=False))
        on.append(await timed_load(db, folder, embed=True))
    judged = read_set(RELEVANCE / "demo.json")
    queries = [j.query for j in judged]
    return {
        "papers": papers,
        "load_seconds": {
            "embedding_off": [round(s, 1) for s in off],
            "embedding_on": [round(s, 1) for s in on],
            "ratio_on_off_median": round(statistics.median(on) / statistics.median(off), 3),
            "embedding_seconds_per_1000_papers": round(
                1000 * (statistics.median(on) - statistics.median(off)) / papers, 3
            ),
        },
        "coverage": await vector_coverage(db),
        "quality": quality(await judge(db, judged)),
        "latency": {
            "semantic": await latencies(db, queries, "semantic"),
            "hybrid": await latencies(db, queries, "hybrid"),
            "keyword": await latencies(db, queries, "keyword"),
        },
        "model_alone": await model_cost(db),
    }


async def shared_side(db: Database) -> dict[str, Any]:
    block = SHARED / "arxiv" / "arxiv-browse" / "abs_files" / "ftp" / "arxiv" / "papers" / "0704"
    if not block.is_dir():
        return {"error": f"{block} is missing"}
    await db.run(CLEAR_DATA)
    await Loader(db).run(file_chunks([block / f"0704.{n:04d}.abs" for n in range(1, 1001)]))
    return {
        "papers": 1000,
        "quality": quality(await judge(db, read_set(RELEVANCE / "arxiv-0704.json"))),
    }


async def single_source_load(db: Database, folder: Path, source: str, *, embed: bool) -> float:
    """One source's load alone (after ROR, without embedding), timed."""
    await db.run(CLEAR_DATA)
    await Loader(db, embed=False).run(file_chunks(source_paths(folder, "ror")))
    began = time.perf_counter()
    await Loader(db, embed=embed).run(file_chunks(source_paths(folder, source)))
    return time.perf_counter() - began


async def single_sources(db: Database, papers: int, repeats: int) -> dict[str, Any]:
    folder = write_demo_files(
        Path(os.environ.get("TMPDIR", "/tmp")) / "bench-semantic", papers=papers, seed=7
    )
    result: dict[str, Any] = {"papers": papers}
    for source in ("arxiv", "openalex"):
        await single_source_load(db, folder, source, embed=True)  # warm-up
        off, on = [], []
        for _ in range(repeats):
            off.append(await single_source_load(db, folder, source, embed=False))
            on.append(await single_source_load(db, folder, source, embed=True))
        result[source] = {
            "embedding_off": [round(s, 1) for s in off],
            "embedding_on": [round(s, 1) for s in on],
            "ratio_on_off_median": round(statistics.median(on) / statistics.median(off), 3),
        }
    return result


async def main() -> int:
    papers = int(os.environ.get("BENCH_SEMANTIC_PAPERS", "5000"))
    repeats = int(os.environ.get("BENCH_REPEATS", "2"))
    with throwaway_store("semantic") as (settings, _):
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
            if "--single-source" in sys.argv[1:]:
                print(json.dumps(await single_sources(db, papers, repeats), indent=2))
                return 0
            result = {
                "demo": await demo_side(db, papers, repeats),
                "recorded_arxiv_0704": await shared_side(db),
            }
            await db.run(CLEAR_DATA)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
