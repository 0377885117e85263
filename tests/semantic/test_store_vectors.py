"""Vectors in the store: every titled paper embedded in the load's own transaction, of the
merged fields (so load order does not matter), nothing embedded twice, researchers' topics
the mean of their papers', and ``db embed`` finding what is missing or outdated."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.search import search
from scholargraph.graph.semantic import model
from scholargraph.graph.semantic.store import (
    TopicsDue,
    embed_papers,
    embed_store,
    rebuild_vector_indexes,
)
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA
from scholargraph.queries.semantic import VECTOR_COVERAGE

PAPER_VECTORS = Query(
    "test.semantic_paper_vectors",
    """
    MATCH (p:Paper)
    RETURN collect({key: p.key, title: p.title, abstract: p.abstract, vector: p.embedding,
                    model: p.embedding_model, digest: p.embedding_digest}) AS rows
    """,
)
TOPICS = Query(
    "test.semantic_topics",
    """
    MATCH (r:Researcher) WHERE r.merged_into IS NULL
    RETURN collect({id: r.id, topic: r.topic,
                    papers: [(r)-[:AUTHORED]->(p:Paper) WHERE p.embedding IS NOT NULL
                             | p.embedding]}) AS rows
    """,
)
DROP_SOME = Query(
    "test.semantic_drop_some",
    """
    MATCH (p:Paper) WITH p ORDER BY p.key LIMIT 7
    REMOVE p.embedding, p.embedding_digest
    WITH count(*) AS n
    MATCH (r:Researcher) WITH r ORDER BY r.id LIMIT 5 REMOVE r.topic
    """,
    "write",
)
VECTOR_INDEXES = Query(
    "test.semantic_vector_indexes",
    """
    SHOW VECTOR INDEXES YIELD name, state, labelsOrTypes, properties, options
    RETURN collect({name: name, state: state, on: labelsOrTypes + properties,
                    dimensions: options.indexConfig.`vector.dimensions`,
                    similarity: options.indexConfig.`vector.similarity_function`}) AS rows
    """,
)
OLD_MODEL = Query(
    "test.semantic_old_model",
    "MATCH (p:Paper) WITH p ORDER BY p.key SKIP 10 LIMIT 3 SET p.embedding_digest = 'old'",
    "write",
)


async def _load(db: Database, folder: Path, order: tuple[str, ...]) -> dict[str, int]:
    embedded = {}
    for source in order:
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        summary = await Loader(db, papers_per_transaction=40).run(file_chunks(paths))
        embedded[source] = summary.papers.embedded
    return embedded


async def test_every_titled_paper_gets_the_vector_of_its_merged_text(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=80, seed=5)
    await db.run(CLEAR_DATA)
    await _load(db, folder, ("ror", "arxiv", "s2", "openalex"))
    rows = await db.run_rows(PAPER_VECTORS)
    assert rows
    for row in rows:
        text = model.paper_text(row["title"], row["abstract"])
        assert row["digest"] == model.digest(text)
        assert row["model"] == model.MODEL
        assert len(row["vector"]) == model.DIMENSIONS
        expected = model.embed([text])[0]
        assert np.allclose(row["vector"], expected, atol=1e-5)


async def test_load_order_gives_the_same_vectors_and_a_second_load_embeds_nothing(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=60, seed=8)
    await db.run(CLEAR_DATA)
    await _load(db, folder, ("ror", "openalex", "s2", "arxiv"))
    first = {r["key"]: r["vector"] for r in await db.run_rows(PAPER_VECTORS)}
    again = await _load(db, folder, ("ror", "openalex", "s2", "arxiv"))
    assert sum(again.values()) == 0
    await db.run(CLEAR_DATA)
    await _load(db, folder, ("ror", "arxiv", "s2", "openalex"))
    second = {r["key"]: r["vector"] for r in await db.run_rows(PAPER_VECTORS)}
    assert first.keys() == second.keys()
    assert all(np.allclose(first[k], second[k], atol=1e-6) for k in first)


async def test_topics_are_the_mean_direction_of_a_researchers_papers(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=60, seed=9)
    await db.run(CLEAR_DATA)
    summaries = await load_demo(db, folder)
    # once, after the last source
    assert [s.topics_refreshed > 0 for s in summaries.values()] == [False, False, False, True]
    assert_topics_are_means(await db.run_rows(TOPICS))


def assert_topics_are_means(rows: list[dict[str, object]]) -> None:
    with_papers = [r for r in rows if r["papers"]]
    assert with_papers
    for row in with_papers:
        mean = np.mean(np.asarray(row["papers"]), axis=0)
        mean /= np.linalg.norm(mean)
        assert row["topic"] is not None
        assert np.allclose(np.asarray(row["topic"]), mean, atol=1e-5)
    assert all(r["topic"] is None for r in rows if not r["papers"])


async def test_a_demo_load_stopped_before_its_topics_is_followed_by_one_that_computes_them(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The four sources' topics are computed once, after the last; a load that stopped
    before that leaves a mark, and the next load, with nothing left to write, computes
    every topic."""
    folder = write_demo_files(tmp_path, papers=60, seed=9)
    await db.run(CLEAR_DATA)
    computed = TopicsDue.refresh

    async def stops(self: TopicsDue, db: Database) -> int:
        raise RuntimeError("stopped before the topics")

    monkeypatch.setattr(TopicsDue, "refresh", stops)
    with pytest.raises(RuntimeError, match="before the topics"):
        await load_demo(db, folder)
    assert (folder / ".topics-due").exists()
    assert all(r["topic"] is None for r in await db.run_rows(TOPICS))
    monkeypatch.setattr(TopicsDue, "refresh", computed)
    summaries = await load_demo(db, folder)
    assert sum(s.papers.created + s.papers.updated for s in summaries.values()) == 0
    assert summaries["arxiv"].topics_refreshed > 0
    assert not (folder / ".topics-due").exists()
    assert_topics_are_means(await db.run_rows(TOPICS))


