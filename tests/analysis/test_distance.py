from __future__ import annotations

import random
from itertools import pairwise

import networkx as nx
import pytest

from scholargraph.graph.analysis import (
    collaboration_distance,
    components,
    shortest_paths,
    strongest_chain,
)
from scholargraph.graph.errors import BadInput, NotFound


def coauthor_like(seed: int, n: int = 60, m: int = 110) -> nx.Graph:
    graph = nx.gnm_random_graph(n, m, seed=seed)
    rng = random.Random(seed)
    for u, v in graph.edges:
        graph.edges[u, v]["joint_papers"] = rng.randint(1, 5)
    return graph


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_collaboration_distance_matches_bfs(seed: int) -> None:
    graph = coauthor_like(seed)
    found = collaboration_distance(graph, 0)
    assert found.hops == nx.single_source_shortest_path_length(graph, 0)
    assert found.histogram[0] == 1
    assert sum(found.histogram.values()) + found.unreachable == len(graph)
    assert list(found.histogram) == sorted(found.histogram)
    assert found.unreachable == len(graph) - len(nx.node_connected_component(graph, 0))
    if len(found.hops) > 1:
        assert found.mean is not None and found.mean >= 1


def test_collaboration_distance_of_a_loner() -> None:
    graph = nx.Graph([(1, 2)])
    graph.add_node(3)
    found = collaboration_distance(graph, 3)
    assert (found.hops, found.histogram, found.unreachable, found.mean) == ({3: 0}, {0: 1}, 2, None)
    with pytest.raises(NotFound):
        collaboration_distance(graph, 4)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_shortest_paths_are_distinct_simple_and_in_order(seed: int) -> None:
    graph = coauthor_like(seed, m=150)
    target = max(nx.node_connected_component(graph, 0))
    paths = shortest_paths(graph, 0, target, k=6, max_hops=8)
    assert paths, "the target is in the anchor's component"
    assert len(paths[0]) - 1 == nx.shortest_path_length(graph, 0, target)
    lengths = [len(p) for p in paths]
    assert lengths == sorted(lengths) and max(lengths) - 1 <= 8 and len(paths) <= 6
    assert len({tuple(p) for p in paths}) == len(paths)
    for path in paths:
        assert path[0] == 0 and path[-1] == target and len(set(path)) == len(path)
        assert all(graph.has_edge(a, b) for a, b in pairwise(path))


def test_shortest_paths_edge_cases() -> None:
    graph = nx.Graph([(1, 2), (3, 4)])
    assert shortest_paths(graph, 1, 3) == []
    assert shortest_paths(graph, 1, 1) == [[1]]
    assert shortest_paths(nx.path_graph(5), 0, 4, max_hops=3) == []
    with pytest.raises(NotFound):
        shortest_paths(graph, 1, 99)
    with pytest.raises(BadInput):
        shortest_paths(graph, 1, 2, k=0)


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize("criterion", ["bottleneck", "sum"])
def test_strongest_chain_is_the_best_shortest_path(seed: int, criterion: str) -> None:
    graph = coauthor_like(seed, n=40, m=90)
    target = max(nx.node_connected_component(graph, 0))
    chain = strongest_chain(graph, 0, target, criterion=criterion)  # type: ignore[arg-type]
    assert chain is not None
    assert chain.nodes[0] == 0 and chain.nodes[-1] == target
    assert chain.hops == nx.shortest_path_length(graph, 0, target)
    assert chain.strengths == [graph.edges[a, b]["joint_papers"] for a, b in pairwise(chain.nodes)]

    def score(path: list[int]) -> float:
        hops = [graph.edges[a, b]["joint_papers"] for a, b in pairwise(path)]
        return min(hops) if criterion == "bottleneck" else sum(hops)

    best = max(score(p) for p in nx.all_shortest_paths(graph, 0, target))
    assert (chain.weakest if criterion == "bottleneck" else chain.total) == best
    assert strongest_chain(graph, 0, target, criterion=criterion) == chain  # type: ignore[arg-type]


def test_strongest_chain_edge_cases() -> None:
    graph = nx.Graph([(1, 2), (3, 4)])
    assert strongest_chain(graph, 1, 3) is None
    own = strongest_chain(graph, 1, 1)
    assert own is not None and own.nodes == [1] and own.hops == 0
    chain = strongest_chain(graph, 1, 2)
    assert chain is not None and chain.strengths == [1.0]
    with pytest.raises(BadInput):
        strongest_chain(graph, 1, 2, criterion="mean")  # type: ignore[arg-type]
    with pytest.raises(NotFound):
        strongest_chain(graph, 0, 2)


def test_components_summary() -> None:
    graph = coauthor_like(5, n=80, m=60)
    summary = components(graph)
    assert sum(summary.sizes) == len(graph)
    assert summary.sizes == sorted(summary.sizes, reverse=True)
    assert summary.count == nx.number_connected_components(graph)
    assert summary.isolated == sum(1 for n in graph if graph.degree(n) == 0)
    assert summary.largest_share == summary.sizes[0] / len(graph)
    assert components(nx.Graph()).largest_share == 0.0
