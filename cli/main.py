"""``scholargraph`` — the command line: a local Neo4j, the schema, loads, the demo, the server.

Every command takes ``-q``, ``-v`` and ``--log-level`` before or after its name
(:mod:`cli.options`); every command that reports takes ``--json``.

Every failure is one line on stderr (``error: …``, no traceback) and an exit status:

====  ==================================================================================
0     done
2     the command line or an argument is wrong (``BadInput``)
65    a load finished but set records or files aside (``load_cmd.EXIT_REJECTED``)
75    another ``sync`` holds the graph's sync lease; this one did not run
      (``sync_cmd.EXIT_BUSY``, sysexits' EX_TEMPFAIL)
69    Neo4j is not reachable: not started, stopped or lost mid-command (sysexits'
      EX_UNAVAILABLE); start it and run the command again
77    Neo4j refused the user name or password (sysexits' EX_NOPERM)
1     anything else scholargraph reports (a source failed, a setting is malformed, …)
130   interrupted
====  ==================================================================================
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

from scholargraph import __version__
from scholargraph.cli import (
    completion_cmd,
    db_cmd,
    demo_cmd,
    eval_cmd,
    export_cmd,
    institutions_cmd,
    load_cmd,
    neo4j_cmd,
    researchers_cmd,
    serve_cmd,
    sync_cmd,
)
from scholargraph.cli.options import (
    add_global_options,
    add_to_every_command,
    configure_logging,
    resolve,
)
from scholargraph.graph.config import Settings
from scholargraph.graph.db import as_database_error
from scholargraph.graph.errors import (
    BadInput,
    DatabaseAuthFailed,
    DatabaseUnavailable,
    ScholargraphError,
)

COMMANDS = (
    neo4j_cmd,
    db_cmd,
    load_cmd,
    sync_cmd,
    demo_cmd,
    researchers_cmd,
    institutions_cmd,
    export_cmd,
    eval_cmd,
    serve_cmd,
    completion_cmd,
)
EXIT_UNAVAILABLE = 69
EXIT_AUTH = 77


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scholargraph",
        description="An open scholarly knowledge graph in Neo4j: load, resolve, serve.",
    )
    parser.add_argument("--version", action="version", version=f"scholargraph {__version__}")
    add_global_options(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    add_to_every_command(parser)
    return parser


def exit_code(error: ScholargraphError) -> int:
    if isinstance(error, DatabaseUnavailable):
        return EXIT_UNAVAILABLE
    if isinstance(error, DatabaseAuthFailed):
        return EXIT_AUTH
    if isinstance(error, BadInput):
        return 2
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.output_options = resolve(args)
    configure_logging(args.output_options)
    err = Console(stderr=True)
    settings: Settings | None = None
    try:
        settings = Settings.load()
        code: int = args.run(args, settings)
        return code
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    except Exception as error:
        reported = _reported(error, settings)
        if reported is None:
            raise
        err.print(f"[red]error:[/red] {reported}", highlight=False, soft_wrap=True)
        return exit_code(reported)


def _reported(error: Exception, settings: Settings | None) -> ScholargraphError | None:
    """The error to report in one line: ours, or the driver's own (from the schema install's
    synchronous driver) when it says Neo4j is unreachable or refused the password."""
    if isinstance(error, ScholargraphError):
        return error
    if isinstance(error, ExceptionGroup):
        found = (_reported(e, settings) for e in error.exceptions if isinstance(e, Exception))
        return next((e for e in found if e is not None), None)
    if settings is None:
        return None
    user = settings.neo4j_user if settings.neo4j_auth else None
    return as_database_error(error, settings.uri, user)


if __name__ == "__main__":
    sys.exit(main())
