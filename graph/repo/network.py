"""A researcher's coauthor network, ready to draw: nodes with communities and a layout.

The walk follows ``COAUTHOR`` edges with at least ``min_joint_papers`` joint papers (with a
year window: edges whose joint years overlap it), strongest ties first, as
:func:`graph.analysis.build.ego` does: hop by hop, and cut at ``max_nodes``. Each hop is one
query over the whole frontier, and one more fetches the nodes and the edges among the
outermost ring, so a network costs ``depth + 1`` statements whatever its size (each sent as
two halves at once when it covers many researchers, see :data:`SPLIT_AT`).

With ``max_authors`` the ties are recounted from the papers with at most that many authors
(a 40-author paper says little about who works with whom), so the walk, the joint-paper
counts and the edge widths all rest on the small papers only.

Communities are Louvain's (seeded) on joint-paper weights; the layout is ForceAtlas2
(seeded) in the box [-1, 1]², so the same network always looks the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import networkx as nx

from graph.analysis.build import ego
from graph.analysis.communities import louvain
from graph.analysis.layout import forceatlas2
from graph.db import Database
from graph.errors import BadInput, NotFound
from queries import Query
from queries import read_network as q


@dataclass(frozen=True, slots=True)
class NetworkNode:
    id: int
    name: str
    slug: str
    paper_count: int
    citation_count: int
    h_index: int | None
    mean_year: float | None
    hop: int
    community: int
    x: float
    y: float


class NetworkEdge(NamedTuple):  # a tuple: a network has thousands, made in one go
    source: int
    target: int
    joint_papers: int
    first_year: int | None
    last_year: int | None


@dataclass(frozen=True, slots=True)
class Network:
    center: int
    nodes: tuple[NetworkNode, ...]
    edges: tuple[NetworkEdge, ...]
    truncated: bool
    modularity: float
    community_count: int


async def coauthor_network(
    db: Database,
    center: int,
    *,
    depth: int = 1,
    max_nodes: int = 200,
    min_joint_papers: int = 1,
    year_from: int | None = None,
    year_to: int | None = None,
    max_authors: int | None = None,
    seed: int = 0,
) -> Network:
    if depth < 0 or max_nodes < 1 or min_joint_papers < 1:
        raise BadInput("need depth >= 0, maxNodes >= 1 and minJointPapers >= 1")
    if max_authors is not None and max_authors < 2:
        raise BadInput(f"maxAuthors must be 2 or more (a tie needs two authors), not {max_authors}")
    walk = {
        "min_joint": min_joint_papers,
        "year_from": year_from,
        "year_to": year_to,
        "max_authors": max_authors,
    }
    edges_from, nodes_query = (
        (q.EDGES_FROM, q.NODES)
        if max_authors is None
        else (q.EDGES_FROM_SMALL_PAPERS, q.NODES_SMALL_PAPERS)
    )
    graph = nx.Graph()
    graph.add_node(center)
    kept = ego(graph, center, 0)
    frontier = [center]
    reached = 0
    for hop in range(1, depth + 1):
        for a, ties in await _split_run(db, edges_from, frontier, walk):
            _add_ties(graph, a, ties)
        kept = ego(graph, center, hop, max_nodes, min_joint_papers)
        frontier = [node for node, h in kept.nodes(data="hop") if h == hop]
        if not frontier:
            break
        reached = hop
        if len(kept) >= max_nodes:
            break  # full: a further hop could add no one, only the ring's own ties remain
    ring = [node for node, h in kept.nodes(data="hop") if h == reached and reached > 0]
    node_rows = []
    for *fields, ring_ties in await _split_run(
        db, nodes_query, list(kept.nodes), {"ring": ring, **walk}
    ):
        node_rows.append(dict(zip(_NODE_FIELDS, fields, strict=True)))
        _add_ties(kept, fields[0], ring_ties)
    if not any(row["id"] == center for row in node_rows):
        raise NotFound(f"no researcher {center}")
    return await asyncio.to_thread(_drawn, kept, center, node_rows, seed)


# The researcher's fields in a row of ``read_network.NODES``, before its ring ties.
_NODE_FIELDS = ("id", "name", "slug", "paper_count", "citation_count", "h_index", "mean_year")


# Reads over this many researchers or more are sent as two statements at once, over halves
# of the ids: the server runs them on two cores, which nearly halves the wait for the big
# networks of dense coauthor graphs. Two, whatever the size, so a network's statements stay
# a constant number.
SPLIT_AT = 128


async def _split_run(
    db: Database, query: Query, ids: list[int], params: Mapping[str, Any]
) -> list[Any]:
    """The statement's ``rows`` (of both, split)."""
    if len(ids) < SPLIT_AT:
        return await db.run_rows(query, {"ids": ids, **params})
    half = len(ids) // 2
    first, second = await asyncio.gather(
        db.run_rows(query, {"ids": ids[:half], **params}),
        db.run_rows(query, {"ids": ids[half:], **params}),
    )
    return first + second


def _add_ties(graph: nx.Graph, a: int, ties: list[list[Any]]) -> None:
    """Ties as ``[b, joint_papers, first_year, last_year]``."""
    graph.add_edges_from(
        (a, b, {"joint_papers": joint, "weight": joint, "first_year": first, "last_year": last})
        for b, joint, first, last in ties
    )


def _drawn(graph: nx.Graph, center: int, node_rows: list[dict[str, Any]], seed: int) -> Network:
    found = louvain(graph, seed=seed)
    layout: dict[Hashable, tuple[float, float]] = forceatlas2(graph, seed=seed)
    nodes = tuple(
        NetworkNode(
            id=row["id"],
            name=row["name"],
            slug=row.get("slug") or "",
            paper_count=row.get("paper_count") or 0,
            citation_count=row.get("citation_count") or 0,
            h_index=row.get("h_index"),
            mean_year=row.get("mean_year"),
            hop=graph.nodes[row["id"]]["hop"],
            community=found.membership[row["id"]],
            x=layout[row["id"]][0],
            y=layout[row["id"]][1],
        )
        for row in sorted(node_rows, key=lambda r: (graph.nodes[r["id"]]["hop"], r["id"]))
    )
    edges = [
        NetworkEdge(
            source=min(a, b),
            target=max(a, b),
            joint_papers=data["joint_papers"],
            first_year=data.get("first_year"),
            last_year=data.get("last_year"),
        )
        for a, b, data in graph.edges(data=True)
    ]
    edges.sort()  # by source, then target: no pair comes twice
    return Network(
        center=center,
        nodes=nodes,
        edges=tuple(edges),
        truncated=bool(graph.graph.get("truncated")),
        modularity=found.modularity,
        community_count=len(found.sizes),
    )
