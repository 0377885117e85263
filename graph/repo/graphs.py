"""Coauthor graphs from the database as networkx graphs, for analysts and exports.

A selection is the whole graph, the researchers of a category or an institution, or a
researcher's ego network (two hops); a year window keeps ties active in it (see
:func:`graph.analysis.coauthor_graph_from_edges` for how windows count). A researcher,
category or institution that does not exist is :class:`NotFound`, never an empty graph.
Nodes carry ``first_year``, ``last_year`` and ``mean_year`` of the researcher's papers.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from scholargraph.graph.analysis import coauthor_graph_from_edges, ego
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo.entities import (
    ResearcherRef,
    find_category,
    find_institution,
    find_researcher,
)
from scholargraph.queries import read_graphs as q


@dataclass(frozen=True, slots=True)
class Selection:
    researcher: str | None = None
    category: str | None = None
    institution: str | None = None
    year_from: int | None = None
    year_to: int | None = None
    min_joint_papers: int = 1
    max_nodes: int = 5000
    depth: int = 2


async def coauthor_graph(db: Database, selection: Selection) -> nx.Graph:
    chosen = [x for x in (selection.researcher, selection.category, selection.institution) if x]
    if len(chosen) > 1:
        raise BadInput("choose one of a researcher, a category or an institution")
    params = {"min_joint": selection.min_joint_papers}
    if not chosen:
        nodes = await db.run(q.ALL_NODES)
        edges = await db.run(q.ALL_EDGES, params)
    else:
        if selection.researcher:
            me = await find_researcher(db, ResearcherRef(id=selection.researcher))
            nodes = await db.run(q.EGO_MEMBERS, {"id": me.id, "max_nodes": selection.max_nodes})
        elif selection.category:
            code = find_category(selection.category).code  # an unknown code is NotFound
            nodes = await db.run(q.CATEGORY_MEMBERS, {"code": code})
        else:
            place = await find_institution(db, selection.institution or "")
            nodes = await db.run(q.INSTITUTION_MEMBERS, {"institution": place.id})
        ids = [row["id"] for row in nodes]
        edges = await db.run(q.EDGES_AMONG, {**params, "ids": ids})
    years = (
        (selection.year_from, selection.year_to)
        if selection.year_from is not None or selection.year_to is not None
        else None
    )
    graph = coauthor_graph_from_edges(edges, nodes, years=years)
    if selection.researcher:
        graph = ego(
            graph,
            me.id,
            depth=selection.depth,
            max_nodes=selection.max_nodes,
            min_joint_papers=selection.min_joint_papers,
        )
    return graph
