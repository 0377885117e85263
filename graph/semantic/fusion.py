"""Reciprocal-rank fusion: one ranking from several, by where each item stands in each.

An item's fused score is ``Σ 1 / (k + rank)`` over the rankings it appears in (ranks from 1);
``k = 60`` is the constant of Cormack, Clarke and Büttcher (SIGIR 2009), which damps the
weight of the very top ranks so that agreement between rankings counts most.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

K = 60

T = TypeVar("T", bound=Hashable)


def fuse(rankings: Sequence[Sequence[T]], *, k: int = K) -> dict[T, float]:
    """Each item's fused score; an item listed twice in one ranking counts at its best rank."""
    scores: dict[T, float] = {}
    for ranking in rankings:
        seen: set[T] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return scores
