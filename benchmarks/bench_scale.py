"""``make bench-scale``: the demo corpus loaded through all four sources at growing sizes.

For each size of ``--sizes`` (default 100k,300k,1M,2.7M), smallest first: the synthetic corpus
(``graph/demo``) is generated in a process of its own, a fresh local Neo4j is started by the
project's launcher with the memory plan's heap and page cache for the store that size should
make (``graph/memory.py``), and ``scholargraph demo`` loads it (ROR, OpenAlex, S2, arXiv: the
product's own load, embedding included). Measured: load time, papers a second, the peak
resident memory of the Neo4j process and of the loader, the store's size on disk; then, on
that store, the coauthor projection's build time and size, and the API figures of
``make bench`` (``benchmarks.run.api_bench``: ``bench_api``'s page, network and path p50/p99,
``bench_site``). Results go to ``benchmarks/results.json`` under ``scale`` and BENCHMARKS.md.

A size is only started when it should fit: its expected memory (heap, the page cache the
store fills, the loader) within the memory available now, its data directory within the free disk,
its expected time (from the size before, per paper) within what is left of
``--max-minutes``, and within the generator's limit. The first that does not is recorded
with the reason and the run stops; a size that outruns the budget anyway is stopped and
recorded as such. At the end every size of ``--sizes`` is judged check by check (memory,
disk, the target's hour, the generator) at the per-paper costs of the largest size measured:
the report's "Which sizes fit". ``--assess`` judges them from the recorded run, loading
nothing.

    python -m benchmarks.bench_scale --sizes 100k --max-minutes 40
    python -m benchmarks.bench_scale --sizes 100k,300k,1M,2.7M --assess
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.run import BUSY_RESEARCHERS, api_bench
from scholargraph.graph import localserver
from scholargraph.graph.config import Secret, Settings
from scholargraph.graph.db import Database
from scholargraph.graph.demo.generator import MAX_PAPERS
from scholargraph.graph.memory import GIB, machine_memory, plan_memory, store_bytes
from scholargraph.graph.repo.projection import read_projection
from scholargraph.graph.stats import analyze, graph_stats

ROOT = Path(__file__).resolve().parents[1]
SEED = 1
DEFAULT_SIZES = "100k,300k,1M,2.7M"
_SIZE = re.compile(r"(\d+(?:\.\d+)?)([kKmM]?)")
HOUR = 3600.0  # the target: the whole of arXiv (2.7M papers) in under an hour


def parse_sizes(text: str) -> list[int]:
    """Paper counts, smallest first: ``100k``, ``2.7M`` or ``5000``, comma separated."""
    sizes = []
    for part in text.split(","):
        found = _SIZE.fullmatch(part.strip())
        if not found:
            raise ValueError(f"{part.strip()!r} is not a size; write 100k, 2.7M or 5000")
        scale = {"": 1, "k": 1000, "m": 1_000_000}[found[2].lower()]
        sizes.append(round(float(found[1]) * scale))
    if min(sizes) < 1:
        raise ValueError("a size must be at least one paper")
    return sorted(set(sizes))


@dataclass(frozen=True, slots=True)
class PerPaper:
    """What a size is expected to take, per corpus paper, from the size measured before it
    (the defaults are from the 10k four-source load of ``make bench``: 77.7 s)."""

    seconds: float = 1 / 120
    store_bytes: float = 30_000.0
    loader_bytes: float = 8_000.0
    # the whole data directory: the store and the transaction logs the server keeps
    disk_bytes: float = 45_000.0

    @classmethod
    def measured(cls, run: dict[str, Any]) -> PerPaper:
        papers = run["papers"]
        store = run["store_bytes"] / papers
        return cls(
            seconds=run["load_seconds"] / papers,
            store_bytes=store,
            loader_bytes=run["loader_peak_rss_bytes"] / papers,
            disk_bytes=run.get("data_dir_bytes", store * 1.5 * papers) / papers,
        )


@dataclass(frozen=True, slots=True)
class Room:
    memory: int  # bytes available now (the machine is shared)
    disk: int  # bytes free where the store goes
    seconds: float  # what is left of --max-minutes


def expected_memory(papers: int, per: PerPaper, total: int) -> dict[str, int]:
    store = int(papers * per.store_bytes)
    plan = plan_memory(total, store)
    return {
        "store": store,
        "heap": plan.heap,
        "pagecache": plan.pagecache,
        "loader": int(papers * per.loader_bytes),
        # the heap is taken whole at start (-Xms = -Xmx); the page cache only as it fills
        "need": plan.heap + min(plan.pagecache, store) + int(papers * per.loader_bytes),
    }


def does_not_fit(papers: int, per: PerPaper, total: int, room: Room) -> str | None:
    """Why ``papers`` should not be started on this machine now, or None if it fits."""
    if papers > MAX_PAPERS:
        return f"the demo generator makes at most {MAX_PAPERS:,} papers"
    need = expected_memory(papers, per, total)
    if need["need"] > room.memory:
        return (
            f"expected memory {need['need'] / GIB:.1f} GiB (heap {need['heap'] / GIB:.1f}, "
            f"page cache filled {min(need['pagecache'], need['store']) / GIB:.1f}, loader "
            f"{need['loader'] / GIB:.1f}) over the {room.memory / GIB:.1f} GiB available"
        )
    disk = papers * per.disk_bytes
    if disk > room.disk:
        return (
            f"expected data directory {disk / GIB:.1f} GiB (store {need['store'] / GIB:.1f}) "
            f"over free disk {room.disk / GIB:.1f}"
        )
    seconds = papers * per.seconds
    if seconds > room.seconds:
        return (
            f"expected load {seconds / 60:.0f} min (at {1 / per.seconds:.0f} papers/s) over the "
            f"{max(room.seconds, 0) / 60:.0f} min left of the budget"
        )
    return None


def fit(papers: int, per: PerPaper, total: int, disk: int) -> dict[str, Any]:
    """Whether ``papers`` fits this machine, check by check, at the per-paper costs of a
    measured size: the memory it should need against the machine's, its data directory
    against the free disk, its load against the hour of the target, and the generator."""
    need = expected_memory(papers, per, total)
    seconds = papers * per.seconds
    return {
        "papers": papers,
        "expected_seconds": round(seconds),
        "memory_bytes": need["need"],
        "machine_memory_bytes": total,
        "store_bytes": need["store"],
        "disk_bytes": round(papers * per.disk_bytes),
        "free_disk_bytes": disk,
        "fits_memory": need["need"] <= total,
        "fits_disk": papers * per.disk_bytes <= disk,
        "within_hour": seconds <= HOUR,
        "generator": papers <= MAX_PAPERS,
    }


def largest_loaded(runs: list[dict[str, Any]]) -> dict[str, Any] | None:
    loaded = [run for run in runs if "load_seconds" in run and "store_bytes" in run]
    return max(loaded, key=lambda run: run["papers"]) if loaded else None


def assess(scale: dict[str, Any], sizes: list[int], disk: int, total: int) -> dict[str, Any]:
    """``scale`` with ``fit``: each of ``sizes`` judged at the per-paper costs of its
    largest measured size (none measured: the defaults), the runs as they were."""
    basis = largest_loaded(scale.get("runs", []))
    per = PerPaper() if basis is None else PerPaper.measured(basis)
    return {
        **scale,
        "fit": {
            "date": datetime.now(UTC).isoformat(),
            "from_papers": None if basis is None else basis["papers"],
            "sizes": [fit(papers, per, total, disk) for papers in sizes],
        },
    }


@dataclass(frozen=True, slots=True)
class Finished:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss_bytes: int
    timed_out: bool


def run_child(command: list[str], env: dict[str, str], deadline: float) -> Finished:
    """Run ``command``; its peak resident memory from the kernel (``wait4``), and stopped
    at ``deadline`` (a ``time.monotonic()`` value)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        began = time.monotonic()
        child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=err)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline and not timed_out:
                child.kill()
                timed_out = True
            time.sleep(0.5)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - began
        out.seek(0)
        err.seek(0)
        return Finished(
            child.returncode,
            out.read(),
            err.read()[-3000:],
            seconds,
            usage.ru_maxrss * 1024,
            timed_out,
        )


