"""Our API beside the official Neo4j GraphQL library (``@neo4j/graphql`` 7) on the same store.

A demo store in a throw-away Neo4j; our server, and the peer (``benchmarks/peer/server.mjs``)
twice: as shipped, and with TCP_NODELAY on its Bolt sockets. The same researchers and pairs
for every side, warmed up alike, then interleaved rounds (ours, peer as shipped, peer with
TCP_NODELAY, the hand-written single page statement through the Python driver) of

* ``page``: the researcher page (bench_api's ``PAGE``; the peer's own version of it, see
  ``PEER_PAGE``), and the hand-written statement ``PAGE_STATEMENT``;
* ``path``: a collaboration path between pairs (the peer: a ``shortestPath`` ``@cypher`` field);
* ``network``: depth 2, at most 500 researchers; ours as graphology and as typed fields, the
  peer as one ``@cypher`` walk returning nodes and edges;

then the page's throughput with ``--concurrency`` clients on each side, with the CPU each
page cost the API server, Neo4j and the clients (``cpu_ms_per_page``), and where a request's
time goes in our server (``our_split``: a one-worker server's own figures from ``/metrics``,
the GraphQL operation and its Neo4j statements, against what the client saw, and the CPU
the server spent). Prints JSON: p50/p99 per side and the ratios ours/peer. Talks only to
127.0.0.1 and stops what it starts.

    python -m benchmarks.bench_peer --papers 5000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from benchmarks.bench_api import NETWORK, NETWORK_TYPED, PAGE, PATH, percentiles, steps_per_second
from benchmarks.cpu import tree_cpu_seconds
from benchmarks.run import BUSY_RESEARCHERS, ROOT, _wait_http, throwaway_store
from scholargraph.graph import localserver
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.stats import analyze
from scholargraph.queries import Query

PEER_DIR = ROOT / "benchmarks" / "peer"
# What the peer can say of the page natively (the profile's properties, the papers and their
# authors as connections sorted by date and position, with counts), and the computed parts as
# the typeDefs' @cypher fields (fields, most cited, the same-name count).
PEER_PAGE = """
query Page($id: Int!) {
  researchers(where: {id: {eq: $id}}) {
    id name slug orcid paperCount citationCount hIndex hIndexS2 hIndexOpenalex
    s2Ids openalexIds
    fields { code name papers }
    sameNameCount
    mostCited { key title citationCount }
    papersConnection(first: 24, sort: [{node: {published: DESC}}, {node: {key: DESC}}]) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { properties { position kind } node {
        key title published year citationCount primaryCategory
        authorsConnection(first: 10, sort: [{edge: {position: ASC}}]) {
          totalCount edges { node { id name } }
        }
      } }
    }
  }
}
"""
PEER_NETWORK = """
query Network($id: Int!) {
  researchers(where: {id: {eq: $id}}) {
    network(depth: 2, maxNodes: 500) {
      nodes { id name paperCount }
      edges { source target jointPapers }
    }
  }
}
"""
PEER_PATH = """
query Path($from: Int!, $to: Int!) {
  collaborationPath(from: $from, to: $to) { id name }
}
"""
# The page as one statement written by hand: the profile, author positions, fields, the
# same-name count, the most cited paper and the first 24 papers (newest first) with up to 10
# authors each, in the order of the author list.
PAGE_STATEMENT = Query(
    "bench.page_statement",
    """
    MATCH (r:Researcher {id: $id})
    CALL (r) {
      OPTIONAL MATCH (r)-[a:AUTHORED]->(:Paper)
      RETURN count(a) AS total,
             count(CASE WHEN a.kind = 'first' THEN 1 END) AS first,
             count(CASE WHEN a.kind = 'middle' THEN 1 END) AS middle,
             count(CASE WHEN a.kind = 'last' THEN 1 END) AS last,
             count(CASE WHEN a.kind = 'solo' THEN 1 END) AS solo
    }
    CALL (r) {
      OPTIONAL MATCH (r)-[:AUTHORED]->(:Paper)-[:IN_CATEGORY]->(c:Category)
      WITH c, count(*) AS papers WHERE c IS NOT NULL
      ORDER BY papers DESC, c.code
      RETURN collect({code: c.code, name: c.name, papers: papers}) AS fields
    }
    CALL (r) {
      OPTIONAL MATCH (r)-[:AUTHORED]->(p:Paper) WHERE p.citation_count IS NOT NULL
      WITH p ORDER BY p.citation_count DESC, p.key DESC LIMIT 1
      RETURN collect(p {.key, .title, .citation_count}) AS most_cited
    }
    CALL (r) {
      MATCH (r)-[a:AUTHORED]->(p:Paper)
      WITH a, p, coalesce(p.published.year * 10000 + p.published.month * 100
                          + p.published.day, coalesce(p.year, 0) * 10000) AS sort
      ORDER BY sort DESC, p.key DESC LIMIT 25
      RETURN collect({position: a.position, kind: a.kind,
                      paper: p {.key, .title, .published, .year, .citation_count,
                                .primary_category},
                      author_total: COUNT { (p)<-[:AUTHORED]-(:Researcher) },
                      authors: COLLECT { MATCH (p)<-[b:AUTHORED]-(o:Researcher)
                                         WITH b, o ORDER BY b.position LIMIT 10
                                         RETURN o {.id, .name} }}) AS papers
    }
    RETURN r {.id, .name, .slug, .orcid, .paper_count, .citation_count, .h_index,
              .h_index_s2, .h_index_openalex, .s2_ids, .openalex_ids} AS researcher,
           {first: first, middle: middle, last: last, solo: solo} AS positions, total,
           fields, most_cited, papers,
           COUNT { (o:Researcher {name_key: r.name_key})
                   WHERE o.merged_into IS NULL AND o <> r } AS same_name
    """,
)


def node() -> str:
    found = shutil.which("node")
    if not found:
        raise SystemExit("node is not on PATH: the peer is a Node server (npm install first)")
    return found


def _env(settings: Settings) -> dict[str, str]:
    user, password = settings.auth or ("neo4j", "")
    return {**os.environ, "NEO4J_URI": settings.uri, "NEO4J_USER": user, "NEO4J_PASSWORD": password}


def _wait_line(process: subprocess.Popen[str], seconds: float) -> dict[str, Any]:
    """The peer's first stdout line (JSON, once it listens), within ``seconds``."""
    assert process.stdout is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if line:
            ready: dict[str, Any] = json.loads(line)
            return ready
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError("the peer server did not start (see its stderr)")


