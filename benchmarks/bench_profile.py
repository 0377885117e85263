"""Where a four-source load's time goes: the demo corpus loaded source by source (ROR,
OpenAlex, S2, arXiv, each a ``Loader`` run with its pass after the load) into a fresh local
Neo4j, with each source's wall time, the time its statements took (by statement name, summed
over every run of it, as the driver saw them: sent, run, answered; the transactions' commits
as ``db.commit``) and the rest (Python: parsing, planning, identity decisions, the embedding
model). Each source computes its researchers' topics at its end (``Loader`` without a shared
``TopicsDue``), so ``--no-embed`` leaves that out with the vectors.

    python -m benchmarks.bench_profile --papers 10000 [--no-embed] [--top 20]
    python -m benchmarks.bench_profile --papers 30000 --no-embed --cprofile A --only-profile arxiv

``--cprofile FILE`` writes Python's profile (``pstats``) of the loads to FILE: of one source's
load with ``--only-profile SOURCE`` (the others still load, unprofiled). The profiler slows
the Python it watches, so a profiled run's times are not the benchmark's.
    SCHOLARGRAPH_BENCH_NEO4J_URI=bolt://… python -m benchmarks.bench_profile
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import resource
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.bench_scale import kib_field
from benchmarks.run import throwaway_store
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import LOAD_ORDER, source_paths, write_demo_files
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.schema.install import install_schema

CORPORA = Path(".scholargraph/bench/profile")


def resident_bytes() -> int:
    """This process's resident memory now (``VmRSS``)."""
    return kib_field("/proc/self/status", "VmRSS") or 0


class MemoryWatch:
    """The highest resident memory of this process while a block runs, sampled every
    ``interval`` seconds in a thread (the kernel's high-water mark is the whole process's)."""

    def __init__(self, interval: float = 0.25) -> None:
        self.interval = interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, resident_bytes())
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> MemoryWatch:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, resident_bytes())


@dataclass
class SourceProfile:
    source: str
    seconds: float = 0.0
    rss_peak: int = 0  # the loader's resident memory: highest while this source loaded
    rss_after: int = 0  # and when its load (the pass after it too) was done
    statements: dict[str, list[float]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))

    def hear(self, names: tuple[str, ...], seconds: float, failed: bool) -> None:
        entry = self.statements[" + ".join(names)]
        entry[0] += seconds
        entry[1] += 1

    @property
    def statement_seconds(self) -> float:
        return sum(seconds for seconds, _ in self.statements.values())

    def as_dict(self, top: int) -> dict[str, Any]:
        ranked = sorted(self.statements.items(), key=lambda kv: -kv[1][0])
        return {
            "source": self.source,
            "seconds": round(self.seconds, 2),
            "rss_peak_bytes": self.rss_peak,
            "rss_after_bytes": self.rss_after,
            "statement_seconds": round(self.statement_seconds, 2),
            "other_seconds": round(self.seconds - self.statement_seconds, 2),
            "statements_run": sum(int(count) for _, count in self.statements.values()),
            "top": [
                {"name": name, "seconds": round(seconds, 2), "runs": int(count)}
                for name, (seconds, count) in ranked[:top]
            ],
        }


async def profile(
    papers: int,
    *,
    embed: bool,
    top: int,
    python: cProfile.Profile | None = None,
    only: str | None = None,
) -> dict[str, Any]:
    folder = write_demo_files(CORPORA, papers=papers, seed=1)
    profiles: list[SourceProfile] = []
    with throwaway_store("profile") as (settings, _):
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
            for source in LOAD_ORDER:
                one = SourceProfile(source)
                db.observer = one.hear
                watched = python if only in (None, source) else None
                began = time.perf_counter()
                if watched is not None:
                    watched.enable()
                with MemoryWatch() as memory:
                    await Loader(db, embed=embed).run(file_chunks(source_paths(folder, source)))
                if watched is not None:
                    watched.disable()
                one.seconds = time.perf_counter() - began
                one.rss_peak, one.rss_after = memory.peak, resident_bytes()
                db.observer = None
                profiles.append(one)
    total = sum(p.seconds for p in profiles)
    return {
        "papers": papers,
        "embed": embed,
        "seconds": round(total, 1),
        "papers_per_second": round(papers / total, 1),
        # the loader's own high-water mark (this process: every source, and the corpus made)
        "loader_peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "sources": [p.as_dict(top) for p in profiles],
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        "| source | wall (s) | statements (s) | statements run | rest (s) "
        "| loader memory, peak / after (MiB) | largest statements (s, runs) |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in result["sources"]:
        largest = "; ".join(f"`{t['name']}` {t['seconds']} ({t['runs']})" for t in s["top"][:5])
        lines.append(
            f"| {s['source']} | {s['seconds']} | {s['statement_seconds']} | "
            f"{s['statements_run']:,} | {s['other_seconds']} | {_mib(s['rss_peak_bytes'])} / "
            f"{_mib(s['rss_after_bytes'])} | {largest} |"
        )
    return "\n".join(lines)


def _mib(count: int) -> str:
    return f"{count / 2**20:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--no-embed", action="store_true")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--cprofile", type=Path, help="write Python's profile here")
    parser.add_argument("--only-profile", choices=LOAD_ORDER, help="profile this source only")
    args = parser.parse_args()
    python = cProfile.Profile() if args.cprofile else None
    result = asyncio.run(
        profile(
            args.papers,
            embed=not args.no_embed,
            top=args.top,
            python=python,
            only=args.only_profile,
        )
    )
    if python is not None:
        python.dump_stats(args.cprofile)
    print(json.dumps(result, indent=2))
    print(table(result))


if __name__ == "__main__":
    main()
