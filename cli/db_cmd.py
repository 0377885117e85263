"""``scholargraph db init|stats|analyze|embed`` — the schema, what the graph holds, the
planner's statistics, and the vectors of semantic search."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import asdict

from rich.console import Console
from rich.table import Table

from scholargraph.cli.options import add_json_option, print_json, status
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.schema.install import install_schema
from scholargraph.graph.semantic.model import MODEL
from scholargraph.graph.semantic.store import (
    EmbedSummary,
    embed_store,
    rebuild_vector_indexes,
    vector_coverage,
)
from scholargraph.graph.stats import analyze, graph_stats


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("db", help="install the schema, count what the graph holds")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    init = actions.add_parser("init", help="install constraints, indexes and the arXiv taxonomy")
    init.set_defaults(run=_init)
    stats = actions.add_parser("stats", help="count nodes by label and relationships by type")
    stats.set_defaults(run=_stats)
    analyze_ = actions.add_parser(
        "analyze", help="after a big load: resample index statistics and drop cached plans"
    )
    analyze_.set_defaults(run=_analyze)
    embed = actions.add_parser(
        "embed",
        help="compute the papers' vectors that are missing or outdated, then researchers' topics",
    )
    embed.add_argument(
        "--reindex",
        action="store_true",
        help="then build the vector indexes again in one pass (after a big load: searches by "
        "meaning can get faster; they fail while it runs)",
    )
    embed.set_defaults(run=_embed)
    for action in (init, stats, analyze_, embed):
        add_json_option(action)


def _init(args: argparse.Namespace, settings: Settings) -> int:
    async def go() -> None:
        async with Database.connect(settings) as db:
            await db.verify()
            await install_schema(settings, db)

    asyncio.run(go())
    if args.json:
        print_json({"uri": settings.uri, "schema": "installed"})
    status(args).print(f"schema installed on {settings.uri}")
    return 0


def _analyze(args: argparse.Namespace, settings: Settings) -> int:
    async def go() -> None:
        async with Database.connect(settings) as db:
            await db.verify()
            await analyze(db)

    asyncio.run(go())
    if args.json:
        print_json({"uri": settings.uri, "statistics": "resampled", "plans": "dropped"})
    status(args).print(f"index statistics resampled and plans dropped on {settings.uri}")
    return 0


def _stats(args: argparse.Namespace, settings: Settings) -> int:
    async def go() -> dict[str, dict[str, int]]:
        async with Database.connect(settings) as db:
            await db.verify()
            return await graph_stats(db)

    stats = asyncio.run(go())
    if args.json:
        print_json({kind: dict(sorted(counts.items())) for kind, counts in stats.items()})
        return 0
    table = Table(title=f"graph at {settings.uri}")
    table.add_column("kind")
    table.add_column("name")
    table.add_column("count", justify="right")
    for kind in ("nodes", "relationships"):
        for name, n in sorted(stats[kind].items()):
            table.add_row(kind, name, f"{n:,}")
    Console().print(table)
    return 0


def _embed(args: argparse.Namespace, settings: Settings) -> int:
    console = status(args)

    def progress(summary: EmbedSummary, last: str) -> None:
        console.print(
            f"{summary.papers_seen:,} papers read, {summary.papers_embedded:,} embedded "
            f"(up to {last})"
        )

    async def go() -> tuple[EmbedSummary, dict[str, int]]:
        async with Database.connect(settings) as db:
            await db.verify()
            summary = await embed_store(db, progress=progress)
            if args.reindex:
                console.print("building the vector indexes again")
                await rebuild_vector_indexes(db)
            return summary, await vector_coverage(db)

    summary, coverage = asyncio.run(go())
    if args.json:
        print_json(
            {**asdict(summary), "coverage": coverage, "model": MODEL, "reindexed": args.reindex}
        )
        return 0
    console.print(
        f"{summary.papers_embedded:,} of {summary.papers_seen:,} papers embedded with {MODEL}; "
        f"{summary.researchers_refreshed:,} researchers' topics computed; "
        f"{coverage['embedded']:,} papers have a vector"
    )
    return 0
