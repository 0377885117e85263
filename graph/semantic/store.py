"""Vectors kept up to date in the store: papers' embeddings and researchers' topics.

A paper's vector is of the title and abstract the store holds after a write (the fields every
source's record chose together), so it does not depend on which source wrote last; a vector
whose digest matches its text is left alone, so a repeated load embeds nothing. A
researcher's topic is the mean direction of their papers' vectors, computed again whenever
a load writes one of their papers or decides their name block again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from scholargraph.graph.db import Database, Tx
from scholargraph.graph.semantic import model
from scholargraph.queries import semantic as q

TOPICS_PER_TRANSACTION = 1000
PAPERS_PER_PAGE = 1000
# The properties written by ``db.create.setNodeVectorProperty``: float32 arrays in the store
# (a paper's ``embedding``, a researcher's ``topic``), where Cypher would write float64.
VECTOR_PROPERTIES = frozenset({"embedding", "topic"})


@dataclass(slots=True)
class EmbedSummary:
    papers_seen: int = 0
    papers_embedded: int = 0
    researchers_refreshed: int = 0


async def embed_papers(tx: Tx, keys: Sequence[str]) -> int:
    """Embed, in the caller's transaction, those of ``keys`` whose vector is missing or of
    other text or another model; returns how many were written."""
    if not keys:
        return 0
    [row] = await tx.run(q.PAPER_TEXTS, {"keys": list(keys)})
    return await _write_vectors(tx, row["papers"])


async def _write_vectors(tx: Tx, rows: Sequence[dict[str, object]]) -> int:
    stale: list[tuple[str, str, str]] = []
    for row in rows:
        text = model.paper_text(_str(row["title"]), _str(row["abstract"]))
        digest = model.digest(text)
        if row["digest"] != digest:
            stale.append((str(row["key"]), text, digest))
    if not stale:
        return 0
    with_text = [s for s in stale if s[1]]
    vectors = model.embed([text for _, text, _ in with_text])
    written = [
        {"key": key, "digest": digest, "vector": [float(x) for x in vector]}
        for (key, _, digest), vector in zip(with_text, vectors, strict=True)
    ]
    empty = [{"key": key, "digest": digest} for key, text, digest in stale if not text]
    if written:
        await tx.run(q.SET_PAPER_VECTORS, {"rows": written, "model": model.MODEL})
    if empty:
        await tx.run(q.CLEAR_PAPER_VECTORS, {"rows": empty, "model": model.MODEL})
    return len(stale)


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


async def researchers_touched(
    db: Database, paper_keys: Iterable[str], blocks: Iterable[str]
) -> list[int]:
    """Researchers holding a slot on one of the papers, or named in one of the blocks."""
    ids: set[int] = set()
    keys = sorted(set(paper_keys))
    for start in range(0, len(keys), PAPERS_PER_PAGE):
        rows = await db.run(
            q.RESEARCHERS_OF_PAPERS, {"keys": keys[start : start + PAPERS_PER_PAGE]}
        )
        ids.update(int(i) for i in rows[0]["ids"])
    names = sorted(set(blocks))
    for start in range(0, len(names), PAPERS_PER_PAGE):
        chunk = names[start : start + PAPERS_PER_PAGE]
        rows = await db.run(q.RESEARCHERS_IN_BLOCKS, {"blocks": chunk})
        ids.update(int(i) for i in rows[0]["ids"])
    return sorted(ids)


@dataclass(slots=True)
class TopicsDue:
    """Researchers whose topics loads have made stale, gathered over several loads (the
    sources of one multi-source load) so that each topic is computed once, after the last:
    the papers written and the name blocks decided again (``blocks`` None: every
    researcher, after a resumed load)."""

    papers: set[str] = field(default_factory=set)
    blocks: set[str] | None = field(default_factory=set)

    def add(self, papers: Iterable[str], blocks: Iterable[str] | None) -> None:
        self.papers.update(papers)
        if blocks is None or self.blocks is None:
            self.blocks = None
        else:
            self.blocks.update(blocks)

    async def refresh(self, db: Database) -> int:
        """Compute the due topics again; returns how many, and leaves none due."""
        if self.blocks is None:
            refreshed = (await embed_store(db)).researchers_refreshed
        else:
            refreshed = await refresh_topics(
                db, await researchers_touched(db, self.papers, self.blocks)
            )
        self.papers, self.blocks = set(), set()
        return refreshed


async def refresh_topics(
    db: Database, ids: Sequence[int], *, per_transaction: int = TOPICS_PER_TRANSACTION
) -> int:
    """Compute the researchers' topics again from their papers' vectors; returns how many."""
    for start in range(0, len(ids), per_transaction):
        chunk = list(ids[start : start + per_transaction])

        async def work(tx: Tx, chunk: list[int] = chunk) -> None:
            [row] = await tx.run(q.RESEARCHER_PAPER_VECTORS, {"ids": chunk})
            keys = {str(v["key"]): i for i, v in enumerate(row["vectors"])}
            matrix = np.asarray([v["vector"] for v in row["vectors"]], dtype=np.float64)
            topics, cleared = [], []
            for researcher in row["researchers"]:
                # In key order, so the sum, to the last bit, does not depend on load order.
                own = [keys[key] for key in sorted(researcher["papers"])]
                topic = None if researcher["retired"] else model.mean_direction(matrix[own])
                if topic is None:
                    cleared.append(researcher["id"])
                else:
                    topics.append({"id": researcher["id"], "vector": topic})
            if topics:
                await tx.run(q.SET_RESEARCHER_TOPICS, {"rows": topics, "model": model.MODEL})
            if cleared:
                await tx.run(q.CLEAR_RESEARCHER_TOPICS, {"ids": cleared})

        await db.unit(work)
    return len(ids)


async def embed_store(
    db: Database,
    *,
    after: str = "",
    page: int = PAPERS_PER_PAGE,
    progress: Callable[[EmbedSummary, str], None] | None = None,
) -> EmbedSummary:
    """``scholargraph db embed``: every paper whose vector is missing or outdated, page by
    page in key order (each page its own transaction, so an interrupted run keeps what it
    wrote and a rerun skips it), then every researcher's topic."""
    summary = EmbedSummary()
    while True:

        async def work(tx: Tx, after: str = after) -> tuple[int, int, str]:
            rows = await tx.run(q.PAPER_TEXTS_AFTER, {"after": after, "limit": page})
            last = str(rows[-1]["key"]) if rows else after
            return len(rows), await _write_vectors(tx, rows), last

        seen, embedded, after = await db.unit(work)
        summary.papers_seen += seen
        summary.papers_embedded += embedded
        if progress is not None:
            progress(summary, after)
        if seen < page:
            break
    summary.researchers_refreshed = await refresh_topics(db, await _all_researchers(db))
    return summary


