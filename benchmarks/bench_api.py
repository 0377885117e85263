"""API latency against its targets, over HTTP, with the same Cypher run directly beside it.

Given a running server and researcher ids, measures p50/p99 of

* ``page``: the reference site's whole researcher page in one query (profile, positions,
  fields, same-name, most cited, first 24 papers);
* ``network``: ``network(depth: 2, maxNodes: 500)`` as the page asks for it (one
  graphology-format value), and ``network_typed``: the same networks as typed fields;
* ``path``: ``collaborationPath`` between random pairs of the ids;
* ``page_direct``: the statements the page query runs, sent straight through the driver with
  the same concurrency, in turn with as many ``page_paired`` requests (the overhead ratio is
  ``page_paired`` over ``page_direct`` at p50: a drift of the machine's speed weighs on both);

and the throughput of the page query with ``--concurrency`` clients. Prints JSON.

    python -m benchmarks.bench_api --url http://127.0.0.1:8000/graphql --ids 2004394,2004396
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.repo.papers import PaperFilter
from scholargraph.queries import read_entities, read_papers, read_researchers

PAGE = """
query Page($id: ID!) {
  researcher(id: $id) {
    id name slug orcid paperCount citationCount hIndex hIndexS2 hIndexOpenalex
    identity { s2Ids openalexIds mergedFrom externalIds { key method source } }
    authorPositions { first middle last solo alphabetical matchedPapers totalPapers coverage }
    fields { category { code name } papers }
    sameName { blockSize records { researcher { id name paperCount hIndex }
               probability evidence { feature weight text } } }
    mostCited(first: 1) { coverage papers { id title citationCount } }
    papers(first: 24) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { authorship { position kind } node {
        id title published year citationCount primaryCategory { code }
        authors(first: 10) { totalCount edges { node { id name } } }
      } }
    }
  }
}
"""
# What the page asks: the network as one graphology-format value.
NETWORK = """
query Network($id: ID!) {
  researcher(id: $id) {
    network(depth: 2, maxNodes: 500) { graphology }
  }
}
"""
# The same network as typed fields, a GraphQL field per node and per tie.
NETWORK_TYPED = """
query NetworkTyped($id: ID!) {
  researcher(id: $id) {
    network(depth: 2, maxNodes: 500) {
      truncated communityCount
      nodes { id name paperCount community x y }
      edges { source target jointPapers }
    }
  }
}
"""
PATH = """
query Path($from: ID!, $to: ID!) {
  collaborationPath(from: $from, to: $to) {
    found distance chains { researchers { id name } hops { jointPapers papers { id } } }
  }
}
"""


def percentiles(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(p99 * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
    }


async def timed(run: Callable[[], Awaitable[None]], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        await run()
        samples.append(time.perf_counter() - start)
    return samples


async def side_by_side(
    first: Callable[[], Awaitable[None]], second: Callable[[], Awaitable[None]], repeat: int
) -> tuple[list[float], list[float]]:
    """``first`` and ``second`` in turn, ``repeat`` times each: a drift of the machine's speed
    during the run then weighs on both alike."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        a += await timed(first, 1)
        b += await timed(second, 1)
    return a, b


async def graphql(
    client: httpx.AsyncClient, url: str, query: str, variables: dict[str, Any]
) -> None:
    response = await client.post(url, json={"query": query, "variables": variables})
    body = response.json()
    if response.status_code != 200 or body.get("errors"):
        raise RuntimeError(f"{query.split('(')[0].strip()} failed: {body.get('errors')}")


async def page_direct(db: Database, researcher: int) -> None:
    """The statements the page query runs, with the concurrency the API runs them with."""
    found = await db.run(
        read_entities.RESEARCHER_BY_ID, {"id": researcher, "orcid": None, "identifier": None}
    )
    rid = found[0]["researcher"]["id"]
    paper_filter = asdict(PaperFilter(researcher=rid))
    filters = [{**paper_filter, "index": 0, "after_sort": None, "after_key": None}]
    pages = await asyncio.gather(
        db.run(read_researchers.PROFILES, {"ids": [rid]}),
        db.run(read_researchers.SAME_NAME, {"ids": [rid], "limit": 20}),
        db.run(read_researchers.MOST_CITED, {"ids": [rid], "limit": 1}),
        db.run(
            read_papers.PAGES["researcher"], {"filters": filters, "sort": "newest", "limit": 25}
        ),
        db.run(read_papers.COUNTS["researcher"], {"filters": filters}),
    )
    keys = [row["paper"]["key"] for row in pages[3][0]["rows"]] if pages[3] else []
    await db.run(read_papers.AUTHOR_PAGES, {"keys": keys, "after": None, "limit": 11})