@dataclass(frozen=True)
class Served:
    """A server this benchmark started: its GraphQL URL and its process."""

    url: str
    pid: int


@contextmanager
def peer_server(settings: Settings, *, nodelay: bool) -> Iterator[Served]:
    """The peer on a free port of 127.0.0.1."""
    port = localserver.free_port()
    env = {**_env(settings), "PEER_PORT": str(port), "PEER_NODELAY": "1" if nodelay else "0"}
    process = subprocess.Popen(
        [node(), str(PEER_DIR / "server.mjs")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=sys.stderr,
        text=True,
    )
    try:
        _wait_line(process, 120)
        yield Served(f"http://127.0.0.1:{port}/graphql", process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()


@contextmanager
def our_server(settings: Settings, env: dict[str, str] | None = None) -> Iterator[Served]:
    """``scholargraph serve`` on a free port (``env`` added to its environment), once its
    coauthor projection is ready."""
    port = localserver.free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "scholargraph", "serve", "--port", str(port)],
        cwd=ROOT,
        env={**_env(settings), **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_http(port)
        yield Served(f"http://127.0.0.1:{port}/graphql", process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)


async def ask(
    client: httpx.AsyncClient, url: str, query: str, variables: dict[str, Any]
) -> dict[str, Any]:
    response = await client.post(url, json={"query": query, "variables": variables})
    body: dict[str, Any] = response.json()
    if response.status_code != 200 or body.get("errors"):
        raise RuntimeError(f"{url}: {query.split('(')[0].strip()} failed: {body.get('errors')}")
    data: dict[str, Any] = body["data"]
    return data


Step = Callable[[Any], Awaitable[object]]


async def interleaved(sides: dict[str, Step], inputs: Sequence[Any]) -> dict[str, list[float]]:
    """Every side on each input in turn, so a drift of the machine's speed weighs on all."""
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for value in inputs:
        for name, step in sides.items():
            began = time.perf_counter()
            await step(value)
            samples[name].append(time.perf_counter() - began)
    return samples


async def throughput(
    step: Step, ids: Sequence[int], concurrency: int, seconds: float, pids: dict[str, int]
) -> tuple[float, dict[str, float]]:
    """Requests a second by ``concurrency`` clients, and the CPU milliseconds each request
    cost every process of ``pids`` (with its descendants) and this one (the clients)."""
    before = {name: tree_cpu_seconds(pid) for name, pid in pids.items()}
    clients = time.process_time()
    began = time.perf_counter()
    rate = await steps_per_second(step, ids, concurrency, seconds)
    requests = max(rate * (time.perf_counter() - began), 1.0)
    used = {name: tree_cpu_seconds(pid) - before[name] for name, pid in pids.items()}
    used["clients"] = time.process_time() - clients
    return round(rate, 1), {name: round(s * 1000 / requests, 2) for name, s in used.items()}


OPERATION = "scholargraph_graphql_operation_duration_seconds"
# every statement sent once (a composed one too), not each named query it carries
STATEMENT = "scholargraph_neo4j_round_trip_duration_seconds"


def metric_sums(text: str) -> dict[str, float]:
    """Seconds and counts of the GraphQL operations (over every label) and of the statements
    sent to Neo4j in a ``/metrics`` page."""
    sums = {"operation_s": 0.0, "operations": 0.0, "statement_s": 0.0, "statements": 0.0}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            for metric, key in ((OPERATION, "operation"), (STATEMENT, "statement")):
                if sample.name == f"{metric}_sum":
                    sums[f"{key}_s"] += sample.value
                elif sample.name == f"{metric}_count":
                    sums[f"{key}s"] += sample.value
    return sums


async def split(
    client: httpx.AsyncClient, served: Served, step: Step, inputs: Sequence[Any]
) -> dict[str, float]:
    """Requests one at a time: the time the client saw, beside the server's own (one
    worker): its GraphQL operation, the Neo4j statements in it, and the CPU the server
    spent (means in ms)."""
    metrics_url = served.url.replace("/graphql", "/metrics")
    before = metric_sums((await client.get(metrics_url)).text)
    cpu = tree_cpu_seconds(served.pid)
    seen = (await interleaved({"request": step}, inputs))["request"]
    cpu = tree_cpu_seconds(served.pid) - cpu
    after = metric_sums((await client.get(metrics_url)).text)
    spent = {key: after[key] - before[key] for key in before}
    n = len(inputs)
    return {
        "client_mean_ms": round(sum(seen) * 1000 / n, 2),
        "api_cpu_mean_ms": round(cpu * 1000 / n, 2),
        "operation_mean_ms": round(spent["operation_s"] * 1000 / n, 2),
        "statement_mean_ms": round(spent["statement_s"] * 1000 / n, 2),
        "statements_per_request": round(spent["statements"] / n, 2),
    }


def _ratios(
    figures: dict[str, dict[str, float]], ours: str, peers: Sequence[str]
) -> dict[str, float]:
    return {
        f"{ours}/{peer}": round(figures[ours]["p50_ms"] / max(figures[peer]["p50_ms"], 1e-9), 2)
        for peer in peers
    }


@dataclass(frozen=True)
class Inputs:
    """The researchers of the measured requests, the same for every side."""

    pages: list[int]
    pairs: list[tuple[int, int]]
    centres: list[int]

    @classmethod
    def drawn(cls, ids: Sequence[int], requests: int) -> Inputs:
        rng = random.Random(0)
        pages = [rng.choice(ids) for _ in range(requests)]
        pairs = [(a, b) for a, b in (rng.sample(list(ids), 2) for _ in range(requests))]
        centres = [rng.choice(ids) for _ in range(max(1, requests // 4))]
        return cls(pages, pairs, centres)


async def compare(
    settings: Settings,
    servers: dict[str, Served],
    ids: Sequence[int],
    *,
    requests: int,
    concurrency: int,
    seconds: float,
    warmup: int,
) -> dict[str, Any]:
    """``servers``: ``ours`` and the peers by name; the figures of every request kind."""
    inputs = Inputs.drawn(ids, requests)
    urls = {name: served.url for name, served in servers.items()}
    peers = [name for name in urls if name != "ours"]
    neo4j = localserver.read_state(settings.neo4j_data_dir) if settings.local else None
    limits = httpx.Limits(max_connections=concurrency + 2)
    async with (
        httpx.AsyncClient(timeout=120, limits=limits) as client,
        Database.connect(settings) as db,
    ):

        def page(url: str, query: str) -> Step:
            return lambda rid: ask(
                client, url, query, {"id": rid if url != urls["ours"] else str(rid)}
            )

        def path(url: str, query: str, typed: type) -> Step:
            return lambda pair: ask(
                client, url, query, {"from": typed(pair[0]), "to": typed(pair[1])}
            )

        async def statement(rid: int) -> object:
            return await db.run(PAGE_STATEMENT, {"id": rid})

        page_sides: dict[str, Step] = {"ours": page(urls["ours"], PAGE)}
        page_sides |= {name: page(urls[name], PEER_PAGE) for name in peers}
        page_sides["statement"] = statement
        path_sides: dict[str, Step] = {"ours": path(urls["ours"], PATH, str)}
        path_sides |= {name: path(urls[name], PEER_PATH, int) for name in peers}
        network_sides: dict[str, Step] = {
            "ours": page(urls["ours"], NETWORK),
            "ours_typed": page(urls["ours"], NETWORK_TYPED),
        }
        network_sides |= {name: page(urls[name], PEER_NETWORK) for name in peers}
        # warm-up: every side, every kind, on other researchers than the measured ones alike
        warm = random.Random(99)
        for _ in range(warmup):
            await interleaved(page_sides, [warm.choice(ids)])
            await interleaved(path_sides, [tuple(warm.sample(list(ids), 2))])
        await interleaved(network_sides, [warm.choice(ids) for _ in range(min(5, warmup))])

        figures: dict[str, Any] = {}
        for kind, sides, measured in (
            ("page", page_sides, inputs.pages),
            ("path", path_sides, inputs.pairs),
            ("network", network_sides, inputs.centres),
        ):
            samples = await interleaved(sides, measured)
            figures[kind] = {name: percentiles(values) for name, values in samples.items()}
        figures["page"]["ratios"] = _ratios(figures["page"], "ours", [*peers, "statement"])
        figures["path"]["ratios"] = _ratios(figures["path"], "ours", peers)
        figures["network"]["ratios"] = {
            **_ratios(figures["network"], "ours", peers),
            **_ratios(figures["network"], "ours_typed", ["ours"]),
        }
        rps: dict[str, float] = {}
        cpu: dict[str, dict[str, float]] = {}
        for name in urls:
            pids = {"api": servers[name].pid} | ({"neo4j": neo4j.pid} if neo4j else {})
            rps[name], cpu[name] = await throughput(
                page_sides[name], ids, concurrency, seconds, pids
            )
        figures["page_throughput_rps"] = {
            **rps,
            "ratios": {
                f"ours/{peer}": round(rps["ours"] / max(rps[peer], 1e-9), 2) for peer in peers
            },
        }
        figures["cpu_ms_per_page"] = cpu
        figures["cores"] = os.cpu_count()
        figures["concurrency"] = concurrency
    return figures


async def our_split(served: Served, ids: Sequence[int], requests: int) -> dict[str, Any]:
    """Where a request's time goes in our server (one worker, so that its ``/metrics`` sees
    every request): each kind on the measured inputs, after a few requests of each."""
    inputs = Inputs.drawn(ids, requests)
    async with httpx.AsyncClient(timeout=120) as client:

        def asking(query: str, variables: Callable[[Any], dict[str, Any]]) -> Step:
            return lambda value: ask(client, served.url, query, variables(value))

        kinds = (
            ("page", asking(PAGE, lambda rid: {"id": str(rid)}), inputs.pages),
            (
                "path",
                asking(PATH, lambda pair: {"from": str(pair[0]), "to": str(pair[1])}),
                inputs.pairs,
            ),
            ("network", asking(NETWORK, lambda rid: {"id": str(rid)}), inputs.centres),
            ("network typed", asking(NETWORK_TYPED, lambda rid: {"id": str(rid)}), inputs.centres),
        )
        for _, step, measured in kinds:
            await interleaved({"warm-up": step}, measured[:5])
        return {kind: await split(client, served, step, measured) for kind, step, measured in kinds}


async def build_store(settings: Settings, papers: int, cache: Path) -> list[int]:
    """The demo corpus loaded (as ``scholargraph demo`` loads it); busy researchers' ids."""
    async with Database.connect(settings) as db:
        from scholargraph.graph.schema.install import install_schema

        await install_schema(settings, db)
        folder = write_demo_files(cache, papers=papers, seed=7)
        await load_demo(db, folder, coauthor_cap=settings.coauthor_cap)
        await analyze(db)
        return [row["id"] for row in await db.run(BUSY_RESEARCHERS)]


async def _nodelay_sockets(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=10) as client:
        found: dict[str, Any] = (await client.get(url.replace("/graphql", "/nodelay"))).json()
        return found


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with throwaway_store("peer") as (settings, tmp):
        began = time.perf_counter()
        ids = await build_store(settings, args.papers, tmp / "demo")
        result: dict[str, Any] = {
            "papers": args.papers,
            "researchers_sampled": len(ids),
            "load_seconds": round(time.perf_counter() - began, 1),
        }
        # a cold first page on a busy machine may outlast the default 10 s budget
        budget = {"SCHOLARGRAPH_REQUEST_BUDGET_S": "60"}
        with (
            our_server(settings, budget) as ours,
            peer_server(settings, nodelay=False) as shipped,
            peer_server(settings, nodelay=True) as nodelay,
        ):
            servers = {"ours": ours, "peer_shipped": shipped, "peer_nodelay": nodelay}
            result |= await compare(
                settings,
                servers,
                ids,
                requests=args.requests,
                concurrency=args.concurrency,
                seconds=args.seconds,
                warmup=args.warmup,
            )
            result["bolt_sockets"] = {
                "peer_shipped": await _nodelay_sockets(shipped.url),
                "peer_nodelay": await _nodelay_sockets(nodelay.url),
            }
        with our_server(settings, {**budget, "SCHOLARGRAPH_WORKERS": "1"}) as alone:
            result["our_split"] = await our_split(alone, ids, args.requests)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--papers", type=int, default=5000, help="demo corpus size")
    parser.add_argument("--requests", type=int, default=200, help="rounds per request kind")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0, help="throughput run per side")
    parser.add_argument("--warmup", type=int, default=100, help="warm-up rounds")
    args = parser.parse_args(argv)
    json.dump(asyncio.run(run(args)), sys.stdout, indent=2, default=str)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
