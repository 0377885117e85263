"""``scholargraph`` — the command line: a local Neo4j, the schema, loads, the demo, the server."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

from scholargraph import __version__
from scholargraph.cli import (
    db_cmd,
    demo_cmd,
    eval_cmd,
    export_cmd,
    load_cmd,
    neo4j_cmd,
    researchers_cmd,
    serve_cmd,
)
from scholargraph.graph.config import Settings
from scholargraph.graph.errors import BadInput, ScholargraphError

COMMANDS = (neo4j_cmd, db_cmd, load_cmd, demo_cmd, researchers_cmd, export_cmd, eval_cmd, serve_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scholargraph",
        description="An open scholarly knowledge graph in Neo4j: load, resolve, serve.",
    )
    parser.add_argument("--version", action="version", version=f"scholargraph {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    err = Console(stderr=True)
    try:
        settings = Settings.load()
        code: int = args.run(args, settings)
        return code
    except BadInput as error:
        err.print(f"[red]error:[/red] {error}", highlight=False)
        return 2
    except ScholargraphError as error:
        err.print(f"[red]error:[/red] {error}", highlight=False)
        return 1
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
