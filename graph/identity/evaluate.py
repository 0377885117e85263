"""Clustering quality against gold clusters: B³ and pairwise precision, recall and F1.

**B³** averages over elements: an element's precision is the share of its predicted cluster
that is in its gold cluster, its recall the share of its gold cluster that is in its predicted
cluster. **Pairwise** counts pairs of elements put together: precision is the share of
predicted same-cluster pairs that are gold pairs, recall the share of gold pairs predicted.
A measure over no pairs at all is 1.0 (nothing claimed, nothing wrong).

Only elements of the gold clusters count; a gold element missing from the prediction is
taken as a cluster of its own.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

from scholargraph.graph.errors import BadInput
from scholargraph.graph.identity.cluster import Constraints, blocks_of, cluster_mentions
from scholargraph.graph.identity.s2and import (
    read_cluster_seeds,
    read_clusters,
    read_papers,
    read_signatures,
    to_mentions,
)
from scholargraph.graph.identity.scoring import Mention

Clusters = Iterable[Iterable[str]]


def _labels(clusters: Clusters) -> dict[str, int]:
    return {element: index for index, cluster in enumerate(clusters) for element in cluster}


def _f1(precision: float, recall: float) -> float:
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


def compare_clusterings(predicted: Clusters, gold: Clusters) -> dict[str, float]:
    """B³ and pairwise precision/recall/F1 of ``predicted`` against ``gold``."""
    gold_of = _labels(gold)
    predicted_of = _labels(predicted)
    next_label = max(predicted_of.values(), default=-1) + 1
    for element in gold_of:
        if element not in predicted_of:
            predicted_of[element] = next_label
            next_label += 1
    predicted_of = {e: label for e, label in predicted_of.items() if e in gold_of}
    gold_sizes = Counter(gold_of.values())
    predicted_sizes = Counter(predicted_of.values())
    cells = Counter((predicted_of[e], gold_of[e]) for e in gold_of)
    n = len(gold_of)
    b3_precision = sum(k * k / predicted_sizes[p] for (p, _), k in cells.items()) / n if n else 1.0
    b3_recall = sum(k * k / gold_sizes[g] for (_, g), k in cells.items()) / n if n else 1.0
    true_pairs = sum(k * (k - 1) // 2 for k in cells.values())
    predicted_pairs = sum(k * (k - 1) // 2 for k in predicted_sizes.values())
    gold_pairs = sum(k * (k - 1) // 2 for k in gold_sizes.values())
    pair_precision = true_pairs / predicted_pairs if predicted_pairs else 1.0
    pair_recall = true_pairs / gold_pairs if gold_pairs else 1.0
    return {
        "b3_precision": b3_precision,
        "b3_recall": b3_recall,
        "b3_f1": _f1(b3_precision, b3_recall),
        "pairwise_precision": pair_precision,
        "pairwise_recall": pair_recall,
        "pairwise_f1": _f1(pair_precision, pair_recall),
        "elements": float(n),
        "gold_clusters": float(len(gold_sizes)),
        "predicted_clusters": float(len(predicted_sizes)),
    }


def one_cluster_per_block(mentions: Iterable[Mention]) -> list[tuple[str, ...]]:
    """Baseline: everyone with the same block key is one person."""
    return [tuple(m.mention_id for m in group) for group in blocks_of(mentions).values()]


def same_first_and_middle_initial(mentions: Iterable[Mention]) -> list[tuple[str, ...]]:
    """Baseline: one person per block, full first name and middle initial."""
    groups: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for label, group in blocks_of(mentions).items():
        for m in group:
            middle = m.name.middles[0][:1] if m.name.middles else ""
            groups[(label, m.name.first, middle)].append(m.mention_id)
    return [tuple(ids) for _, ids in sorted(groups.items())]


def _same_name_groups(mentions: Iterable[Mention], constraints: Constraints) -> Clusters:
    return same_first_and_middle_initial(mentions)


def _one_block_groups(mentions: Iterable[Mention], constraints: Constraints) -> Clusters:
    return one_cluster_per_block(mentions)


def _model(mentions: Iterable[Mention], constraints: Constraints) -> Clusters:
    return cluster_mentions(mentions, constraints=constraints)


METHODS = {"model": _model, "block": _one_block_groups, "first_middle": _same_name_groups}


def evaluate_s2and(
    signatures_path: Path | str,
    clusters_path: Path | str,
    papers_path: Path | str | None = None,
    *,
    method: str = "model",
    seeds_path: Path | str | None = None,
) -> dict[str, float]:
    """Cluster an S2AND dataset and score it against its gold clusters.

    ``method`` is ``"model"`` (this package's clustering) or a baseline: ``"block"`` (one
    cluster per block) or ``"first_middle"`` (same first name and middle initial). With
    ``seeds_path`` the model respects the curator decisions in a ``cluster_seeds.json``.
    Besides the six measures the result holds counts and ``seconds``, the clustering time.
    """
    if method not in METHODS:
        raise BadInput(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    signatures = read_signatures(signatures_path)
    gold = read_clusters(clusters_path)
    papers = read_papers(papers_path) if papers_path is not None else None
    constraints = read_cluster_seeds(seeds_path) if seeds_path is not None else Constraints()
    mentions = to_mentions(signatures, papers)
    started = time.perf_counter()
    predicted = METHODS[method](mentions, constraints)
    seconds = time.perf_counter() - started
    return {**compare_clusterings(predicted, gold.values()), "seconds": seconds}


def compare_s2and(
    signatures_path: Path | str,
    clusters_path: Path | str,
    papers_path: Path | str | None = None,
) -> dict[str, dict[str, float]]:
    """The model and both baselines side by side, keyed by method name."""
    return {
        method: evaluate_s2and(signatures_path, clusters_path, papers_path, method=method)
        for method in METHODS
    }


def gold_by_block(gold: Mapping[str, Iterable[str]], mentions: Iterable[Mention]) -> dict[str, int]:
    """How many gold clusters (people) each block holds; for reports on what is hard."""
    block_of = {m.mention_id: label for label, group in blocks_of(mentions).items() for m in group}
    people: dict[str, set[str]] = defaultdict(set)
    for cluster_id, members in gold.items():
        for member in members:
            people[block_of.get(member, "?")].add(cluster_id)
    return {block: len(ids) for block, ids in sorted(people.items())}