def kib_field(path: str, name: str) -> int | None:
    """A ``/proc`` file's field given in KiB (``VmRSS:  1234 kB``), in bytes; None if absent."""
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(f"{name}:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def peak_rss(pid: int) -> int | None:
    """The process's peak resident memory so far (``VmHWM``)."""
    return kib_field(f"/proc/{pid}/status", "VmHWM")


def available_memory() -> int:
    """What the kernel says could be used now without swapping (``MemAvailable``)."""
    return kib_field("/proc/meminfo", "MemAvailable") or machine_memory()


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _env(settings: Settings, home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "NEO4J_URI": settings.uri,
        "NEO4J_PASSWORD": settings.neo4j_password.reveal(),
        "SCHOLARGRAPH_HOME": str(home),
        "SCHOLARGRAPH_QUERY_TIMEOUT": "600",
    }


def generate(papers: int, home: Path, deadline: float) -> dict[str, Any]:
    folder = home / "demo" / f"demo-{papers}-{SEED}"
    if (folder / "truth.json").exists():
        return {"cached": True, "corpus_bytes": folder_bytes(folder)}
    code = (
        "import sys; from pathlib import Path; "
        "from scholargraph.graph.loaders.demo import write_demo_files; "
        f"write_demo_files(Path(sys.argv[1]), papers={papers}, seed={SEED})"
    )
    done = run_child([sys.executable, "-c", code, str(home / "demo")], dict(os.environ), deadline)
    if done.returncode != 0:
        return {"error": "timed out" if done.timed_out else done.stderr}
    return {
        "cached": False,
        "seconds": round(done.seconds, 1),
        "peak_rss_bytes": done.peak_rss_bytes,
        "corpus_bytes": folder_bytes(folder),
    }


def _settings(data_dir: Path, store: int, total: int) -> Settings:
    plan = plan_memory(total, store)
    return Settings.load().with_overrides(
        neo4j_uri=None,
        neo4j_data_dir=data_dir,
        neo4j_bolt_port=localserver.free_port(),
        neo4j_password=Secret("bench-password-1"),
        neo4j_heap=plan.heap_setting,
        neo4j_pagecache=plan.pagecache_setting,
        query_timeout=600.0,
    )


async def _projection_and_ids(settings: Settings) -> tuple[dict[str, Any], list[int], Any]:
    async with Database.connect(settings) as db:
        await analyze(db)
        ids = [row["id"] for row in await db.run(BUSY_RESEARCHERS)]
        stats = await graph_stats(db)
        before = kib_field("/proc/self/status", "VmRSS") or 0
        began = time.perf_counter()
        projection = await read_projection(db)
        seconds = time.perf_counter() - began
        grew = (kib_field("/proc/self/status", "VmRSS") or 0) - before
    arrays = (
        []
        if projection is None
        else [getattr(projection, name) for name in ("ids", "indptr", "neighbours", "joint")]
        + [projection.first_year, projection.last_year, projection.merged]
    )
    figures = {
        "build_seconds": round(seconds, 2),
        "researchers": 0 if projection is None else len(projection.ids),
        "ties": 0 if projection is None else projection.tie_count,
        "array_bytes": sum(int(a.nbytes) for a in arrays),
        "reader_rss_growth_bytes": grew,
    }
    return figures, ids, stats


def measure(papers: int, home: Path, total: int, per: PerPaper, deadline: float) -> dict[str, Any]:
    run: dict[str, Any] = {"papers": papers, "seed": SEED}
    run["corpus"] = generate(papers, home, deadline)
    if "error" in run["corpus"]:
        return run
    expected_store = int(papers * per.store_bytes)
    tmp = Path(tempfile.mkdtemp(prefix=f"scholargraph-scale-{papers}-"))
    settings = _settings(tmp / "neo4j", expected_store, total)
    run["memory_plan"] = {
        "expected_store_bytes": expected_store,
        "heap": settings.neo4j_heap,
        "pagecache": settings.neo4j_pagecache,
    }
    try:
        info, _ = localserver.start(settings)
        run["neo4j_start_seconds"] = info.startup_seconds
        folder = home / "demo" / f"demo-{papers}-{SEED}"
        for stale in folder.glob(".checkpoint-*"):
            stale.unlink()
        command = [sys.executable, "-m", "scholargraph", "-q", "demo", "--papers", str(papers)]
        done = run_child([*command, "--seed", str(SEED), "--json"], _env(settings, home), deadline)
        run["neo4j_peak_rss_load_bytes"] = peak_rss(info.pid)
        if done.returncode != 0:
            run["error"] = "the load ran past --max-minutes" if done.timed_out else done.stderr
            return run
        sources = json.loads(done.stdout)["sources"]
        run["load_seconds"] = round(done.seconds, 1)
        run["papers_per_second"] = round(papers / done.seconds, 1)
        run["loader_peak_rss_bytes"] = done.peak_rss_bytes
        run["sources"] = {
            name: {key: summary[key] for key in ("records", "seconds", "papers")}
            for name, summary in sources.items()
        }
        run["store_bytes"] = store_bytes(settings.neo4j_data_dir) or 0
        run["data_dir_bytes"] = folder_bytes(settings.neo4j_data_dir)
        try:  # the load's figures stand whatever happens on the store after it
            run["projection"], ids, run["graph"] = asyncio.run(_projection_and_ids(settings))
            run["api"] = api_bench(settings, ids, tmp)
        except Exception as error:  # recorded beside the load's figures
            run["after_load_error"] = f"{type(error).__name__}: {error}"
        run["neo4j_peak_rss_bytes"] = peak_rss(info.pid)
    finally:
        localserver.stop(settings.neo4j_data_dir)
        shutil.rmtree(tmp, ignore_errors=True)
    return run


def machine() -> dict[str, Any]:
    return {
        "platform": f"{platform.machine()}, {os.cpu_count()} cores",
        "memory_bytes": machine_memory(),
        "available_bytes_at_start": available_memory(),
    }


def run_sizes(
    sizes: list[int],
    home: Path,
    max_minutes: float,
    command: str,
    total: int | None = None,
    notes: list[str] | None = None,
    save: Callable[[dict[str, Any]], None] = lambda result: None,
) -> dict[str, Any]:
    """The runs of ``sizes`` in turn until one does not fit; ``save`` sees the result after
    each size, so an interrupted run keeps the sizes it finished."""
    total = total or machine_memory()
    began = time.monotonic()
    deadline = began + max_minutes * 60
    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(),
        "command": command,
        "sizes": sizes,
        "max_minutes": max_minutes,
        "machine": machine(),
        "runs": [],
        "not_run": [],
        "notes": notes or [],
    }
    per = PerPaper()
    for index, papers in enumerate(sizes):
        home.mkdir(parents=True, exist_ok=True)
        room = Room(
            memory=available_memory(),
            disk=shutil.disk_usage(home).free,
            seconds=deadline - time.monotonic(),
        )
        if does_not_fit(papers, per, total, room) is not None:
            result["not_run"] += [
                {"papers": p, "reason": does_not_fit(p, per, total, room)} for p in sizes[index:]
            ]
            break
        _progress(f"{papers:,} papers", asdict(per))
        run = measure(papers, home, total, per, deadline)
        result["runs"].append(run)
        save(result)
        _progress(f"{papers:,} papers done", {k: v for k, v in run.items() if k != "api"})
        if "load_seconds" not in run:
            after = f"not started: the {papers:,} run did not finish"
            result["not_run"] += [{"papers": p, "reason": after} for p in sizes[index + 1 :]]
            break
        per = PerPaper.measured(run)
    return assess(result, sizes, shutil.disk_usage(home).free, total)


