"""Search by meaning, and what is near a paper or a researcher.

A query's words are embedded with the papers' model and matched against the vector indexes:
papers by their title and abstract, researchers by their topic (the mean of their papers).
Institutions have no vectors and are found by keyword only. A hit counts only when its
cosine similarity is at least :data:`MIN_COSINE`: a vector index always answers with its
nearest, however far. Hybrid search fuses the keyword ranking and the vector rankings by
reciprocal rank (:mod:`graph.semantic.fusion`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scholargraph.graph.db import Database
from scholargraph.graph.repo.models import Paper, Researcher, Row
from scholargraph.graph.semantic import model
from scholargraph.graph.semantic.fusion import fuse
from scholargraph.queries import semantic as q

MIN_COSINE = 0.2
# The index reports (1 + cosine) / 2 for the cosine function.
MIN_SCORE = (1 + MIN_COSINE) / 2
MAX_NEAR = 100


@dataclass(frozen=True, slots=True)
class PaperFilter:
    """Papers in a category (any of theirs) and in a span of years, both ends included."""

    category: str | None = None
    year_from: int | None = None
    year_to: int | None = None

    def params(self) -> dict[str, object]:
        return {"category": self.category, "year_from": self.year_from, "year_to": self.year_to}


@dataclass(frozen=True, slots=True)
class Near:
    score: float  # cosine similarity, -1 … 1
    row: Row


def cosine(score: float) -> float:
    return 2.0 * float(score) - 1.0


async def nearest(
    db: Database, text: str, kinds: Sequence[str], window: int, papers: PaperFilter
) -> dict[str, list[Near]]:
    """The papers and researchers nearest the words, best first, each kind apart."""
    vector = model.embed_one(text)
    found: dict[str, list[Near]] = {}
    if not any(vector):
        return found
    if "paper" in kinds:
        rows = await db.run(
            q.NEAREST_PAPERS,
            {"vector": vector, "window": window, "limit": window, **papers.params()},
        )
        found["paper"] = [_near(row) for row in rows if row["score"] >= MIN_SCORE]
    if "researcher" in kinds:
        rows = await db.run(
            q.NEAREST_RESEARCHERS, {"vector": vector, "window": window, "limit": window}
        )
        found["researcher"] = [_near(row) for row in rows if row["score"] >= MIN_SCORE]
    return found


def _near(row: Row) -> Near:
    return Near(cosine(row["score"]), row)


def hybrid(keyword: Sequence[Row], vectors: dict[str, list[Near]]) -> list[Row]:
    """Keyword hits (every kind ranked together) and vector hits (each kind apart) fused by
    reciprocal rank; rows as the keyword search gives them, the fused score as ``score``."""
    by_key: dict[tuple[str, str], Row] = {(r["kind"], r["key"]): r for r in keyword}
    rankings: list[list[tuple[str, str]]] = [[(r["kind"], r["key"]) for r in keyword]]
    for kind, hits in vectors.items():
        rankings.append([(kind, str(h.row["key"])) for h in hits])
        for hit in hits:
            by_key.setdefault((kind, str(hit.row["key"])), {**hit.row, "kind": kind})
    fused = fuse(rankings)
    return _ranked([{**by_key[k], "score": score} for k, score in fused.items()])


def semantic(vectors: dict[str, list[Near]]) -> list[Row]:
    """Vector hits of every kind ranked together by cosine similarity."""
    rows = [
        {**hit.row, "kind": kind, "score": hit.score}
        for kind, hits in vectors.items()
        for hit in hits
    ]
    return _ranked(rows)


def _ranked(rows: Sequence[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (-r["score"], r["kind"], r["key"]))


async def related_papers(db: Database, key: str, first: int) -> list[tuple[float, Paper]]:
    """The papers nearest a paper's own vector (none when it has no vector yet)."""
    rows = await db.run(q.RELATED_PAPERS, {"key": key, "limit": min(first, MAX_NEAR)})
    return [(cosine(row["score"]), Paper.from_row(row["item"])) for row in rows]


async def similar_researchers(
    db: Database, researcher: int, first: int, *, exclude_coauthors: bool = False
) -> list[tuple[float, Researcher]]:
    """The researchers whose topics are nearest this one's, optionally none of their
    coauthors (the nearest are often coauthors: they share papers)."""
    limit = min(first, MAX_NEAR)
    rows = await db.run(
        q.SIMILAR_RESEARCHERS,
        {
            "id": researcher,
            "limit": limit,
            # over-fetch so that coauthors and retired records filtered out leave enough
            "window": limit * 5 + 10,
            "exclude_coauthors": exclude_coauthors,
        },
    )
    return [(cosine(row["score"]), Researcher.from_row(row["item"])) for row in rows]
