"""Collaboration distance ("Erdős numbers"), alternative paths and the strongest chain."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from itertools import islice, pairwise
from typing import Literal

import networkx as nx

from scholargraph.graph.analysis.build import node_order
from scholargraph.graph.errors import BadInput, NotFound

ChainCriterion = Literal["bottleneck", "sum"]


@dataclass(frozen=True)
class CollaborationDistance:
    """Hop distances from ``anchor`` to everyone it reaches, and how they are spread.

    ``histogram[h]`` counts the researchers at ``h`` hops (``{0: 1}`` is the anchor), so
    ``sum(histogram.values()) + unreachable`` is the number of nodes.
    """

    anchor: Hashable
    hops: dict[Hashable, int]
    histogram: dict[int, int]
    unreachable: int

    @property
    def mean(self) -> float | None:
        """Mean distance to the researchers the anchor reaches (``None`` when none)."""
        others = [h for h in self.hops.values() if h > 0]
        return sum(others) / len(others) if others else None


@dataclass(frozen=True)
class Chain:
    """A coauthor path and the strength (joint papers) of each of its hops."""

    nodes: list[Hashable]
    strengths: list[float]

    @property
    def hops(self) -> int:
        return len(self.nodes) - 1

    @property
    def weakest(self) -> float:
        return min(self.strengths, default=math.inf)

    @property
    def total(self) -> float:
        return sum(self.strengths)


@dataclass(frozen=True)
class ComponentSummary:
    """Connected components: their sizes, largest first."""

    sizes: list[int]

    @property
    def count(self) -> int:
        return len(self.sizes)

    @property
    def isolated(self) -> int:
        """Researchers with no coauthor in the graph."""
        return sum(1 for size in self.sizes if size == 1)

    @property
    def largest_share(self) -> float:
        """Share of all nodes in the largest component (0 for an empty graph)."""
        total = sum(self.sizes)
        return self.sizes[0] / total if total else 0.0


def collaboration_distance(graph: nx.Graph, anchor: Hashable) -> CollaborationDistance:
    """Breadth-first hop distances from ``anchor``: everyone's "Erdős number" to it.

    >>> import networkx as nx
    >>> G = nx.Graph([("erdos", "a"), ("erdos", "b"), ("a", "c")])
    >>> G.add_node("loner")
    >>> found = collaboration_distance(G, "erdos")
    >>> found.hops["c"], found.histogram, found.unreachable
    (2, {0: 1, 1: 2, 2: 1}, 1)
    """
    _require(graph, anchor)
    hops = dict(nx.single_source_shortest_path_length(graph, anchor))
    histogram = dict(sorted(Counter(hops.values()).items()))
    return CollaborationDistance(anchor, hops, histogram, len(graph) - len(hops))


def shortest_paths(
    graph: nx.Graph,
    source: Hashable,
    target: Hashable,
    *,
    k: int = 5,
    max_hops: int | None = None,
) -> list[list[Hashable]]:
    """Up to ``k`` simple paths from ``source`` to ``target``, fewest hops first.

    The shortest comes first, then alternatives of the same or greater length; paths longer
    than ``max_hops`` are not returned. No path gives an empty list.

    >>> import networkx as nx
    >>> G = nx.Graph([(1, 2), (2, 4), (1, 3), (3, 4), (1, 5), (5, 6), (6, 4)])
    >>> shortest_paths(G, 1, 4, k=3)
    [[1, 2, 4], [1, 3, 4], [1, 5, 6, 4]]
    >>> shortest_paths(G, 1, 4, max_hops=2)
    [[1, 2, 4], [1, 3, 4]]
    """
    _require(graph, source)
    _require(graph, target)
    if k < 1 or (max_hops is not None and max_hops < 0):
        raise BadInput(f"need k >= 1 and max_hops >= 0, not {k} and {max_hops}")
    paths: Iterator[list[Hashable]] = nx.shortest_simple_paths(graph, source, target)
    found: list[list[Hashable]] = []
    try:
        for path in islice(paths, k):
            if max_hops is not None and len(path) - 1 > max_hops:
                break
            found.append(path)
    except nx.NetworkXNoPath:
        return []
    return found


def strongest_chain(
    graph: nx.Graph,
    source: Hashable,
    target: Hashable,
    *,
    strength: str = "joint_papers",
    criterion: ChainCriterion = "bottleneck",
) -> Chain | None:
    """The strongest of the shortest coauthor paths from ``source`` to ``target``.

    Only paths of the collaboration distance (fewest hops) compete. With
    ``criterion="bottleneck"`` (the default) the winner is the path whose *weakest* hop has
    the most ``strength`` (joint papers): a chain of collaborations is as good as its
    weakest link. With ``"sum"`` it is the path with the most joint papers in total. Ties go
    the same way every time (to the lower id at each hop). An edge without ``strength``
    counts as one joint paper. The search runs over the layered graph of shortest paths,
    never listing them (there can be exponentially many). ``None`` when ``target`` is out of reach.

    Examples
    --------
    Two 2-hop chains from 1 to 4: via 2 (5 then 1 joint papers) and via 3 (2 then 2):

    >>> import networkx as nx
    >>> G = nx.Graph()
    >>> G.add_edges_from([(1, 2, {"joint_papers": 5}), (2, 4, {"joint_papers": 1}),
    ...                   (1, 3, {"joint_papers": 2}), (3, 4, {"joint_papers": 2})])
    >>> strongest_chain(G, 1, 4).nodes
    [1, 3, 4]
    >>> strongest_chain(G, 1, 4, criterion="sum").nodes
    [1, 2, 4]
    """
    _require(graph, source)
    _require(graph, target)
    if criterion not in ("bottleneck", "sum"):
        raise BadInput(f"criterion must be 'bottleneck' or 'sum', not {criterion!r}")
    from_source = nx.single_source_shortest_path_length(graph, source)
    if target not in from_source:
        return None
    length = from_source[target]
    to_target = nx.single_source_shortest_path_length(graph, target, cutoff=length)
    layers: list[list[Hashable]] = [[] for _ in range(length + 1)]
    for node, hops in from_source.items():
        if hops <= length and hops + to_target.get(node, length + 1) == length:
            layers[hops].append(node)
    on_path = {node for layer in layers for node in layer}

    def hop_strength(a: Hashable, b: Hashable) -> float:
        return float(graph.edges[a, b].get(strength, 1))

    best: dict[Hashable, float] = {source: math.inf if criterion == "bottleneck" else 0.0}
    previous: dict[Hashable, Hashable] = {}
    for depth in range(1, length + 1):
        for node in layers[depth]:
            before = [n for n in graph[node] if n in on_path and from_source[n] == depth - 1]
            for candidate in sorted(before, key=node_order):
                w = hop_strength(candidate, node)
                score = (
                    min(best[candidate], w) if criterion == "bottleneck" else best[candidate] + w
                )
                if node not in best or score > best[node]:
                    best[node], previous[node] = score, candidate
    path = [target]
    while path[-1] != source:
        path.append(previous[path[-1]])
    path.reverse()
    return Chain(path, [hop_strength(a, b) for a, b in pairwise(path)])


def components(graph: nx.Graph) -> ComponentSummary:
    """Sizes of the connected components, largest first.

    >>> import networkx as nx
    >>> G = nx.Graph([(1, 2), (2, 3), (4, 5)])
    >>> G.add_node(6)
    >>> summary = components(G)
    >>> summary.sizes, summary.isolated, summary.largest_share
    ([3, 2, 1], 1, 0.5)
    """
    return ComponentSummary(sorted((len(c) for c in nx.connected_components(graph)), reverse=True))


def _require(graph: nx.Graph, node: Hashable) -> None:
    if node not in graph:
        raise NotFound(f"researcher {node!r} is not in this graph; check the id or the filters")
