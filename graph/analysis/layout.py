"""ForceAtlas2 layout of a coauthor graph, compiled for graphs of a few thousand nodes.

The forces are those of ForceAtlas2 (Jacomy et al. 2014, PLoS ONE 9(6): e98679) as Gephi
computes them: node mass ``degree + 1``; linear (or lin-log) attraction along edges scaled by
the edge weight; repulsion ``scaling_ratio * m_i * m_j / d``; gravity ``gravity * m_i``
towards the origin (``* d`` with ``strong_gravity``); with ``dissuade_hubs`` each node's
attraction is divided by its mass, which pushes hubs to the periphery and authorities to the
centre. Speed adapts per node from its swing, as in Gephi.

``networkx.forceatlas2_layout`` computes the same forces on dense ``n × n × 2`` float64 arrays
(about 0.1 s an iteration at 2,000 nodes, 0.4 s for the first), and numpy over blocks of the
repulsion matrix still spends most of a small network's time calling numpy. Here the steps
are one loop compiled by numba (cached on disk after the first call): attraction over each
node's ties, repulsion over its component, a 250-node network in about 3 ms. Repulsion is
exact, so a step costs ``O(n²)``: the function is meant for the networks a person looks at
(up to ~10,000 nodes), not for the whole graph.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from itertools import pairwise
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt

from scholargraph.graph.analysis.adjacency import both_ways
from scholargraph.graph.analysis.jit import numba
from scholargraph.graph.errors import BadInput

Position = tuple[float, float]
FloatArray = npt.NDArray[np.floating[Any]]

_SOFTENING = 1e-6


def forceatlas2(
    graph: nx.Graph,
    *,
    seed: int | None = 0,
    weight: str | None = "weight",
    max_iter: int = 60,
    scaling_ratio: float = 2.0,
    gravity: float = 1.0,
    strong_gravity: bool = False,
    dissuade_hubs: bool = False,
    linlog: bool = False,
    jitter_tolerance: float = 1.0,
    initial: Mapping[Hashable, Position] | None = None,
) -> dict[Hashable, Position]:
    """Lay ``graph`` out with ForceAtlas2 and return ``{node: (x, y)}`` inside the box [-1, 1]².

    Nodes start at ``initial`` when given (say, the previous layout of a network that has
    just been expanded; missing nodes start at random), otherwise at seeded random positions:
    the same graph, parameters and seed give the same layout. ``weight`` names the edge
    attribute that scales attraction (``None``: every edge pulls as one).

    Connected components are laid out apart (they do not repel each other) and then packed
    side by side, largest first: under ForceAtlas2's gravity a lone node or pair otherwise
    drifts far from the rest and squeezes the picture into a corner of the box.

    The default 60 iterations from a random start bring a 2,000-node coauthor network within
    about 5% of the (relative) edge length it reaches after hundreds; raise ``max_iter`` for
    print.

    Examples
    --------
    Two triangles joined by one edge end up as two clusters:

    >>> import networkx as nx
    >>> G = nx.Graph([(1, 2), (2, 3), (1, 3), (4, 5), (5, 6), (4, 6), (3, 4)])
    >>> pos = forceatlas2(G, seed=1)
    >>> sorted(pos) == [1, 2, 3, 4, 5, 6]
    True
    >>> all(-1.0 <= c <= 1.0 for xy in pos.values() for c in xy)
    True
    >>> def dist(a, b):
    ...     return ((pos[a][0] - pos[b][0]) ** 2 + (pos[a][1] - pos[b][1]) ** 2) ** 0.5
    >>> dist(1, 2) < dist(1, 6)
    True
    """
    if max_iter < 0:
        raise BadInput(f"max_iter must be at least 0, not {max_iter}")
    if len(graph) == 0:
        return {}
    nodes = list(graph)
    index = {node: i for i, node in enumerate(nodes)}
    src, dst, strengths = _edge_arrays(graph, index, weight)
    start = None
    if initial:
        start = {index[node]: xy for node, xy in initial.items() if node in index}
    pos = forceatlas2_arrays(
        len(nodes),
        src,
        dst,
        strengths,
        seed=seed,
        max_iter=max_iter,
        scaling_ratio=scaling_ratio,
        gravity=gravity,
        strong_gravity=strong_gravity,
        dissuade_hubs=dissuade_hubs,
        linlog=linlog,
        jitter_tolerance=jitter_tolerance,
        initial=start,
    )
    return dict(zip(nodes, map(tuple, pos.tolist()), strict=True))


def forceatlas2_arrays(
    n: int,
    src: npt.NDArray[np.intp],
    dst: npt.NDArray[np.intp],
    strengths: FloatArray,
    *,
    seed: int | None = 0,
    max_iter: int = 60,
    scaling_ratio: float = 2.0,
    gravity: float = 1.0,
    strong_gravity: bool = False,
    dissuade_hubs: bool = False,
    linlog: bool = False,
    jitter_tolerance: float = 1.0,
    initial: Mapping[int, Position] | None = None,
) -> npt.NDArray[np.float64]:
    """:func:`forceatlas2` of the graph of nodes ``0 … n-1`` and edges ``src[k] - dst[k]``
    (each once, no self-loops) pulling with ``strengths[k]``: the positions as an
    ``(n, 2)`` array, row ``i`` for node ``i``; ``initial`` by node number."""
    if max_iter < 0:
        raise BadInput(f"max_iter must be at least 0, not {max_iter}")
    if n == 0:
        return np.zeros((0, 2))
    # Nodes grouped by component, largest first: ``order[k]`` is the node at place k.
    order, component = _by_component(n, src, dst)
    place = np.empty(n, dtype=np.intp)
    place[order] = np.arange(n, dtype=np.intp)
    src, dst = place[src], place[dst]
    mass = (np.bincount(np.concatenate([src, dst]), minlength=n) + 1).astype(np.float64)
    placed_initial = None if initial is None else {int(place[i]): xy for i, xy in initial.items()}
    pos = _initial_positions(n, placed_initial, seed).astype(np.float64)
    indptr, neighbour, edge = both_ways(n, src, dst)
    bounds = np.flatnonzero(np.diff(component)) + 1
    starts = np.concatenate([[0], bounds]).astype(np.intp)
    stops = np.concatenate([bounds, [n]]).astype(np.intp)
    _iterate(
        pos,
        mass,
        starts[component],
        stops[component],
        indptr,
        neighbour,
        strengths[edge].astype(np.float64),
        max_iter,
        scaling_ratio,
        gravity,
        strong_gravity,
        dissuade_hubs,
        linlog,
        jitter_tolerance,
    )
    if component[-1] > 0:
        pos = _pack_components(pos, component, _typical_edge_length(pos, src, dst))
    return _normalised(pos[place])


def compile_steps() -> None:
    """Compile ForceAtlas2's steps now (or load them from numba's cache)."""
    one = np.array([0], dtype=np.intp)
    forceatlas2_arrays(2, one, one + 1, np.ones(1, dtype=np.float32), max_iter=1)


def _normalised(pos: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """:func:`normalise` of an ``(n, 2)`` array."""
    low, high = pos.min(axis=0), pos.max(axis=0)
    half = float((high - low).max()) / 2 or 1.0
    centred: npt.NDArray[np.float64] = (pos - (high + low) / 2) / half
    return centred


def normalise(pos: Mapping[Hashable, Any]) -> dict[Hashable, Position]:
    """Centre ``pos`` and scale it uniformly so that it fits the box [-1, 1]².

    The aspect ratio is kept: the wider side spans [-1, 1]. A single point goes to the origin.

    >>> normalise({"a": (0, 0), "b": (4, 2)})
    {'a': (-1.0, -0.5), 'b': (1.0, 0.5)}
    """
    if not pos:
        return {}
    xs = [float(p[0]) for p in pos.values()]
    ys = [float(p[1]) for p in pos.values()]
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    half = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0
    return {
        node: ((x - cx) / half, (y - cy) / half) for node, x, y in zip(pos, xs, ys, strict=True)
    }


def _edge_arrays(
    graph: nx.Graph, index: Mapping[Hashable, int], weight: str | None
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray]:
    edges = [(index[u], index[v], data) for u, v, data in graph.edges(data=True) if u != v]
    src = np.fromiter((u for u, _, _ in edges), dtype=np.intp, count=len(edges))
    dst = np.fromiter((v for _, v, _ in edges), dtype=np.intp, count=len(edges))
    strengths = np.fromiter(
        (float(data.get(weight, 1.0)) if weight else 1.0 for _, _, data in edges),
        dtype=np.float32,
        count=len(edges),
    )
    return src, dst, strengths


def _initial_positions(
    n: int, initial: Mapping[int, Position] | None, seed: int | None
) -> FloatArray:
    # Start on the scale of the final layout (its radius grows like sqrt(n)) so that the
    # first steps spread nodes out instead of first exploding a tiny cloud.
    side = 10.0 * math.sqrt(n)
    rng = np.random.default_rng(seed)
    pos: FloatArray = ((rng.random((n, 2)) - 0.5) * side).astype(np.float32)
    if initial:
        given = sorted(initial)
        start = np.array([initial[i] for i in given], dtype=np.float32)
        pos[given] = start * (side / 2) / max(float(np.abs(start).max()), 1e-12)
    return pos


@numba.njit(cache=True, nogil=True)
def _component_labels(
    n: int, src: npt.NDArray[np.int64], dst: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:  # pragma: no cover - compiled
    """Connected components by union-find, numbered in the order of each one's first node."""
    parent = np.arange(n)
    for k in range(src.shape[0]):
        a, b = src[k], dst[k]
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a != b:
            if a < b:
                parent[b] = a
            else:
                parent[a] = b
    labels = np.full(n, -1, dtype=np.int64)
    count = 0
    for i in range(n):
        root = i
        while parent[root] != root:
            root = parent[root]
        if labels[root] < 0:
            labels[root] = count
            count += 1
        labels[i] = labels[root]
    return labels


