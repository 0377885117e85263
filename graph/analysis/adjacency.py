"""Edge lists as compressed adjacency: each node's ties in one run of an array, as the
compiled steps (Louvain, ForceAtlas2) and the coauthor projection walk them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]


def both_ways(n: int, a: IntArray, b: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The edges ``a[k] - b[k]`` of a graph of nodes ``0 … n-1`` as entries at both their
    ends (a self-loop: one entry), grouped by node, each node's entries in the order of
    their edges: node u's entries are ``indptr[u]:indptr[u + 1]``, leading to
    ``neighbour[i]`` along edge number ``edge[i]`` (index edge attributes with it).

    >>> indptr, neighbour, edge = both_ways(3, np.array([0, 1, 2]), np.array([1, 2, 2]))
    >>> indptr.tolist(), neighbour.tolist(), edge.tolist()
    ([0, 1, 3, 5], [1, 0, 2, 1, 2], [0, 0, 1, 1, 2])
    """
    m = len(a)
    source = np.empty(2 * m, dtype=np.int64)
    target = np.empty(2 * m, dtype=np.int64)
    source[0::2], source[1::2] = a, b
    target[0::2], target[1::2] = b, a
    kept = np.ones(2 * m, dtype=np.bool_)
    kept[1::2] = a != b
    edge = np.repeat(np.arange(m, dtype=np.int64), 2)[kept]
    source, target = source[kept], target[kept]
    order = np.argsort(source, kind="stable")  # keeps each node's entries in edge order
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(source, minlength=n), out=indptr[1:])
    return indptr, target[order], edge[order]
