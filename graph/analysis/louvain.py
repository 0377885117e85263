"""Louvain community detection, networkx's algorithm step for step, compiled.

``networkx.community.louvain_communities`` spends most of its time on graph objects: it copies
the graph, reads edge data dicts at every step, builds a ``Graph`` per level and computes the
modularity of each level through generic views. This runs the same algorithm (Blondel et al.
2008, as networkx 3 implements it: the same seeded visiting order, the same gains in the same
floating-point expressions, the same ties and stopping rule) on compressed adjacency arrays,
each level's steps compiled by numba, some fifty times faster on the few-thousand-tie
networks the API draws. For an undirected graph and an integer seed it finds the same
partition as networkx.

networkx's order matters and is kept: a node's neighbours come in the order their edges were
added to the graph (which decides the order of sums, hence roundings, and of ties between
equal gains); the neighbouring communities of a node in the order they are met; each level's
visiting order shuffled by Python's ``random.Random(seed)``, as networkx shuffles it.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable

import networkx as nx
import numpy as np
import numpy.typing as npt

from scholargraph.graph.analysis.adjacency import both_ways
from scholargraph.graph.analysis.jit import numba

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class Level:
    """A level's graph: the ties of node ``u`` are ``indptr[u]:indptr[u + 1]`` of
    ``neighbour`` and ``weight``, in networkx's adjacency order; a self-loop is one entry."""

    __slots__ = ("indptr", "neighbour", "weight")

    def __init__(self, indptr: IntArray, neighbour: IntArray, weight: FloatArray) -> None:
        self.indptr = indptr
        self.neighbour = neighbour
        self.weight = weight

    @property
    def size(self) -> int:
        return len(self.indptr) - 1

    @classmethod
    def of_edges(cls, n: int, a: IntArray, b: IntArray, w: FloatArray) -> Level:
        """The graph of nodes ``0 … n-1`` with the edges ``a[k] - b[k]`` (each once) added
        in this order."""
        indptr, neighbour, edge = both_ways(n, a, b)
        return cls(indptr, neighbour, w[edge].astype(np.float64))


def louvain_partition(
    graph: nx.Graph,
    *,
    weight: str | None = "weight",
    resolution: float = 1.0,
    threshold: float = 1e-7,
    seed: int | None = None,
) -> tuple[list[set[Hashable]], float]:
    """The communities of an undirected graph, as ``louvain_communities`` returns them, and
    their modularity (0 for a graph without edges)."""
    if graph.is_directed() or graph.is_multigraph():
        raise ValueError("louvain_partition takes an undirected simple graph")
    nodes = list(graph)
    index = {node: i for i, node in enumerate(nodes)}
    edges = graph.edges(data=weight, default=1) if weight else ((u, v, 1) for u, v in graph.edges)
    return partition_of_edges(
        nodes,
        ((index[u], index[v], w) for u, v, w in edges),
        resolution=resolution,
        threshold=threshold,
        seed=seed,
    )


def partition_of_edges(
    nodes: list[Hashable],
    edges: Iterable[tuple[int, int, float]],
    *,
    resolution: float = 1.0,
    threshold: float = 1e-7,
    seed: int | None = None,
) -> tuple[list[set[Hashable]], float]:
    """:func:`louvain_partition` of the graph of ``nodes`` with the edges ``(i, j, weight)``
    between ``nodes[i]`` and ``nodes[j]``, each once: the same partition as that of a
    ``Graph`` with these nodes and these edges added in this order."""
    listed = list(edges)
    a = np.fromiter((e[0] for e in listed), dtype=np.int64, count=len(listed))
    b = np.fromiter((e[1] for e in listed), dtype=np.int64, count=len(listed))
    w = np.fromiter((e[2] for e in listed), dtype=np.float64, count=len(listed))
    return partition_of_arrays(
        nodes, a, b, w, resolution=resolution, threshold=threshold, seed=seed
    )


