"""``scholargraph export`` — coauthor graphs for Gephi, VOSviewer and networkx."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import cast

import networkx as nx
from rich.console import Console

from scholargraph.graph.analysis import export, forceatlas2, louvain
from scholargraph.graph.analysis.export import Format
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.repo.graphs import Selection, coauthor_graph

FORMATS = ("graphml", "gexf", "csv", "json")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("export", help="export a coauthor graph (GraphML, GEXF, CSV, JSON)")
    parser.add_argument("--format", choices=FORMATS, default="graphml")
    parser.add_argument("--output", type=Path, help="file (csv: a folder or a prefix)")
    parser.add_argument("--researcher", help="ego network of this researcher id (two hops)")
    parser.add_argument("--category", help="researchers with papers in this arXiv category")
    parser.add_argument("--institution", help="researchers affiliated with it (id, ROR, name)")
    parser.add_argument("--year-from", type=int)
    parser.add_argument("--year-to", type=int)
    parser.add_argument("--min-joint-papers", type=int, default=1)
    parser.add_argument("--max-nodes", type=int, default=5000)
    parser.add_argument(
        "--layout", action="store_true", help="add communities and a seeded ForceAtlas2 layout"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.set_defaults(run=_export)


def _export(args: argparse.Namespace, settings: Settings) -> int:
    selection = Selection(
        researcher=args.researcher,
        category=args.category,
        institution=args.institution,
        year_from=args.year_from,
        year_to=args.year_to,
        min_joint_papers=args.min_joint_papers,
        max_nodes=args.max_nodes,
    )

    async def fetch() -> nx.Graph:
        async with Database.connect(settings) as db:
            return await coauthor_graph(db, selection)

    began = time.perf_counter()
    graph = asyncio.run(fetch())
    positions = None
    if args.layout:
        found = louvain(graph, seed=args.seed)
        nx.set_node_attributes(graph, found.membership, "community")
        positions = forceatlas2(graph, seed=args.seed)
    output = args.output or Path(f"coauthors.{args.format}")
    written = export(graph, cast(Format, args.format), output, positions=positions)
    Console().print(
        f"{graph.number_of_nodes():,} researchers, {graph.number_of_edges():,} coauthor ties "
        f"→ {', '.join(map(str, written))} in {time.perf_counter() - began:.1f}s"
    )
    return 0
