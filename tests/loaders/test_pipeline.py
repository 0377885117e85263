"""Loads end to end: demo corpus through the file loaders, reports, checkpoint and resume."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.records import Batch, Rejection
from scholargraph.graph.stats import graph_stats
from scholargraph.queries.admin import CLEAR_DATA
from tests.loaders.records_factory import paper


async def _chunks(batches: list[Batch]) -> AsyncIterator[tuple[str, Batch]]:
    for i, batch in enumerate(batches):
        yield f"chunk-{i}", batch


def _batches() -> list[Batch]:
    return [
        Batch(
            papers=[
                paper(f"2101.{i:05d}", [f"Author{i} Person", "Shared Coauthor"])
                for i in range(start, start + 3)
            ],
            rejected=[Rejection("arxiv", f"bad-{start}", "missing title")],
        )
        for start in (0, 3, 6)
    ]


async def test_rejections_are_reported_and_the_load_goes_on(db: Database, tmp_path: Path) -> None:
    report = tmp_path / "rejected.jsonl"
    summary = await Loader(db, report=report).run(_chunks(_batches()))
    assert summary.papers.created == 9
    assert summary.rejected == 3
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert [line["reason"] for line in lines] == ["missing title"] * 3
    assert {line["ref"] for line in lines} == {"bad-0", "bad-3", "bad-6"}


class Interrupted(Exception):
    pass


async def test_an_interrupted_load_resumes_to_the_same_graph(db: Database, tmp_path: Path) -> None:
    await Loader(db).run(_chunks(_batches()))
    expected = await graph_stats(db)
    await db.run(CLEAR_DATA)

    checkpoint = tmp_path / "load.checkpoint.json"

    def crash_after_first(records: int, summary: object) -> None:
        raise Interrupted

    with pytest.raises(Interrupted):
        await Loader(db, checkpoint=checkpoint, progress=crash_after_first).run(_chunks(_batches()))
    assert json.loads(checkpoint.read_text())["done"] == ["chunk-0"]
    partial = await graph_stats(db)
    assert partial["nodes"]["Paper"] == 3

    resumed = await Loader(db, checkpoint=checkpoint).run(_chunks(_batches()))
    assert resumed.resumed_from == 1
    assert resumed.papers.created == 6
    assert await graph_stats(db) == expected
    assert not checkpoint.exists()


async def test_the_demo_corpus_loads_through_the_file_loaders(db: Database, tmp_path: Path) -> None:
    folder = write_demo_files(tmp_path, papers=300, seed=11)
    summaries = await load_demo(db, folder)
    assert set(summaries) == {"ror", "openalex", "s2", "arxiv"}
    stats = await graph_stats(db)
    truth = json.loads((folder / "truth.json").read_text())
    people = truth["people"] if isinstance(truth, dict) and "people" in truth else truth
    assert stats["nodes"]["Paper"] == 300
    # Identity resolution neither explodes people into many records nor collapses them.
    assert 0.9 * len(people) <= stats["nodes"]["Researcher"] <= 1.15 * len(people)
    again = await load_demo(db, folder)
    assert all(s.papers.created == 0 and s.papers.updated == 0 for s in again.values())
    assert await graph_stats(db) == stats


async def test_bulk_files_are_grouped_into_chunks_with_stable_names(tmp_path: Path) -> None:
    folder = write_demo_files(tmp_path, papers=120, seed=3)
    paths = sorted((folder / "s2").glob("*"))
    first = [name async for name, _ in file_chunks(paths, chunk_size=50)]
    second = [name async for name, _ in file_chunks(paths, chunk_size=50)]
    assert first == second
    assert len(first) == len(set(first)) >= 2
