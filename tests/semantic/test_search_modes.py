"""Search by meaning on a loaded demo corpus: hybrid beats keyword on the judged queries,
filters apply inside the query, pages join up, and the neighbours of a paper or a researcher
are near and not themselves (nor, when asked, their coauthors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.same_name import same_name
from scholargraph.graph.repo.search import search
from scholargraph.graph.repo.semantic import PaperFilter, related_papers, similar_researchers
from scholargraph.graph.semantic.relevance import judge, read_set
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA
from tests.conftest import watching

DEMO_SET = Path(__file__).resolve().parents[2] / "benchmarks" / "relevance" / "demo.json"
PAPER_FACTS = Query(
    "test.semantic_paper_facts",
    "MATCH (p:Paper {key: $key}) "
    "RETURN p.year AS year, [(p)-[:IN_CATEGORY]->(c) | c.code] AS categories",
)
BUSY = Query(
    "test.semantic_busy_researcher",
    "MATCH (r:Researcher) WHERE r.topic IS NOT NULL AND COUNT { (r)-[:COAUTHOR]-() } > 2 "
    "RETURN r.id AS id ORDER BY r.paper_count DESC, r.id LIMIT 1",
)
NAMESAKES = Query(
    "test.semantic_namesakes",
    "MATCH (r:Researcher), (o:Researcher {name_key: r.name_key}) "
    "WHERE r.topic IS NOT NULL AND o.topic IS NOT NULL AND o <> r "
    "AND r.merged_into IS NULL AND o.merged_into IS NULL "
    "RETURN collect(DISTINCT r.id)[..20] AS rows",
)
COAUTHORS = Query(
    "test.semantic_coauthors",
    "MATCH (:Researcher {id: $id})-[:COAUTHOR]-(o) RETURN collect(o.id) AS rows",
)


@pytest.fixture
async def demo(db: Database, tmp_path: Path) -> Database:
    await db.run(CLEAR_DATA)
    await load_demo(db, write_demo_files(tmp_path, papers=400, seed=21))
    return db


def _words(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4}


def test_the_judged_queries_share_no_word_with_the_topics_they_should_find() -> None:
    for judged in read_set(DEMO_SET):
        topic_words = set().union(*(_words(t) for t in judged.topics))
        assert not _words(judged.query) & topic_words, judged.query


async def test_on_the_judged_queries_hybrid_and_semantic_beat_keyword(demo: Database) -> None:
    results = await judge(demo, read_set(DEMO_SET))
    assert results["keyword"].queries >= 20
    assert results["semantic"].ndcg > results["keyword"].ndcg
    assert results["hybrid"].ndcg > results["keyword"].ndcg
    assert results["hybrid"].recall > results["keyword"].recall


async def test_filters_apply_to_every_paper_found_and_pages_join_up(demo: Database) -> None:
    everything = await search(demo, "dark matter", PageRequest(50), ["paper"], mode="semantic")
    facts = [(await demo.run(PAPER_FACTS, {"key": e.node.entity.key}))[0] for e in everything.edges]
    category = facts[0]["categories"][0]
    years = sorted(f["year"] for f in facts if f["year"] is not None)
    middle = years[len(years) // 2]
    for mode in ("keyword", "semantic", "hybrid"):
        narrowed = PaperFilter(category=category, year_from=middle, year_to=middle + 3)
        page = await search(
            demo, "dark matter", PageRequest(50), ["paper"], mode=mode, papers=narrowed
        )
        for edge in page.edges:
            row = (await demo.run(PAPER_FACTS, {"key": edge.node.entity.key}))[0]
            assert category in row["categories"]
            assert middle <= row["year"] <= middle + 3
    semantic = await search(
        demo,
        "dark matter",
        PageRequest(50),
        ["paper"],
        mode="semantic",
        papers=PaperFilter(category=category),
    )
    assert semantic.edges  # the nearest in the category, not only the category's share of 50
    await _pages_join_up(demo)


async def _pages_join_up(demo: Database) -> None:
    for mode in ("hybrid", "semantic"):
        text = "neural networks for images"
        whole = await search(demo, text, PageRequest(30), mode=mode)
        assert whole.total is not None and whole.total > 30
        keys: list[tuple[str, float]] = []
        after = None
        while len(keys) < 30:
            page = await search(demo, text, PageRequest(7, after), mode=mode)
            assert page.total == whole.total
            keys += [(e.node.kind, e.node.score) for e in page.edges]
            after = page.edges[-1].cursor
        assert keys[:30] == [(e.node.kind, e.node.score) for e in whole.edges]
        kinds = {e.node.kind for e in whole.edges}
        assert "paper" in kinds and "researcher" in kinds
    scores = [e.node.score for e in whole.edges]
    assert scores == sorted(scores, reverse=True)


async def test_a_page_by_meaning_is_one_statement_over_the_indexes_of_the_kinds_asked(
    demo: Database,
) -> None:
    seen: list[str] = []
    recording = demo.on_query  # the session's record of the queries run stays on
    demo.on_query = watching(recording, lambda query: seen.append(query.text))
    try:
        papers = await search(demo, "dark matter", PageRequest(5), ["paper"], mode="semantic")
        people = await search(demo, "dark matter", PageRequest(5), ["researcher"], mode="semantic")
        both = await search(demo, "dark matter", PageRequest(5), mode="semantic")
        none = await search(demo, "dark matter", PageRequest(5), ["institution"], mode="semantic")
    finally:
        demo.on_query = recording
    assert len(seen) == 3
    assert "paper_embedding" in seen[0] and "researcher_topic" not in seen[0]
    assert "paper_embedding" not in seen[1] and "researcher_topic" in seen[1]
    assert "paper_embedding" in seen[2] and "researcher_topic" in seen[2]
    assert {e.node.kind for e in papers.edges} == {"paper"}
    assert {e.node.kind for e in people.edges} == {"researcher"}
    assert len(both.edges) == 5 and not none.edges and none.total == 0
    best = sorted([*papers.edges, *people.edges], key=lambda e: -e.node.score)[:5]
    assert [e.node.score for e in both.edges] == [e.node.score for e in best]


async def test_neighbours_are_near_and_not_themselves_nor_coauthors(demo: Database) -> None:
    hits = await search(demo, "quantum error correction", PageRequest(1), ["paper"])
    paper = hits.edges[0].node.entity
    related = await related_papers(demo, paper.key, 8)
    assert len(related) == 8
    assert paper.key not in {p.key for _, p in related}
    scores = [s for s, _ in related]
    assert scores == sorted(scores, reverse=True) and all(-1 <= s <= 1 for s in scores)
    await _similar_researchers(demo)


async def _similar_researchers(demo: Database) -> None:
    rid = (await demo.run(BUSY))[0]["id"]
    coauthors = set((await demo.run(COAUTHORS, {"id": rid}))[0]["rows"])
    near = await similar_researchers(demo, rid, 10)
    apart = await similar_researchers(demo, rid, 10, exclude_coauthors=True)
    assert near and apart
    assert rid not in {r.id for _, r in near}
    assert not coauthors & {r.id for _, r in apart}
    assert all(r.merged_into is None for _, r in apart)
    ids = (await demo.run(NAMESAKES))[0]["rows"]
    clusters = await same_name(demo, ids, 20)
    evidence = [e for c in clusters.values() for r in c.records for e in r.score.evidence]
    topics = [e for e in evidence if e.feature == "topic"]
    assert topics and all("topics alike" in e.text and -2 <= e.weight <= 2 for e in topics)


async def test_an_overlong_search_is_refused_in_every_mode(db: Database) -> None:
    for mode in ("keyword", "semantic", "hybrid"):
        with pytest.raises(BadInput):
            await search(db, "x " * 501, PageRequest(5), mode=mode)
