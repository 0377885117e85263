"""``scholargraph institutions match`` — raw affiliation strings to ROR institutions, offline;
``scholargraph institutions rematch`` — the strings stored on slots linked to them again.

The index is every ROR institution loaded in the graph, or the ROR dump files ``--ror-files``
names (the same index either way). Abstaining is an answer: ``ror_id`` null.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.institutions import (
    AffiliationIndex,
    Match,
    index_from_files,
    index_from_graph,
    match_affiliation,
)
from scholargraph.graph.loaders.rematch import rematch


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("institutions", help="match raw affiliation strings to ROR records")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    match = actions.add_parser(
        "match", help="the ROR institution each affiliation string names, or none"
    )
    match.add_argument("affiliation", nargs="?", help="one affiliation string")
    match.add_argument("--file", type=Path, help="a file of affiliation strings, one a line")
    add_index_arguments(match)
    match.add_argument("--json", action="store_true", help="one JSON object a line")
    match.set_defaults(run=_match)
    rematch = actions.add_parser(
        "rematch",
        help="link the affiliation strings stored on slots to the ROR institutions loaded "
        "now (`load ror` runs it at its end)",
    )
    rematch.add_argument("--json", action="store_true", help="the count as JSON")
    rematch.set_defaults(run=_rematch)


def add_index_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ror-files",
        type=Path,
        nargs="+",
        metavar="PATH",
        help="ROR v2 dump files or folders to match against instead of the graph",
    )


def load_index(args: argparse.Namespace, settings: Settings) -> AffiliationIndex:
    """The index ``--ror-files`` names, else the graph's ROR institutions."""
    if args.ror_files:
        return index_from_files(args.ror_files)

    async def go() -> AffiliationIndex:
        async with Database.connect(settings) as db:
            await db.verify()
            return await index_from_graph(db)

    index = asyncio.run(go())
    if not len(index):
        raise NotFound(
            "the graph holds no ROR institutions to match against; load them with "
            "`scholargraph load ror --files <ROR dump>` or pass --ror-files"
        )
    return index


def _texts(args: argparse.Namespace) -> list[str]:
    if (args.affiliation is None) == (args.file is None):
        raise BadInput("give one affiliation string or --file FILE, not both or neither")
    if args.affiliation is not None:
        return [args.affiliation]
    try:
        lines = args.file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"cannot read {args.file}: {error}") from error
    return [line.strip() for line in lines if line.strip()]


def _match(args: argparse.Namespace, settings: Settings) -> int:
    texts = _texts(args)
    index = load_index(args, settings)
    matches = [match_affiliation(index, text) for text in texts]
    if args.json:
        for match in matches:
            payload = match.as_json()
            payload["name"] = index[match.ror_id].name if match.ror_id else None
            print(json.dumps(payload, ensure_ascii=False))
        return 0
    _print(index, matches)
    return 0


def _rematch(args: argparse.Namespace, settings: Settings) -> int:
    async def go() -> int:
        async with Database.connect(settings) as db:
            await db.verify()
            return await rematch(db)

    linked = asyncio.run(go())
    if args.json:
        print(json.dumps({"strings_linked": linked}))
    else:
        Console().print(f"{linked:,} slot affiliation strings linked to ROR institutions")
    return 0


def _print(index: AffiliationIndex, matches: list[Match]) -> None:
    table = Table(title=f"affiliations against {len(index):,} ROR institutions")
    for column in ("affiliation", "ROR id", "institution", "score", "method"):
        table.add_column(column, overflow="fold")
    for match in matches:
        name = index[match.ror_id].name if match.ror_id else "(none)"
        table.add_row(match.text, match.ror_id or "-", name, f"{match.score:.2f}", match.method)
    out = Console()
    out.print(table)
    if len(matches) == 1:
        for line in matches[0].evidence:
            out.print(f"  {line}", highlight=False)
