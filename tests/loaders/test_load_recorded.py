"""Loads of the real recorded source data (../shared/data) through the real loaders."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.parse import parse_openalex_payload, parse_s2_payload
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.records import Batch
from scholargraph.graph.stats import graph_stats
from scholargraph.queries import Query

pytestmark = pytest.mark.shared

PAPERS_WITHOUT_AUTHORS_OR_CATEGORIES = Query(
    "test.incomplete_papers",
    "MATCH (p:Paper) WHERE NOT (p)<-[:AUTHORED]-() OR NOT (p)-[:IN_CATEGORY]->() "
    "RETURN p.key AS key",
)
RESEARCHERS_NAMED = Query(
    "test.researchers_named",
    "MATCH (r:Researcher {name: $name}) RETURN r.id AS id, r.s2_ids AS s2, "
    "r.openalex_ids AS openalex",
)


async def test_the_0704_block_loads_as_1000_papers_and_twice_changes_nothing(
    db: Database, shared_data: Path, tmp_path: Path
) -> None:
    block = shared_data / "arxiv" / "arxiv-browse" / "abs_files" / "ftp" / "arxiv" / "papers"
    paths = [block / "0704" / f"0704.{n:04d}.abs" for n in range(1, 1001)]
    first = await Loader(db, report=tmp_path / "r.jsonl").run(file_chunks(paths))
    stats = await graph_stats(db)
    assert stats["nodes"]["Paper"] == 1000
    assert first.papers.created == 1000
    assert await db.run(PAPERS_WITHOUT_AUTHORS_OR_CATEGORIES) == []
    second = await Loader(db).run(file_chunks(paths))
    assert second.papers.unchanged == 1000
    assert await graph_stats(db) == stats


async def test_yann_lecun_from_s2_and_openalex_is_one_researcher(
    db: Database, shared_data: Path
) -> None:
    openalex_page = (
        shared_data
        / "openalex"
        / "mearman-academic-explorer-cache"
        / "works"
        / "queries"
        / "page__3D__1__26__per_page__3D__50.json"
    )
    s2_papers = shared_data / "semanticscholar" / "danielnsilva-semanticscholar" / "Paper.json"

    async def chunks() -> AsyncIterator[tuple[str, Batch]]:
        yield "openalex", parse_openalex_payload(json.loads(openalex_page.read_text())).batch
        yield "s2", parse_s2_payload(json.loads(s2_papers.read_text())).batch

    await Loader(db).run(chunks())
    lecun = await db.run(RESEARCHERS_NAMED, {"name": "Yann LeCun"})
    assert len(lecun) == 1
    assert "1688882" in lecun[0]["s2"]
    assert "A5001226970" in lecun[0]["openalex"]


async def test_ror_records_load_with_parents(db: Database, shared_data: Path) -> None:
    part = shared_data / "ror" / "ror-records-v2-latest" / "ror-v2-records-01.jsonl"
    summary = await Loader(db).run(file_chunks([part], format="ror"))
    stats = await graph_stats(db)
    assert stats["nodes"]["Institution"] == summary.institutions == 3087
    assert stats["relationships"].get("PART_OF", 0) > 0