def _by_component(
    n: int, src: npt.NDArray[np.intp], dst: npt.NDArray[np.intp]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The nodes grouped by connected component, and each place's component number.

    Component 0 is the largest (ties: the one whose first node comes first); a component's
    nodes keep their order, so the numbers never decrease.
    """
    labels = _component_labels(n, src.astype(np.int64), dst.astype(np.int64))
    count = int(labels.max()) + 1 if n else 0
    sizes = np.bincount(labels, minlength=count)
    rank = np.empty(count, dtype=np.intp)
    rank[np.lexsort((np.arange(count), -sizes))] = np.arange(count, dtype=np.intp)
    component = rank[labels]
    order = np.lexsort((np.arange(n), component))
    return order.astype(np.intp), component[order].astype(np.intp)


# fastmath lets the repulsion sums run in SIMD lanes (several times faster; the last bits of
# a layout may then differ between processors), and numpy's error model drops the checks for
# division by zero that would keep them from it.
@numba.njit(cache=True, nogil=True, fastmath=True, error_model="numpy")
def _iterate(
    pos: npt.NDArray[np.float64],
    mass: npt.NDArray[np.float64],
    start: npt.NDArray[np.intp],
    stop: npt.NDArray[np.intp],
    indptr: npt.NDArray[np.intp],
    neighbour: npt.NDArray[np.intp],
    strength: npt.NDArray[np.float64],
    max_iter: int,
    scaling_ratio: float,
    gravity: float,
    strong_gravity: bool,
    dissuade_hubs: bool,
    linlog: bool,
    jitter_tolerance: float,
) -> None:  # pragma: no cover - compiled; run through forceatlas2_arrays
    """ForceAtlas2's steps, moving ``pos`` in place. Nodes come grouped by component; node i
    repels the nodes ``start[i]:stop[i]`` (its component) and is pulled by its ties
    ``neighbour[indptr[i]:indptr[i + 1]]`` with ``strength``."""
    n = pos.shape[0]
    x, y = pos[:, 0].copy(), pos[:, 1].copy()  # contiguous, for the repulsion loop
    forces = np.zeros((n, 2))
    old = np.zeros((n, 2))
    swinging = np.zeros(n)
    speed, efficiency = 1.0, 1.0
    for _ in range(max_iter):
        for i in range(n):
            xi, yi, mi = x[i], y[i], mass[i]
            # repulsion: scaling_ratio * m_i * m_j / d (a node and itself add nothing)
            xs, ys, ms = x[start[i] : stop[i]], y[start[i] : stop[i]], mass[start[i] : stop[i]]
            rx, ry = 0.0, 0.0
            for j in range(xs.shape[0]):
                dx, dy = xi - xs[j], yi - ys[j]
                push = ms[j] / (dx * dx + dy * dy + _SOFTENING)
                rx += dx * push
                ry += dy * push
            fx, fy = scaling_ratio * mi * rx, scaling_ratio * mi * ry
            # attraction along ties: linear, or lin-log (log(1 + d) / d per unit of distance)
            ax, ay = 0.0, 0.0
            for k in range(indptr[i], indptr[i + 1]):
                j = neighbour[k]
                dx, dy = x[j] - xi, y[j] - yi
                pull = strength[k]
                if linlog:
                    d = np.sqrt(dx * dx + dy * dy)
                    pull = pull * np.log1p(d) / d if d > 0 else 0.0
                ax += dx * pull
                ay += dy * pull
            if dissuade_hubs:
                ax, ay = ax / mi, ay / mi
            fx, fy = fx + ax, fy + ay
            # gravity towards the origin: constant (gravity * m), or growing with d (strong)
            if strong_gravity:
                fx, fy = fx - xi * gravity * mi, fy - yi * gravity * mi
            else:
                d = np.sqrt(xi * xi + yi * yi)
                if d > 0:
                    fx, fy = fx - xi * gravity * mi / d, fy - yi * gravity * mi / d
            forces[i, 0], forces[i, 1] = fx, fy
        total_swing, total_traction = 0.0, 0.0
        for i in range(n):
            sx, sy = forces[i, 0] - old[i, 0], forces[i, 1] - old[i, 1]
            tx, ty = forces[i, 0] + old[i, 0], forces[i, 1] + old[i, 1]
            swinging[i] = mass[i] * np.sqrt(sx * sx + sy * sy)
            total_swing += swinging[i]
            total_traction += 0.5 * mass[i] * np.sqrt(tx * tx + ty * ty)
        speed, efficiency = _adapt_speed(
            n, total_swing, total_traction, speed, efficiency, jitter_tolerance
        )
        for i in range(n):
            step = speed / (1.0 + np.sqrt(speed * swinging[i]))
            x[i] += forces[i, 0] * step
            y[i] += forces[i, 1] * step
            old[i, 0], old[i, 1] = forces[i, 0], forces[i, 1]
    pos[:, 0] = x
    pos[:, 1] = y


@numba.njit(cache=True, nogil=True)
def _adapt_speed(
    n: int,
    swinging: float,
    traction: float,
    speed: float,
    efficiency: float,
    jitter_tolerance: float,
) -> tuple[float, float]:  # pragma: no cover - compiled
    """Gephi's global speed: as fast as the swinging of the nodes allows."""
    optimal_jitter = 0.05 * np.sqrt(n)
    jitter = jitter_tolerance * max(
        np.sqrt(optimal_jitter), min(10.0, optimal_jitter * traction / n**2)
    )
    min_efficiency = 0.05
    if traction > 0 and swinging / traction > 2.0:
        if efficiency > min_efficiency:
            efficiency *= 0.5
        jitter = max(jitter, jitter_tolerance)
    if swinging == 0:
        return speed, efficiency
    target = jitter * efficiency * traction / swinging
    if swinging > jitter * traction:
        if efficiency > min_efficiency:
            efficiency *= 0.7
    elif speed < 1000:
        efficiency *= 1.3
    # Speed may rise by at most 50% a step, or convergence collapses.
    return speed + min(target - speed, 0.5 * speed), efficiency


def _typical_edge_length(
    pos: FloatArray, src: npt.NDArray[np.intp], dst: npt.NDArray[np.intp]
) -> float:
    if len(src) == 0:
        return 1.0
    return float(np.median(np.linalg.norm(pos[src] - pos[dst], axis=1))) or 1.0


def _pack_components(
    pos: npt.NDArray[np.float64], component: npt.NDArray[np.intp], gap: float
) -> npt.NDArray[np.float64]:
    """Shelf-pack the components' bounding boxes in rows, largest first (components are
    contiguous runs of ``component``)."""
    starts = [0, *(np.flatnonzero(np.diff(component)) + 1).tolist(), len(component)]
    members = [slice(a, b) for a, b in pairwise(starts)]
    low = np.array([pos[m].min(axis=0) for m in members])
    high = np.array([pos[m].max(axis=0) for m in members])
    boxes = high - low + gap
    row_width = max(float(boxes[:, 0].max()), float(np.sqrt((boxes[:, 0] * boxes[:, 1]).sum())))
    packed = np.empty_like(pos)
    x = top = row_height = 0.0
    for m, lo, (width, height) in zip(members, low, boxes, strict=True):
        if x > 0 and x + width > row_width:
            x, top, row_height = 0.0, top - row_height, 0.0
        packed[m] = pos[m] - lo + (x, top - height)
        x += width
        row_height = max(row_height, float(height))
    return packed
