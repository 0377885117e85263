from __future__ import annotations

import networkx as nx
import pytest

from scholargraph.graph.analysis import betweenness, degree, pagerank, strength, top_k
from scholargraph.graph.errors import BadInput


def weighted_star() -> nx.Graph:
    graph = nx.star_graph(5)
    for leaf in range(1, 6):
        graph.edges[0, leaf]["weight"] = float(leaf)
    graph.add_edge(4, 5)  # no weight: counts as 1
    return graph


def test_degree_and_strength() -> None:
    graph = weighted_star()
    assert degree(graph) == {0: 5, 1: 1, 2: 1, 3: 1, 4: 2, 5: 2}
    weights = strength(graph)
    assert weights[0] == 15.0
    assert weights[4] == 5.0
    assert strength(graph, weight="missing")[0] == 5.0


def test_pagerank_is_a_distribution_that_follows_weights() -> None:
    graph = weighted_star()
    ranks = pagerank(graph)
    assert sum(ranks.values()) == pytest.approx(1.0)
    assert max(ranks, key=ranks.__getitem__) == 0
    assert ranks[3] > ranks[1]
    unweighted = pagerank(graph, weight=None)
    assert unweighted[3] == pytest.approx(unweighted[1])
    assert pagerank(nx.Graph()) == {}


def test_betweenness_is_exact_on_small_graphs() -> None:
    graph = nx.barbell_graph(6, 3)
    assert betweenness(graph) == pytest.approx(nx.betweenness_centrality(graph))
    assert betweenness(graph, samples=None) == pytest.approx(nx.betweenness_centrality(graph))


def test_sampled_betweenness_is_seeded_and_finds_the_bridges() -> None:
    graph = nx.barbell_graph(60, 5)  # 125 nodes: two cliques joined by a path of five
    sampled = betweenness(graph, samples=40, seed=3)
    assert sampled == betweenness(graph, samples=40, seed=3)
    assert sampled != betweenness(graph, samples=40, seed=4)
    bridge = set(range(59, 66))  # the path and the clique node at each end of it
    assert {node for node, _ in top_k(sampled, 7)} == bridge
    exact = nx.betweenness_centrality(graph)
    assert sampled[62] == pytest.approx(exact[62], rel=0.25)


def test_betweenness_by_length() -> None:
    # The direct edge 0–2 is long, so shortest paths by length go through 1.
    graph = nx.Graph([(0, 1, {"length": 1}), (1, 2, {"length": 1}), (0, 2, {"length": 5})])
    assert betweenness(graph, distance="length")[1] > 0
    assert betweenness(graph)[1] == 0
    with pytest.raises(BadInput):
        betweenness(graph, samples=0)


def test_top_k_orders_by_score_then_id() -> None:
    scores = {10: 1.0, 2: 3.0, 7: 3.0, "x": 0.5, 1: 1.0}
    assert top_k(scores, 4) == [(2, 3.0), (7, 3.0), (1, 1.0), (10, 1.0)]
    assert top_k(scores, 99)[-1] == ("x", 0.5)
    assert top_k(scores, 0) == []
    with pytest.raises(BadInput):
        top_k(scores, -1)
