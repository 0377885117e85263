"""Ranking quality against judged queries: nDCG@k and recall@k with binary relevance.

``nDCG@k`` discounts each relevant hit by ``1 / log2(rank + 1)`` and divides by the best
possible order (all relevant items first, as many as fit in ``k``); ``recall@k`` is the share
of the relevant items found in the first ``k`` (of at most ``k`` of them, so a query with
more relevant items than ``k`` can still reach 1).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass


def ndcg_at(ranked: Sequence[str], relevant: Collection[str], k: int = 10) -> float:
    if not relevant:
        return 0.0
    gain = sum(1.0 / math.log2(i + 2) for i, key in enumerate(ranked[:k]) if key in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return gain / ideal


def recall_at(ranked: Sequence[str], relevant: Collection[str], k: int = 10) -> float:
    if not relevant:
        return 0.0
    found = sum(1 for key in ranked[:k] if key in relevant)
    return found / min(k, len(relevant))


@dataclass(frozen=True, slots=True)
class Quality:
    queries: int
    ndcg: float
    recall: float

    def as_dict(self) -> dict[str, float | int]:
        return {
            "queries": self.queries,
            "ndcg@10": round(self.ndcg, 3),
            "recall@10": round(self.recall, 3),
        }


def quality(runs: Sequence[tuple[Sequence[str], Collection[str]]], k: int = 10) -> Quality:
    """Mean nDCG@k and recall@k over (ranking, relevant keys) pairs."""
    if not runs:
        return Quality(0, 0.0, 0.0)
    ndcg = sum(ndcg_at(r, rel, k) for r, rel in runs) / len(runs)
    recall = sum(recall_at(r, rel, k) for r, rel in runs) / len(runs)
    return Quality(len(runs), ndcg, recall)