def partition_of_arrays(
    nodes: list[Hashable],
    a: IntArray,
    b: IntArray,
    w: FloatArray,
    *,
    resolution: float = 1.0,
    threshold: float = 1e-7,
    seed: int | None = None,
) -> tuple[list[set[Hashable]], float]:
    """:func:`partition_of_edges` with the edges as arrays: ``nodes[a[k]] - nodes[b[k]]``
    weighing ``w[k]``."""
    labels, modularity = partition_arrays(
        len(nodes), a, b, w, resolution=resolution, threshold=threshold, seed=seed
    )
    parts: dict[int, set[Hashable]] = {}
    for node, label in zip(nodes, labels.tolist(), strict=True):
        parts.setdefault(label, set()).add(node)
    return [parts[label] for label in sorted(parts)], modularity


def partition_arrays(
    n: int,
    a: IntArray,
    b: IntArray,
    w: FloatArray,
    *,
    resolution: float = 1.0,
    threshold: float = 1e-7,
    seed: int | None = None,
) -> tuple[IntArray, float]:
    """The community of each node ``0 … n-1`` of the graph with the edges ``a[k] - b[k]``
    (weights ``w[k]``, each once, in the order they were added) and the modularity."""
    level = Level.of_edges(n, a, b, w)
    if len(level.neighbour) == 0:
        return np.arange(n, dtype=np.int64), 0.0
    m = _total_weight(level.indptr, level.neighbour, level.weight)
    rng = random.Random(seed)
    mod = _modularity(level.indptr, level.neighbour, level.weight, np.arange(n), m, resolution)
    member = np.arange(n, dtype=np.int64)  # each original node's node at this level
    community, improved = _level_communities(level, m, resolution, rng)
    best = np.arange(n, dtype=np.int64)
    while improved:
        best = community[member]
        new_mod = _modularity(level.indptr, level.neighbour, level.weight, community, m, resolution)
        if new_mod - mod <= threshold:
            return best, new_mod
        mod = new_mod
        level = Level(*_aggregate(level.indptr, level.neighbour, level.weight, community))
        member = community[member]
        community, improved = _level_communities(level, m, resolution, rng)
    return best, mod


def compile_steps() -> None:
    """Compile the steps now (or load them from numba's cache)."""
    two = np.array([0, 1], dtype=np.int64)
    partition_arrays(3, two, two + 1, np.ones(2), seed=0)


def _level_communities(
    level: Level, m: float, resolution: float, rng: random.Random
) -> tuple[IntArray, bool]:
    """One level of moves (networkx's ``_one_level``), the communities numbered 0… in the
    order of their labels, and whether any node moved."""
    order = list(range(level.size))
    rng.shuffle(order)
    labels, improved = _one_level(
        level.indptr,
        level.neighbour,
        level.weight,
        np.array(order, dtype=np.int64),
        m,
        resolution,
    )
    _, community = np.unique(labels, return_inverse=True)
    return community.astype(np.int64), bool(improved)


@numba.njit(cache=True, nogil=True)
def _total_weight(
    indptr: IntArray, neighbour: IntArray, weight: FloatArray
) -> float:  # pragma: no cover - compiled
    """The sum of the edge weights, each edge once (networkx's ``Graph.edges`` order)."""
    total = 0.0
    for u in range(len(indptr) - 1):
        for k in range(indptr[u], indptr[u + 1]):
            if neighbour[k] >= u:
                total += weight[k]
    return total


@numba.njit(cache=True, nogil=True)
def _modularity(
    indptr: IntArray,
    neighbour: IntArray,
    weight: FloatArray,
    community: IntArray,
    m: float,
    resolution: float,
) -> float:  # pragma: no cover - compiled
    n = len(indptr) - 1
    inside = np.zeros(n)
    degree = np.zeros(n)
    for u in range(n):
        for k in range(indptr[u], indptr[u + 1]):
            v = neighbour[k]
            if v < u:
                continue
            cu, cv = community[u], community[v]
            degree[cu] += weight[k]
            degree[cv] += weight[k]
            if cu == cv:
                inside[cu] += weight[k]
    inner, squares = 0.0, 0.0
    for c in range(n):
        inner += inside[c]
        squares += degree[c] * degree[c]
    return inner / m - resolution * squares / (4 * m * m)


