"""The analyst toolkit without ``async``, for notebooks and scripts alike.

Each function that reads the database connects with the settings given (by default
:meth:`Settings.load`: ``NEO4J_URI``, ``NEO4J_PASSWORD``, … from the environment or a
``.env`` file), runs its query and closes the connection. In a script there is no event
loop, so it runs one; in Jupyter the kernel's loop is already running in the calling
thread (``asyncio.run`` refuses to start there), so the query runs on a private worker
thread with its own loop and the call waits for it. Either way the caller gets a plain
:class:`networkx.Graph`.

:func:`nodes_frame` and :func:`ties_frame` turn a graph into pandas DataFrames; pandas comes
with ``pip install 'scholargraph[analysis]'``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import networkx as nx

from scholargraph.graph.analysis.build import node_order
from scholargraph.graph.analysis.centrality import betweenness, degree, pagerank, strength
from scholargraph.graph.analysis.communities import Communities, louvain
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, ConfigError
from scholargraph.graph.repo.graphs import Selection, coauthor_graph

if TYPE_CHECKING:
    import pandas as pd

T = TypeVar("T")
Measure = Literal["pagerank", "betweenness", "degree", "strength"]
MEASURES: dict[str, Callable[..., Mapping[Hashable, float]]] = {
    "pagerank": pagerank,
    "betweenness": betweenness,
    "degree": degree,
    "strength": strength,
}


def coauthors(
    *,
    category: str | None = None,
    institution: str | None = None,
    year_from: int | None = None,
    year_to: int | None = None,
    min_joint_papers: int = 1,
    max_nodes: int = 5000,
    settings: Settings | None = None,
) -> nx.Graph:
    """The coauthor graph of a category's or an institution's researchers (the whole graph
    when neither is given), ties weighted by joint papers.

    A year window keeps the ties whose first-to-last joint years overlap it. An unknown
    category or institution raises :class:`~scholargraph.graph.errors.NotFound`.
    """
    selection = Selection(
        category=category,
        institution=institution,
        year_from=year_from,
        year_to=year_to,
        min_joint_papers=min_joint_papers,
        max_nodes=max_nodes,
    )
    return _run(lambda: _fetch(selection, settings))


def ego_network(
    researcher: int | str,
    *,
    depth: int = 2,
    max_nodes: int = 5000,
    min_joint_papers: int = 1,
    year_from: int | None = None,
    year_to: int | None = None,
    settings: Settings | None = None,
) -> nx.Graph:
    """The network of ``researcher`` (an id) up to ``depth`` hops, strongest ties first
    when ``max_nodes`` cuts it (see :func:`~scholargraph.graph.analysis.ego`); nodes carry
    their ``hop``. An unknown researcher raises
    :class:`~scholargraph.graph.errors.NotFound`."""
    selection = Selection(
        researcher=str(researcher),
        year_from=year_from,
        year_to=year_to,
        min_joint_papers=min_joint_papers,
        max_nodes=max_nodes,
        depth=depth,
    )
    return _run(lambda: _fetch(selection, settings))


def communities(
    graph: nx.Graph, *, seed: int | None = 0, resolution: float = 1.0, annotate: bool = True
) -> Communities:
    """Louvain communities (0 is the largest); with ``annotate`` each node also gets its
    ``community``, which the exports colour by."""
    found = louvain(graph, seed=seed, resolution=resolution)
    if annotate:
        nx.set_node_attributes(graph, found.membership, "community")
    return found


def centrality(
    graph: nx.Graph, measure: Measure = "pagerank", **options: Any
) -> dict[Hashable, float]:
    """One score per researcher: ``pagerank`` (weighted), ``betweenness`` (sampled and
    seeded above ``samples`` nodes), ``degree`` (coauthors) or ``strength`` (joint papers).
    ``options`` go to the measure (``samples=``, ``seed=``, …)."""
    if measure not in MEASURES:
        raise BadInput(f"unknown measure {measure!r}; choose one of {', '.join(MEASURES)}")
    return dict(MEASURES[measure](graph, **options))


def nodes_frame(graph: nx.Graph, **columns: Mapping[Hashable, Any]) -> pd.DataFrame:
    """One row per researcher, indexed by ``id``: their attributes, ``degree`` and
    ``strength``, then each of ``columns`` (a score or a membership per node, such as
    ``pagerank=centrality(G)``), missing values as NA. Rows follow the ids."""
    pandas = _pandas()
    nodes = sorted(graph, key=node_order)
    rows = [
        {
            "id": node,
            **graph.nodes[node],
            "degree": graph.degree(node),
            "strength": graph.degree(node, weight="weight"),
            **{name: values.get(node) for name, values in columns.items()},
        }
        for node in nodes
    ]
    frame = pandas.DataFrame.from_records(rows, columns=_columns(rows, ["id"]))
    return frame.set_index("id")


def ties_frame(graph: nx.Graph) -> pd.DataFrame:
    """One row per coauthor tie: ``source`` and ``target`` (the lower id first), then the
    tie's attributes (``joint_papers``, ``first_year``, ``last_year``, ``weight``)."""
    pandas = _pandas()
    rows = []
    for u, v, data in graph.edges(data=True):
        a, b = sorted((u, v), key=node_order)
        rows.append({"source": a, "target": b, **data})
    rows.sort(key=lambda row: (node_order(row["source"]), node_order(row["target"])))
    return pandas.DataFrame.from_records(rows, columns=_columns(rows, ["source", "target"]))


def _columns(rows: list[dict[str, Any]], first: list[str]) -> list[str]:
    seen = dict.fromkeys(first)
    for row in rows:
        seen.update(dict.fromkeys(row))
    return list(seen)


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ConfigError("DataFrames need pandas: pip install 'scholargraph[analysis]'") from None
    return pandas


async def _fetch(selection: Selection, settings: Settings | None) -> nx.Graph:
    async with Database.connect(settings or Settings.load()) as db:
        return await coauthor_graph(db, selection)


def _run(work: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``work()`` to completion, from a thread with or without a running event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work())
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="scholargraph-analysis") as pool:
        return pool.submit(lambda: asyncio.run(work())).result()
