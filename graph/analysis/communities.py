"""Communities of a coauthor graph (Louvain), numbered so that the numbers mean something."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import networkx as nx
import numpy as np
import numpy.typing as npt

from scholargraph.graph.analysis.build import node_order
from scholargraph.graph.analysis.louvain import louvain_partition, partition_of_arrays


@dataclass(frozen=True)
class Communities:
    """A partition of the nodes: ``membership[node]`` is 0 for the largest community."""

    membership: dict[Hashable, int]
    modularity: float

    @property
    def groups(self) -> list[set[Hashable]]:
        """The communities as sets, largest first (index = community id)."""
        groups: list[set[Hashable]] = [set() for _ in range(len(set(self.membership.values())))]
        for node, community in self.membership.items():
            groups[community].add(node)
        return groups

    @property
    def sizes(self) -> list[int]:
        return [len(group) for group in self.groups]


def louvain(
    graph: nx.Graph,
    *,
    weight: str | None = "weight",
    resolution: float = 1.0,
    seed: int | None = 0,
    threshold: float = 1e-7,
) -> Communities:
    """Louvain communities of ``graph`` with their modularity.

    Community ids run from 0 by descending size; communities of equal size are ordered by
    their first member (ids by value), so the same graph and seed always give the same
    numbers. ``resolution`` above 1 favours smaller communities. A graph without edges has
    one community per node and modularity 0.

    Examples
    --------
    Two triangles joined by one edge:

    >>> import networkx as nx
    >>> G = nx.Graph([(1, 2), (2, 3), (1, 3), (4, 5), (5, 6), (4, 6), (3, 4), (7, 8)])
    >>> found = louvain(G, seed=42)
    >>> [sorted(group) for group in found.groups]
    [[1, 2, 3], [4, 5, 6], [7, 8]]
    >>> found.membership[5], found.modularity > 0.4
    (1, True)
    """
    if graph.is_directed() or graph.is_multigraph():
        parts: list[set[Hashable]] = nx.community.louvain_communities(
            graph, weight=weight, resolution=resolution, threshold=threshold, seed=seed
        )
        modularity = (
            float(nx.community.modularity(graph, parts, weight=weight, resolution=resolution))
            if graph.number_of_edges()
            else 0.0
        )
    else:
        parts, modularity = louvain_partition(
            graph, weight=weight, resolution=resolution, threshold=threshold, seed=seed
        )
    return _numbered(list(graph), parts, modularity)


def louvain_of_edges(
    nodes: list[Hashable],
    a: npt.NDArray[np.int64],
    b: npt.NDArray[np.int64],
    weight: npt.NDArray[np.float64],
    *,
    resolution: float = 1.0,
    seed: int | None = 0,
    threshold: float = 1e-7,
) -> Communities:
    """:func:`louvain` of the graph of ``nodes`` and the edges ``nodes[a[k]] - nodes[b[k]]``
    weighing ``weight[k]`` (each once), without building a ``Graph``: the same communities as
    a ``Graph`` with these nodes and edges added in this order."""
    parts, modularity = partition_of_arrays(
        nodes, a, b, weight, resolution=resolution, threshold=threshold, seed=seed
    )
    return _numbered(nodes, parts, modularity)


def _numbered(nodes: list[Hashable], parts: list[set[Hashable]], modularity: float) -> Communities:
    ranked = sorted(parts, key=lambda part: (-len(part), min(node_order(n) for n in part)))
    number = {node: number for number, part in enumerate(ranked) for node in part}
    membership = {node: number[node] for node in nodes}
    return Communities(membership=membership, modularity=modularity)