@numba.njit(cache=True, nogil=True)
def _one_level(
    indptr: IntArray,
    neighbour: IntArray,
    weight: FloatArray,
    order: IntArray,
    m: float,
    resolution: float,
) -> tuple[IntArray, bool]:  # pragma: no cover - compiled
    """Move nodes, in ``order``, to the neighbouring community of best gain until none
    moves; each node's community label (a node number) and whether any moved."""
    n = len(indptr) - 1
    node2com = np.arange(n)
    # networkx's weighted degree counts a self-loop twice
    degrees = np.zeros(n)
    for u in range(n):
        total, loop = 0.0, 0.0
        for k in range(indptr[u], indptr[u + 1]):
            total += weight[k]
            if neighbour[k] == u:
                loop = weight[k]
        degrees[u] = total + loop
    stot = degrees.copy()
    two_m2 = 2 * m**2  # the gains below are networkx's expressions, so its roundings too
    # the neighbouring communities of a node, in the order they are met, and their weights
    slot = np.full(n, -1)
    met = np.zeros(n, dtype=np.int64)
    weights = np.zeros(n)
    moves, improved = 1, False
    while moves:
        moves = 0
        for u in order:
            current = node2com[u]
            count = 0
            for k in range(indptr[u], indptr[u + 1]):
                v = neighbour[k]
                if v == u:
                    continue
                c = node2com[v]
                if slot[c] < 0:
                    slot[c] = count
                    met[count] = c
                    weights[count] = 0.0
                    count += 1
                weights[slot[c]] += weight[k]
            degree = degrees[u]
            stot[current] -= degree
            if slot[current] < 0:
                slot[current] = count
                met[count] = current
                weights[count] = 0.0
                count += 1
            remove_cost = (
                -weights[slot[current]] / m + resolution * (stot[current] * degree) / two_m2
            )
            best_mod, best_com = 0.0, current
            for i in range(count):
                com = met[i]
                gain = remove_cost + weights[i] / m - resolution * (stot[com] * degree) / two_m2
                if gain > best_mod:
                    best_mod, best_com = gain, com
            for i in range(count):
                slot[met[i]] = -1
            stot[best_com] += degree
            if best_com != current:
                node2com[u] = best_com
                moves += 1
                improved = True
    return node2com, improved


@numba.njit(cache=True, nogil=True)
def _aggregate(
    indptr: IntArray, neighbour: IntArray, weight: FloatArray, community: IntArray
) -> tuple[IntArray, IntArray, FloatArray]:  # pragma: no cover - compiled
    """The graph of communities, as networkx's ``_gen_graph`` builds it: one node per
    community, the weights of the ties between two communities summed in edge order (inner
    ties become a self-loop), each community's ties in the order they were first added."""
    n = len(indptr) - 1
    size = community.max() + 1
    pair_of = numba.typed.Dict.empty(numba.types.int64, numba.types.int64)
    total = np.zeros(len(neighbour))  # per community pair, in order of first sight
    entry_source = np.zeros(2 * len(neighbour), dtype=np.int64)
    entry_target = np.zeros(2 * len(neighbour), dtype=np.int64)
    entry_pair = np.zeros(2 * len(neighbour), dtype=np.int64)
    entry_added = np.zeros(2 * len(neighbour), dtype=np.int64)
    pairs, entries, added = 0, 0, 0
    for u in range(n):
        for k in range(indptr[u], indptr[u + 1]):
            v = neighbour[k]
            if v < u:
                continue
            a, b = community[u], community[v]
            key = min(a, b) * size + max(a, b)
            if key not in pair_of:
                pair_of[key] = pairs
                entry_source[entries], entry_target[entries] = a, b
                entry_pair[entries], entry_added[entries] = pairs, 2 * added
                entries += 1
                if a != b:
                    entry_source[entries], entry_target[entries] = b, a
                    entry_pair[entries], entry_added[entries] = pairs, 2 * added + 1
                    entries += 1
                pairs += 1
            total[pair_of[key]] += weight[k]
            added += 1
    order = np.argsort(entry_source[:entries] * (2 * added + 2) + entry_added[:entries])
    coarse_indptr = np.zeros(size + 1, dtype=np.int64)
    for i in range(entries):
        coarse_indptr[entry_source[i] + 1] += 1
    for c in range(size):
        coarse_indptr[c + 1] += coarse_indptr[c]
    coarse_neighbour = entry_target[:entries][order].copy()
    coarse_weight = total[entry_pair[:entries][order]]
    return coarse_indptr, coarse_neighbour, coarse_weight
