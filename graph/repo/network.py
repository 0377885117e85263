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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import networkx as nx
import numpy as np

from scholargraph.graph.analysis.build import ego
from scholargraph.graph.analysis.communities import louvain_of_edges
from scholargraph.graph.analysis.layout import forceatlas2_arrays
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo.projection import CoauthorIndex, Walk
from scholargraph.queries import Query
from scholargraph.queries import read_network as q


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
    projections: CoauthorIndex | None = None,
) -> Network:
    """The network around ``center``, walked on the current projection of ``projections``
    when there is one and the graph has not changed since (then in one statement), otherwise
    on the database; both give the same network."""
    if depth < 0 or max_nodes < 1 or min_joint_papers < 1:
        raise BadInput("need depth >= 0, maxNodes >= 1 and minJointPapers >= 1")
    if max_authors is not None and max_authors < 2:
        raise BadInput(f"maxAuthors must be 2 or more (a tie needs two authors), not {max_authors}")
    projection = projections.projection if projections is not None else None
    if projections is not None and projection is not None and max_authors is None:
        walk = projection.walk(
            center,
            depth=depth,
            max_nodes=max_nodes,
            min_joint_papers=min_joint_papers,
            year_from=year_from,
            year_to=year_to,
        )
        rows, seen = await db.run_seen(q.NODE_FIELDS, {"ids": walk.nodes})
        if seen == projection.bookmark:
            node_rows = [dict(zip(_NODE_FIELDS, row, strict=True)) for row in rows[0]["rows"]]
            return await _drawn(walk, center, node_rows, seed)
        projections.changed(projection)
    walk, node_rows = await _walk_on_database(
        db,
        center,
        depth=depth,
        max_nodes=max_nodes,
        walk={
            "min_joint": min_joint_papers,
            "year_from": year_from,
            "year_to": year_to,
            "max_authors": max_authors,
        },
    )
    return await _drawn(walk, center, node_rows, seed)


async def _walk_on_database(
    db: Database, center: int, *, depth: int, max_nodes: int, walk: dict[str, Any]
) -> tuple[Walk, list[dict[str, Any]]]:
    edges_from, nodes_query = (
        (q.EDGES_FROM, q.NODES)
        if walk["max_authors"] is None
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
        kept = ego(graph, center, hop, max_nodes, walk["min_joint"])
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
    ties = sorted(
        (min(a, b), max(a, b), data["joint_papers"], data["first_year"], data["last_year"])
        for a, b, data in kept.edges(data=True)
    )
    found = Walk(
        nodes=list(kept.nodes),
        hops=[hop for _, hop in kept.nodes(data="hop")],
        truncated=bool(kept.graph.get("truncated")),
        ties=ties,
    )
    return found, node_rows


# A researcher's fields in a row of ``read_network.NODE_FIELDS`` (and of ``NODES``, before
# its ring ties).
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


async def _drawn(walk: Walk, center: int, node_rows: list[dict[str, Any]], seed: int) -> Network:
    if not any(row["id"] == center for row in node_rows):
        raise NotFound(f"no researcher {center}")
    return await asyncio.to_thread(_draw, walk, center, node_rows, seed)


def _draw(walk: Walk, center: int, node_rows: list[dict[str, Any]], seed: int) -> Network:
    # The same walk always makes the same graph (nodes in walk order, ties sorted), so the
    # seeded communities and layout do not depend on the order the database gave ties in.
    index = {node: i for i, node in enumerate(walk.nodes)}
    src = np.fromiter((index[a] for a, *_ in walk.ties), dtype=np.int64, count=len(walk.ties))
    dst = np.fromiter((index[b] for _, b, *_ in walk.ties), dtype=np.int64, count=len(walk.ties))
    joint = np.fromiter((tie[2] for tie in walk.ties), dtype=np.float64, count=len(walk.ties))
    found = louvain_of_edges(list(walk.nodes), src, dst, joint, seed=seed)
    xy = forceatlas2_arrays(len(walk.nodes), src, dst, joint.astype(np.float32), seed=seed).tolist()
    layout = dict(zip(walk.nodes, xy, strict=True))
    hop_of = dict(zip(walk.nodes, walk.hops, strict=True))
    nodes = tuple(
        NetworkNode(
            id=row["id"],
            name=row["name"],
            slug=row.get("slug") or "",
            paper_count=row.get("paper_count") or 0,
            citation_count=row.get("citation_count") or 0,
            h_index=row.get("h_index"),
            mean_year=row.get("mean_year"),
            hop=hop_of[row["id"]],
            community=found.membership[row["id"]],
            x=layout[row["id"]][0],
            y=layout[row["id"]][1],
        )
        for row in sorted(node_rows, key=lambda r: (hop_of[r["id"]], r["id"]))
    )
    return Network(
        center=center,
        nodes=nodes,
        edges=tuple(NetworkEdge._make(tie) for tie in walk.ties),  # by source, then target
        truncated=walk.truncated,
        modularity=found.modularity,
        community_count=len(found.sizes),
    )
