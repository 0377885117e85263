"""Coauthor graphs built from plain rows, and ego networks cut from them.

The graph is an undirected :class:`networkx.Graph` whose nodes are researcher ids. Node
attributes come from the node rows (any keys; the schema's ``paper_count`` and
``citation_count`` are renamed ``papers`` and ``citations``); edges carry ``joint_papers``,
``first_year``, ``last_year`` and ``weight``. Attributes that are ``None`` are left out, so
every graph can be exported as it is.

Two kinds of rows build it:

* materialised ``COAUTHOR`` edges, ``{"a", "b", "joint_papers", "first_year", "last_year"}``:
  cheap, but their counts cover whole careers;
* authorships, ``{"paper", "year", "n_authors", "researcher"}``: one row per author slot,
  from which counts are exact for any year window, and fractional weights are possible.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

import networkx as nx

from scholargraph.graph.errors import BadInput, NotFound

Row = Mapping[str, Any]
YearWindow = tuple[int | None, int | None]
Weighting = Literal["joint_papers", "fractional"]

DEFAULT_MAX_AUTHORS = 100  # the COAUTHOR cap's default: larger papers add no coauthor edges
_RENAMED = {"paper_count": "papers", "citation_count": "citations"}


def node_order(node: Hashable) -> tuple[int, int, str]:
    """Sort key that breaks ties between nodes the same way every time (ints by value)."""
    if isinstance(node, int):
        return (0, node, "")
    return (1, 0, str(node))


def coauthor_graph_from_edges(
    edges: Iterable[Row],
    nodes: Iterable[Row] = (),
    *,
    years: YearWindow | None = None,
    min_weight: float = 0.0,
) -> nx.Graph:
    """Build the coauthor graph from ``COAUTHOR`` edge rows (and researcher node rows).

    ``weight`` is ``joint_papers``. With a year window ``(year_from, year_to)`` (either end
    ``None`` for open) an edge is kept when the span from its first to its last joint year
    overlaps the window; its counts stay whole-career counts, so build from authorships for
    exact counts inside a window. Edges without years are dropped when a window is given.
    A pair given twice (an undirected match returns each stored edge once per direction) is
    merged, not counted twice. Every node row becomes a node, even without edges.

    Examples
    --------
    >>> G = coauthor_graph_from_edges(
    ...     [{"a": 1, "b": 2, "joint_papers": 3, "first_year": 2019, "last_year": 2023},
    ...      {"a": 2, "b": 1, "joint_papers": 3, "first_year": 2019, "last_year": 2023},
    ...      {"a": 2, "b": 3, "joint_papers": 1, "first_year": 2015, "last_year": 2015}],
    ...     [{"id": 1, "name": "Ziming Liu", "paper_count": 1, "h_index": None}],
    ...     years=(2018, None),
    ... )
    >>> G.edges[1, 2]["weight"], G.number_of_edges()
    (3, 1)
    >>> G.nodes[1]
    {'name': 'Ziming Liu', 'papers': 1}
    """
    graph = nx.Graph(weighting="joint_papers")
    _add_node_rows(graph, nodes)
    for row in edges:
        a, b = _required(row, "a"), _required(row, "b")
        if a == b:
            continue
        first, last = row.get("first_year"), row.get("last_year")
        if years is not None and not _span_overlaps(first or last, last or first, years):
            continue
        joint = int(row.get("joint_papers") or 0)
        if graph.has_edge(a, b):
            data = graph.edges[a, b]
            joint = max(joint, data["joint_papers"])
            first = _min_year(first, data.get("first_year"))
            last = _max_year(last, data.get("last_year"))
        if joint < min_weight:
            continue
        attrs = {"joint_papers": joint, "first_year": first, "last_year": last, "weight": joint}
        graph.add_edge(a, b, **_without_none(attrs))
    return graph


@dataclass
class _Pair:
    joint_papers: int = 0
    weight: float = 0.0
    years: list[int] = field(default_factory=list)


def coauthor_graph_from_authorships(
    rows: Iterable[Row],
    nodes: Iterable[Row] = (),
    *,
    weighting: Weighting = "joint_papers",
    years: YearWindow | None = None,
    max_authors: int | None = DEFAULT_MAX_AUTHORS,
    min_weight: float = 0.0,
) -> nx.Graph:
    """Build the coauthor graph from authorship rows, one per (paper, researcher).

    Counting rules:

    * ``years=(year_from, year_to)`` keeps papers published in that inclusive range (either
      end ``None`` for open); papers without a year are dropped when a window is given.
    * A paper with more than ``max_authors`` authors (``n_authors``, or the researchers seen
      on it when that is missing) adds no edges, as the materialised ``COAUTHOR`` edges
      leave it out; it still counts in its authors' ``papers``. ``None`` keeps every paper.
    * ``joint_papers`` counts the papers a pair shares. ``weight`` is that count with
      ``weighting="joint_papers"``; with ``"fractional"`` it is Newman's fractional count
      (Newman 2001, Phys. Rev. E 64, 016132): a paper with ``n`` authors adds ``1/(n-1)``
      to each of its pairs, so every multi-author paper gives each author a total of 1 and
      a 300-author paper does not outweigh a lifelong two-person collaboration. ``n`` is the
      paper's full author count, matched or not.
    * Edges whose weight is below ``min_weight`` are dropped.

    Each researcher gets ``papers`` (papers in the window) and ``mean_year`` (mean year of
    those with a year), which replace any such attribute of the node rows.

    Examples
    --------
    A three-author paper in 2020 and a two-author paper in 2022:

    >>> rows = [
    ...     {"paper": "2001.00001", "year": 2020, "n_authors": 3, "researcher": 1},
    ...     {"paper": "2001.00001", "year": 2020, "n_authors": 3, "researcher": 2},
    ...     {"paper": "2001.00001", "year": 2020, "n_authors": 3, "researcher": 3},
    ...     {"paper": "2203.00002", "year": 2022, "n_authors": 2, "researcher": 1},
    ...     {"paper": "2203.00002", "year": 2022, "n_authors": 2, "researcher": 2},
    ... ]
    >>> G = coauthor_graph_from_authorships(rows, weighting="fractional")
    >>> G.edges[1, 2]
    {'joint_papers': 2, 'first_year': 2020, 'last_year': 2022, 'weight': 1.5}
    >>> G.edges[1, 3]["weight"], G.degree(3, weight="weight")
    (0.5, 1.0)
    >>> coauthor_graph_from_authorships(rows, years=(2021, None)).number_of_edges()
    1
    >>> coauthor_graph_from_authorships(rows, max_authors=2).edges[1, 2]["joint_papers"]
    1
    """
    if weighting not in ("joint_papers", "fractional"):
        raise BadInput(f"weighting must be 'joint_papers' or 'fractional', not {weighting!r}")
    graph = nx.Graph(weighting=weighting)
    _add_node_rows(graph, nodes)

    papers: dict[Hashable, tuple[int | None, int | None, dict[Hashable, None]]] = {}
    for row in rows:
        key, researcher = _required(row, "paper"), _required(row, "researcher")
        year, n_authors = row.get("year"), row.get("n_authors")
        if years is not None and not _span_overlaps(year, year, years):
            continue
        papers.setdefault(key, (year, n_authors, {}))[2][researcher] = None

    pairs: dict[tuple[Hashable, Hashable], _Pair] = {}
    years_of: dict[Hashable, list[int]] = {}
    counts: dict[Hashable, int] = {}
    for year, n_authors, authors in papers.values():
        members = sorted(authors, key=node_order)
        for researcher in members:
            counts[researcher] = counts.get(researcher, 0) + 1
            if year is not None:
                years_of.setdefault(researcher, []).append(year)
        n = max(int(n_authors or 0), len(members))
        if len(members) < 2 or (max_authors is not None and n > max_authors):
            continue
        share = 1.0 / (n - 1) if weighting == "fractional" else 1.0
        for pair in combinations(members, 2):
            tally = pairs.setdefault(pair, _Pair())
            tally.joint_papers += 1
            tally.weight += share
            if year is not None:
                tally.years.append(year)

    for researcher, count in counts.items():
        known = years_of.get(researcher)
        mean_year = sum(known) / len(known) if known else None
        graph.add_node(researcher, **_without_none({"papers": count, "mean_year": mean_year}))
    for (a, b), tally in pairs.items():
        weight = tally.joint_papers if weighting == "joint_papers" else tally.weight
        if weight < min_weight:
            continue
        attrs = {
            "joint_papers": tally.joint_papers,
            "first_year": min(tally.years, default=None),
            "last_year": max(tally.years, default=None),
            "weight": weight,
        }
        graph.add_edge(a, b, **_without_none(attrs))
    return graph


def ego(
    graph: nx.Graph,
    center: Hashable,
    depth: int = 1,
    max_nodes: int | None = None,
    min_joint_papers: int = 1,
    *,
    weight: str = "weight",
) -> nx.Graph:
    """The network around ``center`` up to ``depth`` hops, strongest ties first.

    Only edges with at least ``min_joint_papers`` joint papers are walked or kept. Hop by
    hop, candidates are ranked by their strongest ``weight`` to a node already kept (ties by
    id), and the ranking is cut when ``max_nodes`` (``center`` included) is reached, so every
    kept node hangs on a kept node one hop closer. Nodes get ``hop``; the graph gets
    ``center`` and ``truncated`` (whether ``max_nodes`` left anyone out).

    Examples
    --------
    >>> G = nx.Graph()
    >>> G.add_weighted_edges_from([(1, 2, 5), (1, 3, 1), (1, 4, 2), (4, 5, 9), (2, 6, 1)])
    >>> E = ego(G, 1, depth=2, max_nodes=4)
    >>> sorted(E.nodes(data="hop"))
    [(1, 0), (2, 1), (3, 1), (4, 1)]
    >>> E.graph["truncated"]
    True
    >>> sorted(ego(G, 1, depth=2, max_nodes=5))
    [1, 2, 3, 4, 5]
    """
    if center not in graph:
        raise NotFound(f"researcher {center!r} is not in this graph; build it around them first")
    if depth < 0 or (max_nodes is not None and max_nodes < 1):
        raise BadInput(f"need depth >= 0 and max_nodes >= 1, not {depth} and {max_nodes}")

    def walkable(data: Mapping[str, Any]) -> bool:
        return bool(data.get("joint_papers", 1) >= min_joint_papers)

    hops: dict[Hashable, int] = {center: 0}
    frontier = [center]
    truncated = False
    for hop in range(1, depth + 1):
        strongest: dict[Hashable, float] = {}
        for node in frontier:
            for neighbour, data in graph[node].items():
                if neighbour in hops or not walkable(data):
                    continue
                tie = float(data.get(weight, 1.0))
                strongest[neighbour] = max(tie, strongest.get(neighbour, -math.inf))
        ranked = sorted(strongest, key=lambda n: (-strongest[n], node_order(n)))
        room = len(ranked) if max_nodes is None else max_nodes - len(hops)
        truncated = truncated or len(ranked) > room
        frontier = ranked[:room]
        hops.update((node, hop) for node in frontier)
        if not frontier:
            break

    result = nx.Graph()
    result.graph.update(graph.graph, center=center, truncated=truncated)
    result.add_nodes_from((node, {**graph.nodes[node], "hop": hop}) for node, hop in hops.items())
    for node in hops:
        for neighbour, data in graph[node].items():
            if neighbour in hops and not result.has_edge(node, neighbour) and walkable(data):
                result.add_edge(node, neighbour, **data)
    return result


def _add_node_rows(graph: nx.Graph, rows: Iterable[Row]) -> None:
    for row in rows:
        attrs = {_RENAMED.get(k, k): v for k, v in row.items() if k != "id"}
        graph.add_node(_required(row, "id"), **_without_none(attrs))


def _required(row: Row, key: str) -> Any:
    value = row.get(key)
    if value is None:
        raise BadInput(f"row has no {key!r}: {dict(row)!r}")
    return value


def _without_none(attrs: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in attrs.items() if v is not None}


def _span_overlaps(first: int | None, last: int | None, window: YearWindow) -> bool:
    if first is None or last is None:
        return False
    year_from, year_to = window
    return (year_from is None or last >= year_from) and (year_to is None or first <= year_to)


def _min_year(a: int | None, b: int | None) -> int | None:
    return min(a, b) if a is not None and b is not None else (a if b is None else b)


def _max_year(a: int | None, b: int | None) -> int | None:
    return max(a, b) if a is not None and b is not None else (a if b is None else b)
