"""``scholargraph export`` — coauthor graphs for Gephi, VOSviewer and networkx.

``--output`` is a file, a folder (an existing one, or a path ending with ``/``: the files go
inside it) or ``-`` for standard output (single-file formats only). A researcher, category
or institution that does not exist, or a selection with nobody in it, is an error (exit 1)
rather than an empty file.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from typing import cast

import networkx as nx
from rich.console import Console

from scholargraph.cli.options import add_json_option, at_least, print_json
from scholargraph.graph.analysis import FORMATS, export, forceatlas2, louvain
from scholargraph.graph.analysis.export import TWO_FILES, Format
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo.graphs import Selection, coauthor_graph

STDOUT = "-"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "export", help="export a coauthor graph (GraphML, GEXF, VOSviewer, CSV, JSON)"
    )
    parser.add_argument("--format", choices=FORMATS, default="graphml")
    parser.add_argument(
        "--output",
        help="file, folder (existing or ending with /) or - for standard output; "
        "csv and vosviewer: a folder or a prefix (default: coauthors.<format>, or the "
        "current folder for csv and vosviewer)",
    )
    parser.add_argument("--researcher", help="ego network of this researcher id (two hops)")
    parser.add_argument("--category", help="researchers with papers in this arXiv category")
    parser.add_argument("--institution", help="researchers affiliated with it (id, ROR, name)")
    parser.add_argument("--year-from", type=int)
    parser.add_argument("--year-to", type=int)
    parser.add_argument("--min-joint-papers", type=at_least(1), default=1)
    parser.add_argument("--max-nodes", type=at_least(1), default=5000)
    parser.add_argument(
        "--layout", action="store_true", help="add communities and a seeded ForceAtlas2 layout"
    )
    parser.add_argument("--seed", type=int, default=0)
    add_json_option(parser)
    parser.set_defaults(run=_export)


def _export(args: argparse.Namespace, settings: Settings) -> int:
    fmt = cast(Format, args.format)
    output: str = args.output or (f"coauthors.{fmt}" if fmt not in TWO_FILES else "./")
    if output == STDOUT and fmt in TWO_FILES:
        raise BadInput(f"{fmt} writes two files; give --output a folder or a prefix, not -")
    if output == STDOUT and args.json:
        raise BadInput("--output - writes the graph on standard output: leave out --json")
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
    if graph.number_of_nodes() == 0:
        raise NotFound(f"no researchers in this selection ({_described(args)}); nothing to export")
    positions = None
    if args.layout:
        found = louvain(graph, seed=args.seed)
        nx.set_node_attributes(graph, found.membership, "community")
        positions = forceatlas2(graph, seed=args.seed)
    # The summary goes to stderr when the graph itself goes to stdout.
    console = Console(stderr=output == STDOUT, quiet=bool(args.quiet or args.json))
    if output == STDOUT:
        try:
            export(graph, fmt, sys.stdout, positions=positions)
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader stopped early (``| head``): what it read is what it wanted.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        where = "standard output"
    else:
        files = [str(path) for path in export(graph, fmt, output, positions=positions)]
        where = ", ".join(files)
        if args.json:
            print_json(
                {
                    "format": fmt,
                    "researchers": graph.number_of_nodes(),
                    "ties": graph.number_of_edges(),
                    "files": files,
                    "seconds": round(time.perf_counter() - began, 3),
                }
            )
    console.print(
        f"{graph.number_of_nodes():,} researchers, {graph.number_of_edges():,} coauthor ties "
        f"→ {where} in {time.perf_counter() - began:.1f}s",
        highlight=False,
        soft_wrap=True,
    )
    return 0


def _described(args: argparse.Namespace) -> str:
    chosen = {
        "researcher": args.researcher,
        "category": args.category,
        "institution": args.institution,
        "from": args.year_from,
        "to": args.year_to,
    }
    given = [f"{k} {v}" for k, v in chosen.items() if v is not None]
    return ", ".join(given) if given else "the whole graph"