async def test_db_embed_fills_what_is_missing_or_outdated_and_nothing_else(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=60, seed=9)
    await db.run(CLEAR_DATA)
    await load_demo(db, folder)
    before = {r["key"]: r["vector"] for r in await db.run_rows(PAPER_VECTORS)}
    await db.run(DROP_SOME)
    await db.run(OLD_MODEL)
    summary = await embed_store(db, page=25)
    assert summary.papers_seen == len(before)
    assert summary.papers_embedded == 10
    after = {r["key"]: r["vector"] for r in await db.run_rows(PAPER_VECTORS)}
    assert all(np.allclose(before[k], after[k], atol=1e-6) for k in before)
    coverage = (await db.run(VECTOR_COVERAGE, {"model": model.MODEL}))[0]
    assert coverage["embedded"] == coverage["current"] == coverage["papers"]
    assert coverage["with_topic"] > 0
    assert (await embed_store(db)).papers_embedded == 0


async def test_vector_indexes_built_again_answer_as_before(db: Database, tmp_path: Path) -> None:
    await db.run(CLEAR_DATA)
    await load_demo(db, write_demo_files(tmp_path, papers=60, seed=9))

    async def ranked() -> list[tuple[str, str]]:
        page = await search(db, "dark matter in galaxies", PageRequest(20), mode="semantic")
        return [
            (
                e.node.kind,
                str(getattr(e.node.entity, "key", None) or getattr(e.node.entity, "id", "")),
            )
            for e in page.edges
        ]

    before = await ranked()
    indexes = sorted(await db.run_rows(VECTOR_INDEXES), key=lambda r: r["name"])
    await rebuild_vector_indexes(db)
    rebuilt = sorted(await db.run_rows(VECTOR_INDEXES), key=lambda r: r["name"])
    assert [r["name"] for r in rebuilt] == ["paper_embedding", "researcher_topic"]
    assert rebuilt == [{**r, "state": "ONLINE"} for r in indexes]
    after = await ranked()
    # the same nearest (an approximate index may order near ties apart)
    assert len(before) > 5 and after[0] == before[0]
    assert len(set(after) & set(before)) >= len(before) - 2


def test_mean_direction_is_unit_length_and_none_when_empty() -> None:
    assert model.mean_direction([]) is None
    assert model.mean_direction([[1.0, 0.0], [-1.0, 0.0]]) is None
    topic = model.mean_direction([[1.0, 0.0], [0.0, 1.0]])
    assert topic is not None and np.isclose(np.linalg.norm(topic), 1.0)


def test_paper_text_strips_tex_and_empty_text_gets_no_direction() -> None:
    assert model.paper_text("$\\mathcal{N}=4$ theory", None) == "N =4 theory"
    assert "$" not in model.paper_text("Bounds for $x<1$", "with \\alpha")
    assert not np.any(model.embed([""])[0])


UNTEXTED_PAPER = Query(
    "test.semantic_untexted_paper",
    """
    CREATE (:Paper {key: $key, title: '', embedding: $vector, embedding_digest: 'old',
                    embedding_model: 'old'})
    """,
    "write",
)
ONE_VECTOR = Query(
    "test.semantic_one_vector",
    """
    MATCH (p:Paper {key: $key})
    RETURN p.embedding AS vector, p.embedding_digest AS digest, p.embedding_model AS model
    """,
)


async def test_a_paper_left_with_no_text_loses_its_vector(db: Database) -> None:
    await db.run(CLEAR_DATA)
    await db.run(UNTEXTED_PAPER, {"key": "9901.00001", "vector": [0.1] * model.DIMENSIONS})
    written = await db.unit(lambda tx: embed_papers(tx, ["9901.00001"]))
    assert written == 1
    [row] = await db.run(ONE_VECTOR, {"key": "9901.00001"})
    assert row == {"vector": None, "digest": model.digest(""), "model": model.MODEL}
    # up to date now: nothing written again
    assert await db.unit(lambda tx: embed_papers(tx, ["9901.00001"])) == 0
