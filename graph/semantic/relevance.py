"""Judged queries run through search in each mode, scored by nDCG@10 and recall@10.

A judged query names its relevant papers by key, or by topics (a paper is relevant when its
title holds one), which the store resolves at run time: the demo corpus's set holds for any
size of corpus.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scholargraph.graph.db import Database
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.search import SearchMode, search
from scholargraph.graph.semantic.evaluate import Quality, quality
from scholargraph.queries import semantic as q

MODES: tuple[SearchMode, ...] = ("keyword", "semantic", "hybrid")


@dataclass(frozen=True, slots=True)
class Judged:
    query: str
    papers: tuple[str, ...] = ()
    topics: tuple[str, ...] = field(default=())


def read_set(path: Path) -> list[Judged]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        Judged(item["query"], tuple(item.get("papers", ())), tuple(item.get("topics", ())))
        for item in data["queries"]
    ]


async def relevant(db: Database, judged: Judged) -> set[str]:
    keys = set(judged.papers)
    if judged.topics:
        found = await db.run(q.PAPERS_ON_TOPICS, {"topics": list(judged.topics)})
        keys.update(str(key) for key in found[0]["rows"])
    return keys


async def ranking(db: Database, text: str, mode: SearchMode, k: int = 10) -> list[str]:
    page = await search(db, text, PageRequest(k), ["paper"], mode=mode)
    return [str(getattr(edge.node.entity, "key", "")) for edge in page.edges]


async def judge(db: Database, judged: Sequence[Judged], k: int = 10) -> dict[str, Quality]:
    """Each mode's quality over the judged queries (those with at least one relevant paper
    in the store)."""
    wanted = [(j, await relevant(db, j)) for j in judged]
    wanted = [(j, rel) for j, rel in wanted if rel]
    results: dict[str, Quality] = {}
    for mode in MODES:
        runs = [(await ranking(db, j.query, mode, k), rel) for j, rel in wanted]
        results[mode] = quality(runs, k)
    return results
