from __future__ import annotations

import math
from collections.abc import Hashable, Iterable

import networkx as nx
import numpy as np
import pytest

from scholargraph.graph.analysis import forceatlas2, normalise
from scholargraph.graph.errors import BadInput

Layout = dict[Hashable, tuple[float, float]]


def mean_distance(pos: Layout, pairs: Iterable[tuple[Hashable, Hashable]]) -> float:
    lengths = [math.dist(pos[a], pos[b]) for a, b in pairs]
    return sum(lengths) / len(lengths)


def in_unit_box(pos: Layout) -> bool:
    return all(-1.0 - 1e-9 <= c <= 1.0 + 1e-9 for xy in pos.values() for c in xy)


def test_layout_places_every_node_in_the_unit_box_and_fills_it() -> None:
    graph = nx.les_miserables_graph()
    pos = forceatlas2(graph)
    assert list(pos) == list(graph)
    assert in_unit_box(pos)
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    assert max(max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx(2.0)
    assert all(math.isfinite(c) for xy in pos.values() for c in xy)


def test_same_seed_same_layout_other_seed_other_layout() -> None:
    graph = nx.karate_club_graph()
    assert forceatlas2(graph, seed=3) == forceatlas2(graph, seed=3)
    assert forceatlas2(graph, seed=3) != forceatlas2(graph, seed=4)


@pytest.mark.parametrize("seed", [0, 1])
def test_communities_are_drawn_together(seed: int) -> None:
    graph = nx.planted_partition_graph(4, 40, 0.3, 0.005, seed=seed)
    block = {n: b for b, part in enumerate(graph.graph["partition"]) for n in part}
    pos = forceatlas2(graph, seed=seed)
    nodes = list(graph)
    inside = [(a, b) for a in nodes for b in nodes if a < b and block[a] == block[b]]
    across = [(a, b) for a in nodes for b in nodes if a < b and block[a] != block[b]]
    assert mean_distance(pos, inside) < 0.35 * mean_distance(pos, across)
    assert mean_distance(pos, graph.edges) < 0.35 * mean_distance(pos, across)


def test_weights_pull_strong_coauthors_closer() -> None:
    graph = nx.cycle_graph(12)
    nx.set_edge_attributes(graph, 1.0, "weight")
    graph.edges[0, 1]["weight"] = 50.0
    pos = forceatlas2(graph, max_iter=200)
    others = [math.dist(pos[a], pos[b]) for a, b in graph.edges if (a, b) != (0, 1)]
    assert math.dist(pos[0], pos[1]) < min(others)
    unweighted = forceatlas2(graph, max_iter=200, weight=None)
    assert math.dist(unweighted[0], unweighted[1]) > math.dist(pos[0], pos[1])


def test_components_are_packed_apart() -> None:
    graph = nx.disjoint_union_all([nx.complete_graph(12), nx.cycle_graph(8), nx.path_graph(3)])
    graph.add_nodes_from(["solo-1", "solo-2"])
    pos = forceatlas2(graph)
    assert in_unit_box(pos)
    boxes = []
    for part in nx.connected_components(graph):
        xs, ys = [pos[n][0] for n in part], [pos[n][1] for n in part]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_x <= 0 or overlap_y <= 0, (a, b)
    assert len({pos["solo-1"], pos["solo-2"]}) == 2


@pytest.mark.parametrize(
    "options",
    [
        {"strong_gravity": True},
        {"dissuade_hubs": True},
        {"linlog": True},
        {"scaling_ratio": 10.0, "gravity": 0.1},
        {"jitter_tolerance": 0.1},
    ],
)
def test_forceatlas2_options_give_finite_layouts(options: dict[str, object]) -> None:
    graph = nx.barabasi_albert_graph(150, 2, seed=1)
    pos = forceatlas2(graph, **options)  # type: ignore[arg-type]
    assert len(pos) == 150 and in_unit_box(pos)
    assert all(math.isfinite(c) for xy in pos.values() for c in xy)
    assert len(set(pos.values())) == 150


def test_initial_positions_are_kept_without_iterations_and_used_as_start() -> None:
    graph = nx.path_graph(4)
    start = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (2.0, 0.0), 3: (3.0, 1.0)}
    kept = forceatlas2(graph, initial=start, max_iter=0)
    expected = normalise(start)
    for node, xy in kept.items():
        assert xy == pytest.approx(expected[node], abs=1e-6)
    mirrored = {n: (-x, y) for n, (x, y) in start.items()}
    left = forceatlas2(graph, initial=mirrored, max_iter=5)
    right = forceatlas2(graph, initial=start, max_iter=5)
    assert left[0][0] > left[3][0] and right[0][0] < right[3][0]
    partial = forceatlas2(graph, initial={0: (0.0, 0.0)}, max_iter=5)
    assert list(partial) == [0, 1, 2, 3]


def test_small_and_bad_inputs() -> None:
    assert forceatlas2(nx.Graph()) == {}
    assert forceatlas2(nx.empty_graph(["only"])) == {"only": (0.0, 0.0)}
    pos = forceatlas2(nx.Graph([("a", "a"), ("a", "b")]))
    assert sorted(pos) == ["a", "b"] and pos["a"] != pos["b"]
    with pytest.raises(BadInput):
        forceatlas2(nx.path_graph(3), max_iter=-1)


def test_normalise_centres_and_keeps_the_aspect_ratio() -> None:
    pos = normalise({1: (10, 10), 2: (14, 10), 3: (12, 11)})
    assert pos == {1: (-1.0, -0.25), 2: (1.0, -0.25), 3: (0.0, 0.25)}
    assert normalise({}) == {}
    assert normalise({1: (5, 5), 2: (5, 5)}) == {1: (0.0, 0.0), 2: (0.0, 0.0)}


@pytest.mark.parametrize("seed", range(6))
def test_components_match_scipys(seed: int) -> None:
    """The compiled union-find numbers components as scipy's csgraph does."""
    from scipy import sparse
    from scipy.sparse import csgraph

    from scholargraph.graph.analysis.layout import _component_labels

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    m = int(rng.integers(0, 2 * n))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    adjacency = sparse.csr_array((np.ones(m, dtype=np.int8), (src, dst)), shape=(n, n))
    _, expected = csgraph.connected_components(adjacency, directed=False)
    assert _component_labels(n, src.astype(np.int64), dst.astype(np.int64)).tolist() == (
        expected.tolist()
    )
