"""Hardening figures: how fast outages are answered, how long restricted collaboration paths
take, and what half-sent requests cost the server. Prints JSON.

* ``outage``: GraphQL requests to an app whose Neo4j is down — nothing listening on its port,
  and (``--kill``) a throw-away local Neo4j killed with SIGKILL — until the 503 answer;
* ``paths``: ``collaborationPath`` restricted to ``math.DG`` between the best-connected
  researchers (who have no paper there), one at a time and four at once, with the latency of
  a researcher lookup meanwhile; between the best-connected of those with a math.DG paper
  (a search of the category's chains); and the search as it was before the hop bound and
  the hop-by-hop check, stopped at ``--before-timeout`` seconds. Against the Neo4j of the
  settings, with a corpus loaded (the demo corpus has math.DG papers);
* ``slow-clients``: 1,000 connections that send half a request head to ``scholargraph
  serve``'s server, the time until the server has dropped them all, and ``/healthz`` meanwhile.

    python -m benchmarks.bench_outage outage --kill
    python -m benchmarks.bench_outage paths
    python -m benchmarks.bench_outage slow-clients
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from scholargraph.api.app import create_app
from scholargraph.api.server import ServeConfig
from scholargraph.graph import localserver
from scholargraph.graph.config import Secret, Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import QueryTimedOut
from scholargraph.graph.repo import entities, paths
from scholargraph.graph.repo.entities import ResearcherRef
from scholargraph.queries import Query
from scholargraph.queries import read_paths as q

LOOKUP = '{ researcher(id: "1") { id } }'
BEST_CONNECTED = Query(
    "bench_outage.best_connected",
    """
    MATCH (r:Researcher)-[c:COAUTHOR]-()
    WHERE r.merged_into IS NULL
    WITH r, count(c) AS ties ORDER BY ties DESC LIMIT $n
    RETURN r.id AS id
    """,
)
# The best-connected researchers with a joint paper in the category: a search between two
# of them cannot stop at its ends.
BEST_CONNECTED_IN = Query(
    "bench_outage.best_connected_in",
    """
    MATCH (:Category {code: $category})<-[:IN_CATEGORY]-(q:Paper)<-[:AUTHORED]-(r:Researcher)
    WHERE r.merged_into IS NULL AND COUNT { (q)<-[:AUTHORED]-(:Researcher) } > 1
    WITH DISTINCT r
    MATCH (r)-[c:COAUTHOR]-()
    WITH r, count(c) AS ties ORDER BY ties DESC LIMIT $n
    RETURN r.id AS id
    """,
)
# The restricted search before this change: the joint-paper condition named both researchers
# of a hop, so Neo4j checked it on whole walks (up to 8 hops whatever maxLength said).
BEFORE = Query(
    "bench_outage.shortest_one_before",
    """
    MATCH (a:Researcher {id: $from}), (b:Researcher {id: $to})
    MATCH path = SHORTEST 1 (a)(
      (x:Researcher)-[c:COAUTHOR]-(y:Researcher)
      WHERE y.merged_into IS NULL
        AND (NOT $by_papers OR EXISTS {
          MATCH (x)-[:AUTHORED]->(q:Paper)<-[:AUTHORED]-(y)
          WHERE NOT coalesce(q.hyperauthored, false)
            AND EXISTS { (q)-[:IN_CATEGORY]->(:Category {code: $category}) }
        })
    ){1,8}(b)
    WHERE length(path) <= $max_length
    RETURN [n IN nodes(path) | n.id] AS ids
    """,
)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def spread(samples: Sequence[float]) -> dict[str, float]:
    return {
        "n": len(samples),
        "p50_ms": ms(statistics.median(samples)),
        "max_ms": ms(max(samples)),
    }


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    began = time.perf_counter()
    result = await call()
    return time.perf_counter() - began, result


# outage ----------------------------------------------------------------------------------


async def unavailable_latencies(settings: Settings, requests: int) -> list[float]:
    app = create_app(settings.with_overrides(network_projection=False))
    samples = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
            for _ in range(requests):
                took, response = await timed(lambda: http.post("/graphql", json={"query": LOOKUP}))
                assert response.status_code == 503, response.text
                samples.append(took)
    return samples


async def killed_latency(settings: Settings) -> dict[str, Any]:
    data_dir = Path(tempfile.mkdtemp(prefix="bench-outage-"))
    spare = settings.with_overrides(
        neo4j_uri=None,
        neo4j_data_dir=data_dir,
        neo4j_bolt_port=localserver.free_port(),
        neo4j_password=Secret("bench-outage-1"),
        neo4j_auth=True,
    )
    localserver.start(spare)
    try:
        app = create_app(spare.with_overrides(network_projection=False))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
                served = await http.post("/graphql", json={"query": LOOKUP})
                info = localserver.read_state(data_dir)
                assert served.status_code == 200
                assert info is not None
                os.kill(info.pid, signal.SIGKILL)
                for _ in range(3000):
                    if not localserver.status(data_dir).alive:
                        break
                    await asyncio.sleep(0.01)
                took, response = await timed(lambda: http.post("/graphql", json={"query": LOOKUP}))
                return {"status": response.status_code, "first_after_kill_ms": ms(took)}
    finally:
        localserver.stop(data_dir)


async def outage(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings.load()
    down = settings.with_overrides(neo4j_uri=f"bolt://127.0.0.1:{localserver.free_port()}")
    results: dict[str, Any] = {
        "nothing_listening": spread(await unavailable_latencies(down, args.requests))
    }
    if args.kill:
        results["killed"] = await killed_latency(settings)
    return results


# paths -----------------------------------------------------------------------------------


CATEGORY = "math.DG"


async def restricted(db: Database, a: int, b: int, budget: float) -> tuple[float, str]:
    """One search for a chain inside :data:`CATEGORY` under a request's budget: its time and
    how it ended."""
    source, target = await asyncio.gather(
        entities.find_researcher(db, ResearcherRef(id=str(a))),
        entities.find_researcher(db, ResearcherRef(id=str(b))),
    )
    options = paths.PathOptions(max_length=6, category=CATEGORY)
    took, result = await timed(
        lambda: paths.collaboration_paths(db.within(budget), source, target, options)
    )
    return took, result.outcome.value


async def lookups_meanwhile(db: Database, ids: Sequence[int], stop: asyncio.Event) -> list[float]:
    samples = []
    while not stop.is_set():
        for rid in ids:
            ref = ResearcherRef(id=str(rid))
            began = time.perf_counter()
            await entities.find_researcher(db, ref)
            samples.append(time.perf_counter() - began)
            await asyncio.sleep(0.02)
    return samples


async def path_searches(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings.load()
    async with Database.connect(settings) as db:
        ids = [row["id"] for row in await db.run(BEST_CONNECTED, {"n": 2 * args.pairs})]
        pairs = list(zip(ids[::2], ids[1::2], strict=True))
        inside = [
            row["id"]
            for row in await db.run(BEST_CONNECTED_IN, {"n": 2 * args.pairs, "category": CATEGORY})
        ]
        inside_pairs = list(zip(inside[::2], inside[1::2], strict=True))
        budget = settings.request_budget_s
        for a, b in pairs + inside_pairs:  # plans made, caches warm
            await restricted(db, a, b, budget)
        one = [await restricted(db, a, b, budget) for a, b in pairs]
        searched = [await restricted(db, a, b, budget) for a, b in inside_pairs]
        stop = asyncio.Event()
        meanwhile = asyncio.create_task(lookups_meanwhile(db, ids, stop))
        await asyncio.sleep(1.0)
        idle = [await restricted(db, a, b, budget) for a, b in pairs[:1]]
        four = await asyncio.gather(*(restricted(db, a, b, budget) for a, b in pairs[:4]))
        stop.set()
        lookups = await meanwhile
        a, b = pairs[0]
        params = {"from": a, "to": b, "max_length": 6, "category": CATEGORY, "by_papers": True}
        try:
            took, _ = await timed(lambda: db.run(BEFORE, params, timeout_s=args.before_timeout))
            before: dict[str, Any] = {"ms": ms(took), "outcome": "answered"}
        except QueryTimedOut:
            before = {"ms": None, "outcome": f"stopped at {args.before_timeout:g} s"}
    return {
        "category": CATEGORY,
        "budget_s": budget,
        "one_at_a_time": {**spread([t for t, _ in one]), "outcomes": sorted({o for _, o in one})},
        "both_ends_in_category": {
            **spread([t for t, _ in searched]),
            "outcomes": sorted({o for _, o in searched}),
        },
        "four_at_once": {**spread([t for t, _ in four]), "outcomes": sorted({o for _, o in four})},
        "alone_ms": ms(idle[0][0]),
        "lookups_meanwhile": spread(lookups),
        "before": before,
        "searched_hop_bounds": sorted(q.SHORTEST_ONE),
    }


# slow clients ----------------------------------------------------------------------------


async def slow_clients(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings.load().with_overrides(network_projection=False)
    port = localserver.free_port()
    config = ServeConfig(
        create_app(settings),
        head_timeout_s=settings.header_timeout_s,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="none",
        backlog=4096,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(1200):
        if server.started:
            break
        await asyncio.sleep(0.05)
    try:
        began = time.perf_counter()
        streams = [await asyncio.open_connection("127.0.0.1", port) for _ in range(args.clients)]
        for _, writer in streams:
            writer.write(b"POST /graphql HTTP/1.1\r\nHost: bench\r\nContent-Type: applic")
        opened = time.perf_counter() - began
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            health = []
            dropped = asyncio.gather(*(reader.read() for reader, _ in streams))
            while not dropped.done():
                took, _ = await timed(lambda: http.get("/healthz"))
                health.append(took)
                await asyncio.sleep(0.05)
            answers = await dropped
        all_dropped = time.perf_counter() - began
        for _, writer in streams:
            writer.close()
        return {
            "clients": args.clients,
            "header_timeout_s": settings.header_timeout_s,
            "opened_ms": ms(opened),
            "all_dropped_ms": ms(all_dropped),
            "answered_408": sum(a.startswith(b"HTTP/1.1 408 ") for a in answers),
            "healthz_meanwhile": spread(health),
        }
    finally:
        server.should_exit = True
        thread.join(30)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="what", required=True)
    out = sub.add_parser("outage")
    out.add_argument("--requests", type=int, default=20)
    out.add_argument("--kill", action="store_true", help="also kill a throw-away local Neo4j")
    found = sub.add_parser("paths")
    found.add_argument("--pairs", type=int, default=6)
    found.add_argument("--before-timeout", type=float, default=15.0)
    slow = sub.add_parser("slow-clients")
    slow.add_argument("--clients", type=int, default=1000)
    args = parser.parse_args(argv)
    run = {"outage": outage, "paths": path_searches, "slow-clients": slow_clients}[args.what]
    print(json.dumps(asyncio.run(run(args)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
