"""Load speed: our pipeline vs the floor (bare ``UNWIND … CREATE``) vs the usual neomodel way.

The corpus is the synthetic demo corpus's OpenAlex works (papers with every authorship, the
authors' OpenAlex ids and institutions), so each run writes papers, researchers, AUTHORED,
institutions, AFFILIATED and COAUTHOR edges. The neomodel way (one ``save()``/``connect()``
per object, as its documentation shows) is timed on a sample and compared per paper. The
sample is drawn at random (seeded) from the whole corpus: the corpus is not in random order
(its first works are small, with two authors on average against four and a half overall), and
the neomodel way's cost per paper grows with the square of its authors (one lookup and one
``connect()`` per coauthor pair).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from neo4j import GraphDatabase
from neomodel import db as neomodel_db

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import write_demo_files
from scholargraph.graph.loaders.files import file_chunks, one_chunk
from scholargraph.graph.loaders.parse.files import iter_bulk_files
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.records import Batch, PaperRecord
from scholargraph.graph.schema import Identifier, Institution, Paper, Researcher
from scholargraph.graph.stats import graph_stats
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA

FLOOR_PAPERS = Query(
    "bench.floor_papers",
    "UNWIND $rows AS row CREATE (:Paper {key: row.key, title: row.title, year: row.year})",
    "write",
)
FLOOR_PEOPLE = Query(
    "bench.floor_people",
    "UNWIND $rows AS row CREATE (:Researcher {id: row.id, name: row.name})",
    "write",
)
FLOOR_INSTITUTIONS = Query(
    "bench.floor_institutions",
    "UNWIND $rows AS row CREATE (:Institution {id: row.id, name: row.name})",
    "write",
)
FLOOR_AUTHORED = Query(
    "bench.floor_authored",
    "UNWIND $rows AS row MATCH (r:Researcher {id: row.r}), (p:Paper {key: row.p}) "
    "CREATE (r)-[:AUTHORED {position: row.position}]->(p)",
    "write",
)
FLOOR_AFFILIATED = Query(
    "bench.floor_affiliated",
    "UNWIND $rows AS row MATCH (r:Researcher {id: row.r}), (i:Institution {id: row.i}) "
    "CREATE (r)-[:AFFILIATED]->(i)",
    "write",
)
FLOOR_COAUTHOR = Query(
    "bench.floor_coauthor",
    "UNWIND $rows AS row MATCH (a:Researcher {id: row.a}), (b:Researcher {id: row.b}) "
    "CREATE (a)-[:COAUTHOR {joint_papers: row.n}]->(b)",
    "write",
)
BATCH = 5000


def sample_works(papers: list[PaperRecord], size: int, seed: int = 0) -> list[PaperRecord]:
    """``size`` works drawn at random (seeded) from the whole corpus, in corpus order."""
    if size >= len(papers):
        return list(papers)
    picked = sorted(random.Random(seed).sample(range(len(papers)), size))
    return [papers[i] for i in picked]


def mean_authors(papers: list[PaperRecord]) -> float:
    return sum(len(p.authorships) for p in papers) / max(len(papers), 1)


WARM_UP_WORKS = 1000


def works_paths(folder: Path) -> list[Path]:
    return sorted((folder / "openalex").glob("works-*"))


def read_works(folder: Path) -> list[PaperRecord]:
    return [p for _, batch in iter_bulk_files(works_paths(folder)) for p in batch.papers]


async def pipeline(db: Database, folder: Path, cap: int, *, embed: bool = True) -> dict[str, Any]:
    began = time.perf_counter()
    loader = Loader(db, coauthor_cap=cap, embed=embed)
    summary = await loader.run(file_chunks(works_paths(folder)))
    seconds = time.perf_counter() - began
    return {"seconds": seconds, "papers": summary.papers.created, "stats": await graph_stats(db)}


def _floor_rows(papers: list[PaperRecord], cap: int) -> dict[str, list[dict[str, Any]]]:
    people: dict[str, int] = {}
    institutions: dict[str, int] = {}
    authored, affiliated = [], set()
    pairs: dict[tuple[int, int], int] = defaultdict(int)
    for paper in papers:
        ids = []
        for a in paper.authorships:
            key = a.author.openalex_ids[0] if a.author.openalex_ids else f"{paper.key}#{a.position}"
            rid = people.setdefault(key, len(people) + 1)
            ids.append(rid)
            authored.append({"r": rid, "p": paper.key, "position": a.position})
            for inst in a.institutions:
                ikey = inst.ror_id or inst.openalex_id
                if ikey:
                    affiliated.add((rid, institutions.setdefault(ikey, len(institutions) + 1)))
        if len(paper.authorships) <= cap:
            for a, b in combinations(sorted(set(ids)), 2):
                pairs[(a, b)] += 1
    return {
        "papers": [{"key": p.key, "title": p.title, "year": p.year} for p in papers],
        "people": [{"id": i, "name": k} for k, i in people.items()],
        "institutions": [{"id": i, "name": k} for k, i in institutions.items()],
        "authored": authored,
        "affiliated": [{"r": r, "i": i} for r, i in sorted(affiliated)],
        "coauthor": [{"a": a, "b": b, "n": n} for (a, b), n in sorted(pairs.items())],
    }


async def floor(db: Database, papers: list[PaperRecord], cap: int) -> dict[str, Any]:
    """Only CREATE, no matching: the same rows the pipeline writes, already resolved."""
    rows = _floor_rows(papers, cap)
    began = time.perf_counter()
    for query, key in (
        (FLOOR_PAPERS, "papers"),
        (FLOOR_PEOPLE, "people"),
        (FLOOR_INSTITUTIONS, "institutions"),
        (FLOOR_AUTHORED, "authored"),
        (FLOOR_AFFILIATED, "affiliated"),
        (FLOOR_COAUTHOR, "coauthor"),
    ):
        data = rows[key]
        for start in range(0, len(data), BATCH):
            await db.run(query, {"rows": data[start : start + BATCH]})
    return {"seconds": time.perf_counter() - began, "papers": len(papers)}


def neomodel_way(settings: Settings, papers: list[PaperRecord], cap: int) -> dict[str, Any]:
    """One object at a time, as the neomodel documentation writes: get_or_create by key,
    save(), connect() — for papers, authors, institutions, authorships and coauthors."""
    driver = GraphDatabase.driver(settings.uri, auth=settings.auth)
    neomodel_db.set_connection(driver=driver)
    next_id = [5_000_000]
    began = time.perf_counter()
    try:
        for record in papers:
            paper = Paper(
                key=record.key, arxiv_id=record.arxiv_id, title=record.title, year=record.year
            ).save()
            people = []
            for a in record.authorships:
                key = f"openalex:{a.author.openalex_ids[0]}" if a.author.openalex_ids else None
                ident = Identifier.nodes.get_or_none(key=key) if key else None
                person = ident.researcher.single() if ident is not None else None
                if person is None:
                    next_id[0] += 1
                    person = Researcher(public_id=next_id[0], slug="x", name=a.raw_name).save()
                    if key is not None:
                        ident = Identifier(key=key, scheme="openalex", value=key[9:]).save()
                        ident.researcher.connect(
                            person, {"method": "openalex_id", "origin": "openalex"}
                        )
                person.papers.connect(
                    paper,
                    {
                        "position": a.position,
                        "kind": "middle",
                        "raw_name": a.raw_name,
                        "origin": "openalex",
                        "method": "openalex_id",
                    },
                )
                for inst in a.institutions:
                    if not inst.ror_id:
                        continue
                    place = Institution.nodes.get_or_none(ror_id=inst.ror_id)
                    if place is None:
                        next_id[0] += 1
                        place = Institution(
                            public_id=next_id[0],
                            slug="x",
                            name=inst.name or "?",
                            ror_id=inst.ror_id,
                        ).save()
                    person.institutions.connect(place, {"origin": "openalex"})
                people.append(person)
            if len(people) <= cap:
                for x, y in combinations(people, 2):
                    rel = x.coauthors.relationship(y)
                    if rel is None:
                        x.coauthors.connect(y, {"joint_papers": 1})
                    else:
                        rel.joint_papers += 1
                        rel.save()
    finally:
        neomodel_db.close_connection()
        driver.close()
    return {"seconds": time.perf_counter() - began, "papers": len(papers)}


Fresh = Callable[[], Awaitable[None]]


async def run(
    settings: Settings,
    sizes: list[int],
    cache: Path,
    sample: int,
    fresh: Fresh | None,
    repeats: Sequence[int],
) -> list[dict[str, Any]]:
    """Each measurement starts on an empty store: ``fresh`` gives one (say, a restarted
    server on a new data directory); without it the graph of the run before is cleared,
    which leaves its store behind, to the disadvantage of whichever runs later. Each side is
    warmed up first on the same kind of work over 1,000 works (50 for neomodel).

    Ours runs twice: as loads run (papers embedded, researchers' topics computed) and without
    the embedding, the same write otherwise, so the embedding's share is measured apart.

    With ``repeats`` (a count per size) the sides run in turn that many times
    (floor, neomodel, ours without embedding, ours; floor, …), so a slow spell of the machine
    falls on all of them, and each side's figure is its median run."""

    async def measured(
        job: Callable[[Database], Awaitable[dict[str, Any]]],
        warm_up: Callable[[Database], Awaitable[object]],
    ) -> dict[str, Any]:
        if fresh is not None:
            await fresh()
        async with Database.connect(settings, max_connection_pool_size=4) as db:
            # The same kind of work on a few works first, so that every side is measured on
            # a warm server (query plans cached, the JVM's hot paths compiled).
            await warm_up(db)
            await db.run(CLEAR_DATA)
            return await job(db)

    cap = settings.coauthor_cap
    results = []
    for size, times in zip(sizes, repeats, strict=True):
        folder = write_demo_files(cache, papers=size, seed=1)
        papers = read_works(folder)
        few = sample_works(papers, WARM_UP_WORKS, seed=1)
        picked = sample_works(papers, sample)
        runs: dict[str, list[dict[str, Any]]] = {
            "floor": [],
            "neomodel": [],
            "ours_no_embed": [],
            "ours": [],
        }
        for _ in range(times):
            runs["floor"].append(
                await measured(
                    lambda db, works=papers: floor(db, works, cap),
                    lambda db, works=few: floor(db, works, cap),
                )
            )
            runs["neomodel"].append(
                await measured(
                    lambda db, works=picked: asyncio.to_thread(neomodel_way, settings, works, cap),
                    lambda db, works=few[:50]: asyncio.to_thread(
                        neomodel_way, settings, works, cap
                    ),
                )
            )
            runs["ours_no_embed"].append(
                await measured(
                    lambda db, where=folder: pipeline(db, where, cap, embed=False),
                    lambda db, works=few: Loader(db, coauthor_cap=cap, embed=False).run(
                        one_chunk(Batch(papers=list(works)), "warm-up")
                    ),
                )
            )
            # Ours last, so the largest graph stays loaded for the API benchmark.
            runs["ours"].append(
                await measured(
                    lambda db, where=folder: pipeline(db, where, cap),
                    lambda db, works=few: Loader(db, coauthor_cap=cap).run(
                        one_chunk(Batch(papers=list(works)), "warm-up")
                    ),
                )
            )
        bare, neo, plain, ours = (
            _median_run(runs[side]) for side in ("floor", "neomodel", "ours_no_embed", "ours")
        )
        neo["mean_authors"] = mean_authors(picked)
        per_paper = {
            "ours": ours["seconds"] / len(papers),
            "ours_no_embed": plain["seconds"] / len(papers),
            "floor": bare["seconds"] / len(papers),
            "neomodel": neo["seconds"] / neo["papers"],
        }
        results.append(
            {
                "corpus_papers": size,
                "works": len(papers),
                "mean_authors": mean_authors(papers),
                "ours": ours,
                "ours_no_embed": plain,
                "floor": bare,
                "neomodel": neo,
                "per_paper": per_paper,
                "speedup_vs_neomodel": per_paper["neomodel"] / per_paper["ours"],
                "ratio_vs_floor": per_paper["ours"] / per_paper["floor"],
                "ratio_vs_floor_no_embed": per_paper["ours_no_embed"] / per_paper["floor"],
                "embedding_cost": per_paper["ours"] / per_paper["ours_no_embed"],
            }
        )
    return results


async def ours_alone(settings: Settings, size: int, cache: Path) -> dict[str, Any]:
    """Our pipeline once over the corpus's works, warmed up like the timed runs, leaving the
    graph loaded (the API and site benchmarks' store, without the other sides)."""
    folder = write_demo_files(cache, papers=size, seed=1)
    papers = read_works(folder)
    few = sample_works(papers, WARM_UP_WORKS, seed=1)
    cap = settings.coauthor_cap
    async with Database.connect(settings, max_connection_pool_size=4) as db:
        await Loader(db, coauthor_cap=cap).run(one_chunk(Batch(papers=list(few)), "warm-up"))
        await db.run(CLEAR_DATA)
        done = await pipeline(db, folder, cap)
    return {"corpus_papers": size, "works": len(papers), **done}


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run of median time, with every run's seconds (in the order they ran)."""
    middle = dict(sorted(runs, key=lambda run: float(run["seconds"]))[len(runs) // 2])
    middle["runs"] = [run["seconds"] for run in runs]
    return middle
