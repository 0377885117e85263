"""One paper with thousands of authors (a detector collaboration), through the writer.

Three writes of one paper of ``BENCH_HYPERAUTHORS`` authors (default 5,000; names drawn from
the demo corpus's name pools, so common surnames repeat as they do in such author lists):
arXiv's name-only record (every author a new researcher), then OpenAlex's record of the same
paper with an author id on every slot (each aligned with arXiv's slot), then OpenAlex's record
again with one author renamed (a changed record: everything read and planned again). Each
write runs on a fresh store (the schema installed) ``BENCH_REPEATS`` times; the median counts.

    python -m benchmarks.bench_hyperauthor        # a throw-away local Neo4j
    SCHOLARGRAPH_BENCH_NEO4J_URI=bolt://… python -m benchmarks.bench_hyperauthor
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import time
from datetime import date

from benchmarks.run import throwaway_store
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.demo.name_pools import ORIGINS
from scholargraph.graph.identity import name_forms
from scholargraph.graph.identity import names as name_parsing
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import AuthorRecord, Authorship, PaperRecord, Source
from scholargraph.graph.schema.install import install_schema
from scholargraph.queries.admin import CLEAR_DATA

KEY = "1207.07214"


def author_names(count: int) -> list[str]:
    """Deterministic names, origin by origin, with a middle initial; the pools' common
    surnames repeat, and a few names are printed twice, as in such author lists."""
    names: list[str] = []
    for i in range(count):
        origin, j = ORIGINS[i % len(ORIGINS)], i // len(ORIGINS)
        given = origin.given[(j * 17) % len(origin.given)]
        surname = origin.surnames[(j * 29 + j // len(origin.given)) % len(origin.surnames)]
        names.append(f"{given} {chr(65 + (j * 7) % 26)}. {surname}")
    return names


def record(source: Source, names: list[str], *, with_ids: bool) -> PaperRecord:
    authorships = tuple(
        Authorship(
            position=i,
            raw_name=name,
            author=AuthorRecord(
                name=name, source=source, openalex_ids=(f"A{5_000_000 + i}",) if with_ids else ()
            ),
        )
        for i, name in enumerate(names, start=1)
    )
    return PaperRecord(
        source=source,
        title="Observation of a new particle in the search for the Standard Model Higgs boson",
        arxiv_id=KEY,
        published=date(2012, 7, 31),
        year=2012,
        primary_category="hep-ex",
        categories=("hep-ex",),
        authorships=authorships,
        retrieved=date(2026, 1, 1),
    )


def forget_names() -> None:
    """Empty the name parsers' caches: each run's first record is the first sight of its
    names, as a new paper's are (the later records of the run print the same names)."""
    for module in (name_parsing, name_forms):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


async def one_run(db: Database, count: int) -> dict[str, float]:
    names = author_names(count)
    renamed = [*names[:-1], names[-1] + "-Smith"]
    steps = [
        ("arxiv_new", record("arxiv", names, with_ids=False)),
        ("openalex_aligned", record("openalex", names, with_ids=True)),
        ("openalex_changed", record("openalex", renamed, with_ids=True)),
    ]
    await db.run(CLEAR_DATA)
    forget_names()
    writer = GraphWriter(db)
    seconds: dict[str, float] = {}
    for step, paper in steps:
        began = time.perf_counter()
        await writer.write_papers([paper])
        seconds[step] = round(time.perf_counter() - began, 3)
    return seconds


async def run(settings: Settings, count: int, repeats: int) -> dict[str, object]:
    async with Database.connect(settings) as db:
        await install_schema(settings, db)
        await one_run(db, min(count, 200))  # warm-up: the server's query plans
        runs = [await one_run(db, count) for _ in range(repeats)]
        await db.run(CLEAR_DATA)
    median = {step: statistics.median(r[step] for r in runs) for step in runs[0]}
    return {"authors": count, "median_seconds": median, "runs": runs}


async def main() -> int:
    count = int(os.environ.get("BENCH_HYPERAUTHORS", "5000"))
    repeats = int(os.environ.get("BENCH_REPEATS", "3"))
    with throwaway_store("hyper") as (settings, _):
        print(json.dumps(await run(settings, count, repeats), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
