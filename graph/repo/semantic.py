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
# Nearest papers and researchers a search by meaning ranks (no deeper pages): the index's
# time grows with it, and a fused ranking's first pages need only the top of each.
WINDOW = 50
FILTERED_WINDOW = 250


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


def _parts(kinds: Sequence[str]) -> str | None:
    """Which vector indexes a search of ``kinds`` reads (institutions have none)."""
    papers, researchers = "paper" in kinds, "researcher" in kinds
    if papers and researchers:
        return "both"
    return "papers" if papers else "researchers" if researchers else None


def _params(vector: list[float], papers: PaperFilter) -> dict[str, object]:
    narrowed = any(value is not None for value in papers.params().values())
    return {
        "vector": vector,
        "window": WINDOW,
        # the filters apply to the nearest: more of them, so that enough pass
        "paper_window": FILTERED_WINDOW if narrowed else WINDOW,
        "min_score": MIN_SCORE,
        **papers.params(),
    }


async def nearest(
    db: Database, text: str, kinds: Sequence[str], papers: PaperFilter
) -> dict[str, list[Near]]:
    """The papers and researchers nearest the words, best first, each kind apart (keys and
    scores: :func:`items` fetches the entities of the hits a page shows)."""
    parts = _parts(kinds)
    vector = model.embed_one(text) if parts is not None else []
    if parts is None or not any(vector):
        return {}
    rows = (await db.run(q.NEAREST[parts], _params(vector, papers)))[0]["rows"]
    found: dict[str, list[Near]] = {kind: [] for kind in ("paper", "researcher") if kind in kinds}
    for row in rows:
        found[row["kind"]].append(Near(cosine(row["score"]), row))
    return found


async def semantic_page(
    db: Database,
    text: str,
    kinds: Sequence[str],
    papers: PaperFilter,
    limit: int,
    after: Sequence[object],
) -> tuple[list[Row], int]:
    """Up to ``limit`` hits after the cursor ``after`` (score, kind, key) of the vector hits
    of every kind ranked together by cosine, with their entities, and how many the ranking
    holds: one statement, where ranking and then fetching the page's entities took two."""
    parts = _parts(kinds)
    vector = model.embed_one(text) if parts is not None else []
    if parts is None or not any(vector):
        return [], 0
    score, kind, key = after
    params = {
        **_params(vector, papers),
        "limit": limit,
        "after_score": None if score is None else float(str(score)),
        "after_kind": None if kind is None else str(kind),
        "after_key": None if key is None else str(key),
    }
    found = (await db.run(q.SEARCH_PAGE[parts], params))[0]
    return _ranked(found["rows"]), int(found["total"])


def hybrid(keyword: Sequence[Row], vectors: dict[str, list[Near]]) -> list[Row]:
    """Keyword hits (every kind ranked together) and vector hits (each kind apart) fused by
    reciprocal rank: rows of kind, key and the fused score."""
    rankings: list[list[tuple[str, str]]] = [[(r["kind"], str(r["key"])) for r in keyword]]
    for kind, hits in vectors.items():
        rankings.append([(kind, str(h.row["key"])) for h in hits])
    fused = fuse(rankings)
    return _ranked([{"kind": k, "key": key, "score": s} for (k, key), s in fused.items()])


async def items(db: Database, hits: Sequence[Row]) -> list[Row]:
    """The hits with their entities (``item``), in order; a hit whose entity is gone since
    it was ranked is left out."""
    if not hits:
        return []
    wanted: dict[str, list[object]] = {"paper": [], "researcher": [], "institution": []}
    for hit in hits:
        key = hit["key"]
        wanted[hit["kind"]].append(key if hit["kind"] == "paper" else int(key))
    params = {
        "papers": wanted["paper"],
        "researchers": wanted["researcher"],
        "institutions": wanted["institution"],
    }
    found = await db.run(q.HIT_ITEMS, params)
    by_key = {(row["kind"], row["key"]): row["item"] for row in found[0]["rows"]}
    return [
        {**hit, "item": by_key[(hit["kind"], hit["key"])]}
        for hit in hits
        if (hit["kind"], hit["key"]) in by_key
    ]


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