async def _all_researchers(db: Database) -> list[int]:
    ids: list[int] = []
    after = -1
    while True:
        rows = await db.run(q.RESEARCHER_IDS_AFTER, {"after": after, "limit": 10_000})
        ids.extend(int(row["id"]) for row in rows)
        if len(rows) < 10_000:
            return ids
        after = ids[-1]


async def rebuild_vector_indexes(db: Database, *, timeout_s: float = 3600.0) -> None:
    """Build the vector indexes again from the stored vectors, in one pass, and wait until
    they are online (searches by meaning fail meanwhile: their index is missing or filling).

    An index written a batch at a time, as loads write it, can be slower to search than one
    built from the finished store (BENCHMARKS.md, "Search by meaning at 100,000 papers")."""
    for query in (
        q.DROP_VECTOR_INDEX_PAPERS,
        q.DROP_VECTOR_INDEX_RESEARCHERS,
        q.VECTOR_INDEX_PAPERS,
        q.VECTOR_INDEX_RESEARCHERS,
    ):
        await db.run(query)
    await db.run(q.AWAIT_INDEXES, {"seconds": int(timeout_s)}, timeout_s=timeout_s + 60)


async def vector_coverage(db: Database) -> dict[str, int]:
    """Papers, those with a vector and those whose vector is of the current model;
    researchers and those with a topic."""
    rows = await db.run(q.VECTOR_COVERAGE, {"model": model.MODEL})
    return {key: int(value) for key, value in rows[0].items()}
