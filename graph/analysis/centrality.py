"""Centralities of a coauthor graph, as ``{node: score}`` dicts."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import networkx as nx

from scholargraph.graph.analysis.build import node_order
from scholargraph.graph.errors import BadInput, ConfigError

DEFAULT_BETWEENNESS_SAMPLES = 500


def degree(graph: nx.Graph) -> dict[Hashable, int]:
    """Number of distinct coauthors of each node."""
    return {node: int(d) for node, d in graph.degree()}


def strength(graph: nx.Graph, weight: str = "weight") -> dict[Hashable, float]:
    """Weighted degree: the sum of ``weight`` over each node's edges (missing counts as 1)."""
    return {node: float(s) for node, s in graph.degree(weight=weight)}


def pagerank(
    graph: nx.Graph, *, weight: str | None = "weight", alpha: float = 0.85
) -> dict[Hashable, float]:
    """PageRank with edges followed in proportion to ``weight``; the scores sum to 1.

    networkx computes it with scipy, which comes with the ``analysis`` extra.
    """
    if len(graph) == 0:
        return {}
    try:
        scores = nx.pagerank(graph, alpha, weight=weight)
    except ImportError as error:
        raise ConfigError("pagerank needs scipy: pip install 'scholargraph[analysis]'") from error
    return {node: float(score) for node, score in scores.items()}


def betweenness(
    graph: nx.Graph,
    *,
    samples: int | None = DEFAULT_BETWEENNESS_SAMPLES,
    seed: int | None = 0,
    distance: str | None = None,
    normalized: bool = True,
) -> dict[Hashable, float]:
    """Betweenness centrality, exact up to ``samples`` nodes and estimated above.

    Exact betweenness costs a shortest-path search from every node (``O(n·m)``); on a
    graph with more than ``samples`` nodes the searches start from ``samples`` nodes drawn
    with ``seed`` (Brandes & Pich 2007), which ranks the top of a large graph reliably in a
    fraction of the time. ``samples=None`` forces the exact computation.

    ``distance`` names an edge attribute read as a *length* (``None``: every edge is one
    hop). ``joint_papers`` and ``weight`` are strengths, not lengths: do not pass them here.

    Examples
    --------
    The middle of a path lies on every path between its two halves:

    >>> import networkx as nx
    >>> scores = betweenness(nx.path_graph(5))
    >>> max(scores, key=scores.get), scores[0]
    (2, 0.0)
    """
    if samples is not None and samples < 1:
        raise BadInput(f"samples must be at least 1 (or None for exact), not {samples}")
    k = samples if samples is not None and samples < len(graph) else None
    scores = nx.betweenness_centrality(
        graph, k=k, normalized=normalized, weight=distance, seed=seed if k else None
    )
    return {node: float(score) for node, score in scores.items()}


def top_k(scores: Mapping[Hashable, float], k: int) -> list[tuple[Hashable, float]]:
    """The ``k`` highest scores, highest first; equal scores in node order (ids by value).

    >>> top_k({3: 0.5, 1: 0.9, 2: 0.5, 4: 0.1}, 3)
    [(1, 0.9), (2, 0.5), (3, 0.5)]
    """
    if k < 0:
        raise BadInput(f"k must be at least 0, not {k}")
    return sorted(scores.items(), key=lambda item: (-item[1], node_order(item[0])))[:k]