def _progress(step: str, data: object = None) -> None:
    stamp = datetime.now(UTC).strftime("%H:%M:%S")
    print(f"[{stamp}] {step}" + (f": {json.dumps(data, default=str)}" if data else ""), flush=True)


def save(result: dict[str, Any]) -> None:
    """``result`` as ``scale`` of benchmarks/results.json, beside the rest, and its section of
    BENCHMARKS.md (the others, and the notes beside them, as they are)."""
    from benchmarks.report import replace_section, write_report
    from benchmarks.scale_report import SCALE_TITLE, scale_section

    saved = ROOT / "benchmarks" / "results.json"
    results: dict[str, Any] = json.loads(saved.read_text()) if saved.is_file() else {}
    results["scale"] = result
    saved.write_text(json.dumps(results, indent=2, default=str))
    report = ROOT / "BENCHMARKS.md"
    if report.is_file() and SCALE_TITLE in report.read_text():
        replace_section(report, SCALE_TITLE, scale_section(result))
    else:
        write_report(results, report)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help=f"({DEFAULT_SIZES})")
    parser.add_argument("--max-minutes", type=float, default=600.0, help="budget (600)")
    parser.add_argument(
        "--home", type=Path, default=ROOT / ".cache" / "bench-scale", help="corpora go here"
    )
    parser.add_argument(
        "--note", action="append", default=[], help="a line for the report (what else ran)"
    )
    parser.add_argument(
        "--assess",
        action="store_true",
        help="load nothing: judge --sizes at the recorded run's per-paper costs",
    )
    args = parser.parse_args(argv)
    sizes = parse_sizes(args.sizes)
    if args.assess:
        recorded = json.loads((ROOT / "benchmarks" / "results.json").read_text()).get("scale", {})
        args.home.mkdir(parents=True, exist_ok=True)
        result = assess(recorded, sizes, shutil.disk_usage(args.home).free, machine_memory())
        save(result)
        json.dump(result["fit"], sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
        return 0
    command = (
        f"python -m benchmarks.bench_scale --sizes {args.sizes} --max-minutes {args.max_minutes:g}"
    )
    result = run_sizes(sizes, args.home, args.max_minutes, command, notes=args.note, save=save)
    save(result)
    json.dump(result, sys.stdout, indent=2, default=str)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
