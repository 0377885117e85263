"""The judged known-item queries over the recorded arXiv 0704 abstracts: meaning finds what
the words of a paraphrase cannot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.semantic.relevance import judge, read_set
from scholargraph.queries.admin import CLEAR_DATA

pytestmark = pytest.mark.shared

ARXIV_SET = Path(__file__).resolve().parents[2] / "benchmarks" / "relevance" / "arxiv-0704.json"


async def test_hybrid_finds_the_paraphrased_papers_keyword_misses(
    db: Database, shared_data: Path
) -> None:
    block = shared_data / "arxiv" / "arxiv-browse" / "abs_files" / "ftp" / "arxiv" / "papers"
    paths = [block / "0704" / f"0704.{n:04d}.abs" for n in range(1, 1001)]
    for judged in read_set(ARXIV_SET):
        title = re.search(
            r"^Title:(.*?)^Authors:",
            (block / "0704" / f"{judged.papers[0]}.abs").read_text(),
            re.S | re.M,
        )
        assert title is not None
        title_words = {w for w in re.findall(r"[a-z]+", title.group(1).lower()) if len(w) >= 4}
        query_words = {w for w in re.findall(r"[a-z]+", judged.query.lower()) if len(w) >= 4}
        assert not title_words & query_words, judged.query
    await db.run(CLEAR_DATA)
    await Loader(db).run(file_chunks(paths))
    results = await judge(db, read_set(ARXIV_SET))
    assert results["keyword"].queries == 14
    assert results["hybrid"].ndcg > results["keyword"].ndcg
    assert results["semantic"].recall >= 0.5
