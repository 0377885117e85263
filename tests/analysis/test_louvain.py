"""Our Louvain follows networkx's step for step: the same partitions, faster."""

from __future__ import annotations

import random
from collections.abc import Hashable

import networkx as nx
import pytest

from scholargraph.graph.analysis.louvain import louvain_partition


def _canonical(parts: list[set[Hashable]]) -> list[list[str]]:
    return sorted(sorted(map(str, part)) for part in parts)


def _weighted(n: int, p: float, seed: int) -> nx.Graph:
    graph = nx.gnp_random_graph(n, p, seed=seed)
    rng = random.Random(seed)
    for u, v in graph.edges:
        graph[u][v]["weight"] = rng.randint(1, 6)
    return graph


GRAPHS = [
    *(
        _weighted(n, p, seed)
        for seed, (n, p) in enumerate([(12, 0.3), (60, 0.08), (150, 0.05), (400, 0.04)])
    ),
    nx.powerlaw_cluster_graph(300, 6, 0.4, seed=3),  # hubs and triangles, as coauthors make
    nx.karate_club_graph(),
    nx.les_miserables_graph(),
    nx.davis_southern_women_graph(),
    nx.relabel_nodes(nx.barbell_graph(6, 2), {0: "a", 1: "b"}),  # mixed node types
]


@pytest.mark.parametrize("graph", GRAPHS)
@pytest.mark.parametrize("seed", [0, 7, 42])
def test_same_partition_and_modularity_as_networkx(graph: nx.Graph, seed: int) -> None:
    expected = nx.community.louvain_communities(graph, weight="weight", seed=seed)
    found, modularity = louvain_partition(graph, weight="weight", seed=seed)
    assert _canonical(found) == _canonical(expected)
    assert modularity == pytest.approx(nx.community.modularity(graph, found, weight="weight"))


@pytest.mark.parametrize("resolution", [0.5, 2.0])
def test_resolution_and_unweighted(resolution: float) -> None:
    graph = _weighted(80, 0.1, 3)
    expected = nx.community.louvain_communities(graph, weight=None, resolution=resolution, seed=1)
    found, _ = louvain_partition(graph, weight=None, resolution=resolution, seed=1)
    assert _canonical(found) == _canonical(expected)


def test_self_loops_count_as_networkx_counts_them() -> None:
    graph = _weighted(40, 0.15, 5)
    graph.add_edge(0, 0, weight=9)
    graph.add_edge(3, 3, weight=2)
    expected = nx.community.louvain_communities(graph, weight="weight", seed=2)
    found, _ = louvain_partition(graph, weight="weight", seed=2)
    assert _canonical(found) == _canonical(expected)


def test_graph_without_edges_is_singletons() -> None:
    graph = nx.empty_graph(4)
    assert louvain_partition(graph) == ([{0}, {1}, {2}, {3}], 0.0)


def test_directed_graphs_are_refused() -> None:
    with pytest.raises(ValueError, match="undirected"):
        louvain_partition(nx.DiGraph([(1, 2)]))
