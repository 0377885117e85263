"""``scholargraph sync`` — harvest arXiv's new and changed papers, then enrich them.

Exit status: 0 when the sync ran (or ``--every`` was stopped by ``SIGINT``/``SIGTERM``);
:data:`EXIT_BUSY` when another sync holds the graph's sync lease, so that this one did not
run; any other non-zero status as every command (see ``cli/main.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from scholargraph.cli.options import add_json_option, at_least, optional_date, print_json, status
from scholargraph.cli.progress import summary_table
from scholargraph.graph.config import Settings, check_set_spec
from scholargraph.graph.db import Database
from scholargraph.graph.errors import ConfigError, ScholargraphError, SyncBusy
from scholargraph.graph.loaders import live
from scholargraph.graph.schema.install import install_schema
from scholargraph.graph.sync import ALL_SETS, SyncOptions, SyncReport, every, sync_once
from scholargraph.graph.sync.run import ENRICH_BATCH

# sysexits' EX_TEMPFAIL: another sync runs; cron's next run will do this one's work
EXIT_BUSY = 75
_INTERVAL = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd]?)")
_UNIT_S = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def interval(text: str) -> float:
    """Seconds of ``90s``, ``30m``, ``6h``, ``1d`` (a bare number is seconds), at least 1 s."""
    match = _INTERVAL.fullmatch(text.strip().lower())
    seconds = float(match.group(1)) * _UNIT_S[match.group(2)] if match else 0.0
    if seconds < 1:
        raise argparse.ArgumentTypeError(
            f"expected an interval such as 30m, 6h or 1d (1 s or more), got {text!r}"
        )
    return seconds


def _set_spec(text: str) -> str:
    try:
        return check_set_spec(text, "--set")
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def stop_on_signals() -> asyncio.Event:
    """An event that ``SIGINT`` and ``SIGTERM`` set: the sync stops after the page or batch
    it is writing, which the next sync goes on from (call inside the running loop)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    return stop


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "sync", help="harvest arXiv's new papers (OAI-PMH), then enrich them from S2 and OpenAlex"
    )
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        type=_set_spec,
        metavar="SPEC",
        help="OAI-PMH set to harvest, e.g. cs or physics:hep-th (repeatable; default "
        "SCHOLARGRAPH_SYNC_SETS, else the whole archive)",
    )
    parser.add_argument(
        "--from",
        dest="first_from",
        metavar="YYYY-MM-DD",
        help="where a set's first harvest starts (default its whole history); a set "
        "harvested before goes on from its own last datestamp",
    )
    parser.add_argument(
        "--every",
        type=interval,
        metavar="INTERVAL",
        help="sync again INTERVAL after each sync ends (30m, 6h, 1d) until SIGINT or SIGTERM",
    )
    parser.add_argument(
        "--enrich-batch",
        type=at_least(1, "a number of papers"),
        default=ENRICH_BATCH,
        metavar="N",
        help=f"papers enriched per batch, newest first (default {ENRICH_BATCH})",
    )
    parser.add_argument("--report", type=Path, help="rejected records (JSON lines)")
    add_json_option(parser)
    parser.set_defaults(run=_sync)


def _sync(args: argparse.Namespace, settings: Settings) -> int:
    sets = tuple(dict.fromkeys(args.sets or settings.sync_sets or (ALL_SETS,)))
    report = args.report or settings.loads_dir / "sync-rejected.jsonl"
    options = SyncOptions(
        sets=sets,
        first_from=optional_date(args.first_from, "--from"),
        enrich_batch=args.enrich_batch,
        coauthor_cap=settings.coauthor_cap,
        report=report,
    )
    err = Console(stderr=True)

    def warn(error: ScholargraphError) -> None:
        err.print(f"[yellow]warning:[/yellow] {escape(str(error))}", soft_wrap=True)

    async def go() -> int:
        stop = stop_on_signals()
        async with Database.connect(settings) as db:
            await db.verify()
            await install_schema(settings, db)
            async with live.open_clients(settings) as clients:

                async def once() -> SyncReport:
                    return await sync_once(db, clients, options, stop=stop)

                if args.every is None:
                    try:
                        _print(await once(), args, report)
                    except SyncBusy as error:
                        warn(error)
                        return EXIT_BUSY
                    return 0
                await every(
                    args.every,
                    once,
                    stop=stop,
                    on_result=lambda result: _print(result, args, report),
                    on_error=warn,
                )
                return 0

    return asyncio.run(go())


def _print(result: SyncReport, args: argparse.Namespace, report: Path) -> None:
    if args.json:
        print_json(result.as_dict())
        return
    console = status(args)
    table = Table(title="sync")
    for column in ("set", "from", "pages", "papers", "deleted", "withdrawn", "done"):
        table.add_column(column, justify="left" if column in ("set", "from") else "right")
    for part in result.sets:
        shown = "all" if part.set_spec == ALL_SETS else part.set_spec
        table.add_row(
            shown,
            part.asked_from or "the start",
            f"{part.pages:,}",
            f"{part.papers:,}",
            f"{part.deleted:,}",
            f"{part.withdrawn:,}",
            "yes" if part.complete else "no, goes on next run",
        )
    console.print(table)
    console.print(summary_table("loads", {"harvest": result.harvest, "enrich": result.enrichment}))
    console.print(
        f"{result.enriched:,} papers enriched, {result.backlog:,} waiting for enrichment"
        + (" (stopped)" if result.stopped else "")
    )
    rejected = result.harvest.rejected + result.enrichment.rejected
    if rejected:
        console.print(f"{rejected:,} rejected records, with reasons: {report}")
