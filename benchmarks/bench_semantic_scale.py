"""A search by meaning on a store of ``BENCH_SEMANTIC_SCALE`` papers (default 100,000).

The papers are the demo corpus's (titles, abstracts, years and primary categories of the
synthetic world), embedded with the load's model and written with their vectors in
``UNWIND`` batches, without authors: a search by meaning reads the vector index and then
the page's papers, so its cost at this size is what this measures (the four-source load of
100,000 papers takes longer than this benchmark may). After a warm-up, every judged demo
query is run ``bench_semantic.ROUNDS`` times in each mode, in two passes (the first right
after the write, while the server still works through it; then ``latency_papers_only``):
p50 and p95 per mode; the time to embed and write the store; the share of the exact 10
nearest (cosine over every paper, without the index) in the first 10 of a search by
meaning. Then the vector index is built again in one pass (``scholargraph db embed
--reindex``) and the searches are measured again: an index written a batch at a time, as
here and as loads write it, can be slower to search than a rebuilt one.

    python -m benchmarks.bench_semantic_scale
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from benchmarks.bench_semantic import latencies
from benchmarks.run import ROOT, throwaway_store
from scholargraph.graph.db import Database
from scholargraph.graph.demo.world import simulate
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.search import search
from scholargraph.graph.schema.install import install_schema
from scholargraph.graph.semantic import model
from scholargraph.graph.semantic.relevance import read_set
from scholargraph.graph.semantic.store import rebuild_vector_indexes
from scholargraph.queries import Query

BATCH = 2000
WRITE_PAPERS = Query(
    "bench.semantic_scale_papers",
    """
    UNWIND $rows AS row
    CREATE (p:Paper {key: row.key, arxiv_id: row.key, title: row.title,
                     abstract: row.abstract, year: row.year, primary_category: row.category,
                     embedding_digest: row.digest, embedding_model: $model})
    WITH p, row
    CALL db.create.setNodeVectorProperty(p, 'embedding', row.vector)
    """,
    "write",
)

EXACT_NEAREST = Query(
    "bench.semantic_scale_exact_nearest",
    """
    MATCH (p:Paper)
    WITH p.key AS key, vector.similarity.cosine(p.embedding, $vector) AS score
    ORDER BY score DESC, key LIMIT 10
    RETURN collect(key) AS keys
    """,
)


async def build(db: Database, papers: int) -> dict[str, float]:
    world = simulate(papers, 7)
    embed_s = write_s = 0.0
    for start in range(0, papers, BATCH):
        chunk = world.papers[start : start + BATCH]
        began = time.perf_counter()
        titles = [world.title(p) for p in chunk]
        abstracts = [world.abstract(p) for p in chunk]
        texts = [model.paper_text(t, a) for t, a in zip(titles, abstracts, strict=True)]
        vectors = model.embed(texts)
        embed_s += time.perf_counter() - began
        rows = [
            {
                "key": p.arxiv_id,
                "title": title,
                "abstract": abstract,
                "year": p.year,
                "category": p.categories[0],
                "digest": model.digest(text),
                "vector": [float(x) for x in vector],
            }
            for p, title, abstract, text, vector in zip(
                chunk, titles, abstracts, texts, vectors, strict=True
            )
        ]
        began = time.perf_counter()
        await db.run(WRITE_PAPERS, {"rows": rows, "model": model.MODEL})
        write_s += time.perf_counter() - began
    return {"embed_seconds": round(embed_s, 1), "write_seconds": round(write_s, 1)}


async def exact_nearest(db: Database, text: str) -> set[str]:
    """The 10 papers nearest the words by cosine over every paper, without the index."""
    rows = await db.run(EXACT_NEAREST, {"vector": model.embed_one(text)})
    return set(rows[0]["keys"])


async def recall_of_exact(db: Database, queries: list[str], exact: list[set[str]]) -> float:
    """The share of the exact 10 nearest in the first 10 of a search by meaning."""
    found = 0
    for text, nearest in zip(queries, exact, strict=True):
        page = await search(db, text, PageRequest(10), ["paper"], mode="semantic")
        found += len(nearest & {str(getattr(e.node.entity, "key", "")) for e in page.edges})
    return round(found / (10 * len(queries)), 3)


async def by_mode(db: Database, queries: list[str]) -> dict[str, dict[str, float]]:
    return {
        mode: await latencies(db, queries, mode, ("paper",))
        for mode in ("semantic", "hybrid", "keyword")
    }


async def main() -> int:
    papers = int(os.environ.get("BENCH_SEMANTIC_SCALE", "100000"))
    queries = [j.query for j in read_set(ROOT / "benchmarks" / "relevance" / "demo.json")]
    with throwaway_store("semantic-scale") as (settings, _):
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
            built = await build(db, papers)
            await db.run(Query("bench.await_vector_index", "CALL db.awaitIndexes(600)", "write"))
            result: dict[str, Any] = {"papers": papers, **built}
            result["latency_papers_only_just_written"] = await by_mode(db, queries)
            exact = [await exact_nearest(db, text) for text in queries]
            result["latency_papers_only"] = await by_mode(db, queries)
            result["recall_of_exact_10"] = await recall_of_exact(db, queries, exact)
            began = time.perf_counter()
            await rebuild_vector_indexes(db)
            result["reindex_seconds"] = round(time.perf_counter() - began, 1)
            result["latency_papers_only_after_reindex"] = await by_mode(db, queries)
            result["recall_of_exact_10_after_reindex"] = await recall_of_exact(db, queries, exact)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