async def throughput(
    client: httpx.AsyncClient, url: str, ids: Sequence[int], concurrency: int, seconds: float
) -> float:
    async def page(rid: int) -> object:
        return await graphql(client, url, PAGE, {"id": str(rid)})

    return await steps_per_second(page, ids, concurrency, seconds)


async def steps_per_second(
    step: Callable[[int], Awaitable[object]], ids: Sequence[int], concurrency: int, seconds: float
) -> float:
    """Steps a second by ``concurrency`` clients for ``seconds``, each on a random id."""
    done = 0
    stop = time.perf_counter() + seconds
    rng = random.Random(1)

    async def worker() -> None:
        nonlocal done
        while time.perf_counter() < stop:
            await step(rng.choice(ids))
            done += 1

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return done / (time.perf_counter() - start)


async def run(
    url: str,
    ids: Sequence[int],
    *,
    requests: int = 300,
    concurrency: int = 8,
    seconds: float = 10.0,
    warmup: float = 20.0,
    seed: int = 0,
    settings: Settings | None = None,
) -> dict[str, Any]:
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=concurrency + 2)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:

        def cycle(
            query: str, variables: Callable[[], dict[str, Any]]
        ) -> Callable[[], Awaitable[None]]:
            return lambda: graphql(client, url, query, variables())

        def one_id() -> dict[str, Any]:
            return {"id": str(rng.choice(ids))}

        def centres(stream: int) -> Callable[[], dict[str, Any]]:
            picks = random.Random(stream)
            return lambda: {"id": str(picks.choice(ids))}

        def pair() -> dict[str, Any]:
            a, b = rng.sample(list(ids), 2)
            return {"from": str(a), "to": str(b)}

        db = Database.connect(settings or Settings.load())

        def direct() -> Awaitable[None]:
            return page_direct(db, rng.choice(ids))

        try:
            # warm caches, plans and the JVM on every kind of request first: the page's
            # statements for ``warmup`` seconds (the JVM compiles the hot paths of a fresh
            # server over thousands of statements), then networks and paths
            began = time.perf_counter()
            while time.perf_counter() - began < warmup:
                await side_by_side(cycle(PAGE, one_id), direct, 10)
            await timed(cycle(NETWORK, one_id), min(10, requests))
            await timed(cycle(PATH, pair), min(50, requests))
            page = await timed(cycle(PAGE, one_id), requests)
            # the page over HTTP and its statements straight through the driver, in turn
            paired, page_direct_ = await side_by_side(cycle(PAGE, one_id), direct, requests)
        finally:
            await db.close()
        results: dict[str, Any] = {
            "page": percentiles(page),
            "page_paired": percentiles(paired),
            "page_direct": percentiles(page_direct_),
            # both network forms over the same centres
            "network": percentiles(
                await timed(cycle(NETWORK, centres(seed + 1)), max(1, requests // 4))
            ),
            "network_typed": percentiles(
                await timed(cycle(NETWORK_TYPED, centres(seed + 1)), max(1, requests // 4))
            ),
            "path": percentiles(await timed(cycle(PATH, pair), requests)),
        }
        results["overhead_p50"] = round(
            results["page_paired"]["p50_ms"] / max(results["page_direct"]["p50_ms"], 1e-9), 2
        )
        results["page_throughput_rps"] = round(
            await throughput(client, url, ids, concurrency, seconds), 1
        )
        results["concurrency"] = concurrency
    return results


def researcher_ids(args: argparse.Namespace) -> list[int]:
    text = Path(args.ids_file).read_text() if args.ids_file else args.ids or ""
    found = [int(part) for part in text.replace(",", " ").split()]
    if len(found) < 2:
        raise SystemExit("give at least two researcher ids (--ids or --ids-file)")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", default="http://127.0.0.1:8000/graphql")
    parser.add_argument("--ids", help="researcher ids, comma or space separated")
    parser.add_argument("--ids-file", help="a file of researcher ids")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0, help="throughput run length")
    parser.add_argument("--warmup", type=float, default=20.0, help="seconds of warm-up")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    results = asyncio.run(
        run(
            args.url,
            researcher_ids(args),
            requests=args.requests,
            concurrency=args.concurrency,
            seconds=args.seconds,
            warmup=args.warmup,
            seed=args.seed,
        )
    )
    json.dump(results, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
