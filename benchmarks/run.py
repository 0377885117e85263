"""``make bench``: every benchmark against a throw-away local Neo4j; figures to BENCHMARKS.md.

Sizes come from ``BENCH_SIZES`` (default ``10000,100000`` papers in the synthetic corpus);
each load side runs ``BENCH_REPEATS`` times (default 3) and counts with its median run.
Machines here are noisy: figures are medians and ratios measured side by side in one run.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks import bench_load, extras
from scholargraph.graph import localserver
from scholargraph.graph.analysis import export
from scholargraph.graph.config import Secret, Settings
from scholargraph.graph.db import Database
from scholargraph.graph.identity import compare_clusterings, compare_s2and
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.repo.graphs import Selection, coauthor_graph
from scholargraph.graph.schema.install import install_schema
from scholargraph.graph.stats import analyze
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "author-disambiguation" / "s2and" / "qian"
SLOT_HOLDERS = Query(
    "bench.slot_holders",
    "UNWIND $slots AS slot MATCH (r:Researcher)-[a:AUTHORED {position: slot[1]}]->"
    "(:Paper {key: slot[0]}) RETURN slot[0] + '#' + toString(slot[1]) AS slot, r.id AS id",
)
BUSY_RESEARCHERS = Query(
    "bench.busy_researchers",
    "MATCH (r:Researcher) WHERE r.paper_count >= 3 AND r.merged_into IS NULL "
    "RETURN r.id AS id ORDER BY r.id LIMIT 300",
)


def _settings(data_dir: Path) -> Settings:
    external = os.environ.get("SCHOLARGRAPH_BENCH_NEO4J_URI")
    base = Settings.load()
    if external:
        return base.with_overrides(neo4j_uri=external)
    return base.with_overrides(
        neo4j_uri=None,
        neo4j_data_dir=data_dir,
        neo4j_bolt_port=localserver.free_port(),
        neo4j_password=Secret("bench-password-1"),
        neo4j_heap="3g",
        neo4j_pagecache="2g",
        query_timeout=600.0,
    )


@contextmanager
def throwaway_store(prefix: str) -> Iterator[tuple[Settings, Path]]:
    """A temporary folder and the settings of a Neo4j of its own in it (started and stopped
    here), or of ``SCHOLARGRAPH_BENCH_NEO4J_URI`` when that is set."""
    tmp = Path(tempfile.mkdtemp(prefix=f"scholargraph-bench-{prefix}-"))
    settings = _settings(tmp / "neo4j")
    try:
        if settings.local:
            localserver.start(settings)
        yield settings, tmp
    finally:
        if settings.local:
            localserver.stop(settings.neo4j_data_dir)
        shutil.rmtree(tmp, ignore_errors=True)


async def identity_on_demo(settings: Settings, cache: Path, papers: int) -> dict[str, Any]:
    """Our loaders' identity resolution against the demo corpus's ground truth (B³)."""
    async with Database.connect(settings) as db:
        await db.run(CLEAR_DATA)
        folder = write_demo_files(cache, papers=papers, seed=2)
        began = time.perf_counter()
        await load_demo(db, folder, coauthor_cap=settings.coauthor_cap)
        seconds = time.perf_counter() - began
        truth = json.loads((folder / "truth.json").read_text())["people"]
        gold = {p["person"]: [f"{a}#{pos}" for a, pos in p["arxiv"]] for p in truth if p["arxiv"]}
        slots = [[a, pos] for p in truth for a, pos in p["arxiv"]]
        rows: list[dict[str, Any]] = []
        for start in range(0, len(slots), 5000):
            rows += await db.run(SLOT_HOLDERS, {"slots": slots[start : start + 5000]})
        predicted: dict[int, list[str]] = {}
        for row in rows:
            predicted.setdefault(row["id"], []).append(row["slot"])
        scores = compare_clusterings(list(predicted.values()), list(gold.values()))
        return {"papers": papers, "seconds": seconds, "people": len(gold), **scores}


async def api_and_export(settings: Settings, out: Path) -> dict[str, Any]:
    async with Database.connect(settings) as db:
        # what a store gets after a big load (``scholargraph db analyze``)
        await analyze(db)
        ids = [row["id"] for row in await db.run(BUSY_RESEARCHERS)]
        began = time.perf_counter()
        graph = await coauthor_graph(db, Selection())
        fetched = time.perf_counter() - began
    began = time.perf_counter()
    export(graph, "graphml", out / "coauthors.graphml")
    exported = time.perf_counter() - began
    result: dict[str, Any] = {
        "api": await asyncio.to_thread(api_bench, settings, ids, out),
        "export": {
            "nodes": graph.number_of_nodes(),
            "edges": graph.number_of_edges(),
            "fetch_seconds": fetched,
            "graphml_seconds": exported,
        },
    }
    return result


def api_bench(settings: Settings, ids: list[int], out: Path) -> dict[str, Any]:
    port = localserver.free_port()
    env = {
        **os.environ,
        "NEO4J_URI": settings.uri,
        "NEO4J_PASSWORD": settings.neo4j_password.reveal(),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "scholargraph", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        projection_seconds = _wait_http(port)
        (out / "ids.txt").write_text("\n".join(map(str, ids)))
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "benchmarks.bench_api",
                "--url",
                f"http://127.0.0.1:{port}/graphql",
                "--ids-file",
                str(out / "ids.txt"),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        api: dict[str, Any] = (
            json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr[-2000:]}
        )
        api["projection_ready_seconds"] = projection_seconds
        site_command = ["benchmarks.bench_site", "--url", f"http://127.0.0.1:{port}"]
        site = subprocess.run(
            [sys.executable, "-m", *site_command, "--ids-file", str(out / "ids.txt")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        api["site"] = (
            json.loads(site.stdout) if site.returncode == 0 else {"error": site.stderr[-2000:]}
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
    return api


def _wait_http(port: int) -> float:
    """Wait for the server to be ready with its coauthor projection read; the seconds that
    took from its start."""
    import httpx

    began = time.monotonic()
    deadline = began + 300
    while time.monotonic() < deadline:
        try:
            ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2)
            if ready.status_code == 200 and ready.json()["coauthorProjection"] == "ready":
                return time.monotonic() - began
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    raise RuntimeError("the API server did not become ready")


def layout() -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_layout"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def extras_only() -> int:
    """Run the standalone benchmarks again beside the last full run's figures
    (``make bench-extras``); the report dates each part. With ``BENCH_EXTRAS`` (modules or
    keys, comma-separated) only those run, and only their sections of BENCHMARKS.md are
    replaced: the notes written beside the others, and the targets table, stay as they are.
    Without it the whole file is written again, keeping what no benchmark makes
    (:func:`benchmarks.report.with_hand_kept`)."""
    saved = ROOT / "benchmarks" / "results.json"
    results: dict[str, Any] = json.loads(saved.read_text())
    only = os.environ.get("BENCH_EXTRAS")
    measured = extras.run_all(
        ROOT.parent / "shared" / "data", set(only.split(",")) if only else None
    )
    results.setdefault("extras", {}).update(measured)
    now = datetime.now(UTC).isoformat()
    if only:  # the others keep the date they were measured at
        results.setdefault("extras_dates", {}).update(dict.fromkeys(measured, now))
    else:
        results["extras_date"], results["extras_dates"] = now, {}
    saved.write_text(json.dumps(results, indent=2, default=str))
    from benchmarks.report import replace_extra_sections, write_report

    if only:
        replace_extra_sections(measured, now, ROOT / "BENCHMARKS.md")
    else:
        write_report(results, ROOT / "BENCHMARKS.md")
    return 0


async def api_only() -> int:
    """The API and site figures again (``make bench-api``), on a fresh store of the largest
    size's works loaded once by our pipeline, beside the last full run's other figures."""
    saved = ROOT / "benchmarks" / "results.json"
    results: dict[str, Any] = json.loads(saved.read_text())
    size = max(int(s) for s in os.environ.get("BENCH_SIZES", "10000,100000").split(","))
    with throwaway_store("api") as (settings, tmp):
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
        _progress("load for the api", size)
        load = await bench_load.ours_alone(settings, size, ROOT / ".cache" / "bench")
        _progress("api and export", load)
        results.update(await api_and_export(settings, tmp))
        results["api_load"] = {k: v for k, v in load.items() if k != "stats"}
        results["api_date"] = datetime.now(UTC).isoformat()
    saved.write_text(json.dumps(results, indent=2, default=str))
    from benchmarks.report import replace_api_sections

    replace_api_sections(results, ROOT / "BENCHMARKS.md")
    return 0


def _repeats(sizes: int) -> list[int]:
    """``BENCH_REPEATS``: one count for every size, or one per size (``3,1``)."""
    counts = [int(n) for n in os.environ.get("BENCH_REPEATS", "3").split(",")]
    if len(counts) == 1:
        return counts * sizes
    if len(counts) != sizes:
        raise SystemExit(f"BENCH_REPEATS gives {len(counts)} counts for {sizes} sizes")
    return counts


async def load_only() -> int:
    """The loading figures again (``make bench-load``): every side at every size, in turn,
    on freshly started servers, beside the last full run's other figures; only the loading
    section of BENCHMARKS.md is written again."""
    saved = ROOT / "benchmarks" / "results.json"
    results: dict[str, Any] = json.loads(saved.read_text())
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "10000,100000").split(",")]
    sample = int(os.environ.get("BENCH_NEOMODEL_SAMPLE", "300"))
    repeats = _repeats(len(sizes))
    with throwaway_store("load") as (settings, _):
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
        _progress("loads", {"sizes": sizes, "repeats": repeats})
        results["load"] = await bench_load.run(
            settings, sizes, ROOT / ".cache" / "bench", sample, _fresh_store(settings), repeats
        )
        results["load_date"] = datetime.now(UTC).isoformat()
        _progress("loaded", results["load"])
    saved.write_text(json.dumps(results, indent=2, default=str))
    from benchmarks.report import replace_load_section

    replace_load_section(results, ROOT / "BENCHMARKS.md")
    return 0


async def main() -> int:
    if "--load-only" in sys.argv[1:]:
        return await load_only()
    if "--extras-only" in sys.argv[1:]:
        return extras_only()
    if "--api-only" in sys.argv[1:]:
        return await api_only()
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "10000,100000").split(",")]
    sample = int(os.environ.get("BENCH_NEOMODEL_SAMPLE", "300"))
    repeats = _repeats(len(sizes))
    cache = ROOT / ".cache" / "bench"
    results: dict[str, Any] = {
        "sizes": sizes,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "date": datetime.now(UTC).isoformat(),
    }
    tmp = Path(tempfile.mkdtemp(prefix="scholargraph-bench-"))
    settings = _settings(tmp / "neo4j")
    try:
        if settings.local:
            info, _ = localserver.start(settings)
            results["neo4j_start_seconds"] = info.startup_seconds
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
        _progress("identity on the demo corpus")
        results["identity_demo"] = await identity_on_demo(settings, cache, min(sizes))
        _progress("loads", results["identity_demo"])
        results["load"] = await bench_load.run(
            settings, sizes, cache, sample, _fresh_store(settings), repeats
        )
        _progress("api and export", results["load"])
        results.update(await api_and_export(settings, tmp))
        results["neo4j_rss_bytes"] = localserver.status(settings.neo4j_data_dir).rss_bytes
    finally:
        if settings.local:
            localserver.stop(settings.neo4j_data_dir)
        shutil.rmtree(tmp, ignore_errors=True)
    if SHARED.is_dir():
        results["identity_qian"] = compare_s2and(
            SHARED / "signatures.json", SHARED / "clusters.json"
        )
    results["layout"] = layout()
    only = os.environ.get("BENCH_EXTRAS")
    results["extras_date"] = datetime.now(UTC).isoformat()
    results["extras"] = extras.run_all(
        ROOT.parent / "shared" / "data", set(only.split(",")) if only else None
    )
    (ROOT / "benchmarks" / "results.json").write_text(json.dumps(results, indent=2, default=str))
    from benchmarks.report import write_report

    write_report(results, ROOT / "BENCHMARKS.md")
    print((ROOT / "BENCHMARKS.md").read_text())
    return 0


def _fresh_store(settings: Settings) -> bench_load.Fresh | None:
    """The local server restarted on an empty data directory, with the schema installed."""
    if not settings.local:
        return None

    async def fresh() -> None:
        await asyncio.to_thread(localserver.stop, settings.neo4j_data_dir)
        shutil.rmtree(settings.neo4j_data_dir, ignore_errors=True)
        await asyncio.to_thread(localserver.start, settings)
        async with Database.connect(settings) as db:
            await install_schema(settings, db)

    return fresh


def _progress(step: str, data: object = None) -> None:
    stamp = datetime.now(UTC).strftime("%H:%M:%S")
    print(f"[{stamp}] {step}" + (f": {json.dumps(data, default=str)}" if data else ""), flush=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
