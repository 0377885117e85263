from __future__ import annotations

import random
from collections import Counter

import networkx as nx
import pytest

from scholargraph.graph.analysis import louvain


def planted(seed: int) -> tuple[nx.Graph, list[set[int]]]:
    graph = nx.planted_partition_graph(5, 30, 0.4, 0.01, seed=seed)
    return graph, [set(block) for block in graph.graph["partition"]]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_louvain_finds_a_valid_partition_numbered_by_size(seed: int) -> None:
    graph, _ = planted(seed)
    found = louvain(graph, seed=seed)
    assert list(found.membership) == list(graph.nodes)
    ids = sorted(set(found.membership.values()))
    assert ids == list(range(len(ids)))
    groups = found.groups
    assert set().union(*groups) == set(graph.nodes)
    assert sum(len(g) for g in groups) == len(graph)
    assert found.sizes == sorted(found.sizes, reverse=True)
    assert all(found.membership[n] == i for i, g in enumerate(groups) for n in g)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_louvain_beats_a_random_partition_and_recovers_the_planted_one(seed: int) -> None:
    graph, blocks = planted(seed)
    found = louvain(graph, seed=0)
    labels = list(found.membership.values())
    random.Random(seed).shuffle(labels)
    shuffled = dict(zip(graph.nodes, labels, strict=True))
    random_groups = [{n for n, c in shuffled.items() if c == k} for k in set(labels)]
    assert found.modularity > nx.community.modularity(graph, random_groups) + 0.3
    assert found.modularity == pytest.approx(nx.community.modularity(graph, found.groups))
    for block in blocks:
        majority = Counter(found.membership[n] for n in block).most_common(1)[0][1]
        assert majority >= 0.9 * len(block)


def test_same_seed_same_communities() -> None:
    graph = nx.powerlaw_cluster_graph(300, 3, 0.2, seed=4)
    first, again = louvain(graph, seed=7), louvain(graph, seed=7)
    assert first == again


def test_weights_decide_the_split() -> None:
    # A 6-cycle: heavy edges glue {0,1,2} and {3,4,5}, or {1,2,3} and {4,5,0}.
    graph = nx.cycle_graph(6)
    nx.set_edge_attributes(graph, 1, "weight")
    for u, v in [(0, 1), (1, 2), (3, 4), (4, 5)]:
        graph.edges[u, v]["weight"] = 10
    assert sorted(map(sorted, louvain(graph).groups)) == [[0, 1, 2], [3, 4, 5]]
    for u, v in [(0, 1), (3, 4)]:
        graph.edges[u, v]["weight"] = 1
    for u, v in [(2, 3), (5, 0)]:
        graph.edges[u, v]["weight"] = 10
    assert sorted(map(sorted, louvain(graph).groups)) == [[0, 4, 5], [1, 2, 3]]


def test_graph_without_edges_has_singletons() -> None:
    graph = nx.empty_graph([4, 2, 9])
    found = louvain(graph)
    assert found.membership == {4: 1, 2: 0, 9: 2}
    assert found.modularity == 0.0
    assert louvain(nx.Graph()).groups == []
