"""``scholargraph load SOURCE`` — bulk files or the live APIs into the graph; and the demo.

Exit status: 0 when the load finished with nothing set aside; :data:`EXIT_REJECTED` when it
finished but rejected records or files (each one is in the report); any other non-zero
status when it could not run (see ``cli/main.py``).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from scholargraph.cli.options import add_json_option, at_least, optional_date, print_json, status
from scholargraph.cli.progress import load_progress, summary_table
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput
from scholargraph.graph.ids import is_arxiv_id
from scholargraph.graph.loaders import live
from scholargraph.graph.loaders.demo import demo_records, write_demo_files
from scholargraph.graph.loaders.demo import load_demo as run_demo
from scholargraph.graph.loaders.files import CHUNK_RECORDS, file_chunks, input_fingerprint
from scholargraph.graph.loaders.parse.files import SkippedFile, count_bulk_records
from scholargraph.graph.loaders.pipeline import Loader, LoadSummary
from scholargraph.graph.records import Batch
from scholargraph.graph.schema.install import install_schema

SOURCES = ("arxiv", "s2", "openalex", "orcid", "ror")
# sysexits' EX_DATAERR: the load finished, but set records or files of its input aside
EXIT_REJECTED = 65


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("load", help="load a source: bulk files or the live API")
    parser.add_argument("source", choices=SOURCES)
    parser.add_argument(
        "--files",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="files or folders (read recursively) instead of the live API",
    )
    parser.add_argument(
        "--ids", nargs="+", default=None, help="arXiv ids, S2 refs, ORCID iDs or ROR ids to fetch"
    )
    parser.add_argument("--set", dest="set_spec", help="arXiv OAI-PMH set, e.g. cs")
    parser.add_argument("--category", help="arXiv category for a search, e.g. cs.DC")
    parser.add_argument("--from", dest="from_date", help="arXiv OAI-PMH from date YYYY-MM-DD")
    parser.add_argument("--until", help="arXiv OAI-PMH until date YYYY-MM-DD")
    parser.add_argument("--query", help="arXiv search query")
    parser.add_argument("--filter", dest="filter", help="OpenAlex works filter")
    parser.add_argument("--affiliation", nargs="+", help="ROR: raw affiliation strings")
    parser.add_argument(
        "--chunk-size",
        type=at_least(1, "a number of records"),
        default=CHUNK_RECORDS,
        metavar="N",
        help=f"records of --files per checkpointed chunk (default {CHUNK_RECORDS:,})",
    )
    parser.add_argument("--report", type=Path, help="rejected records (JSON lines)")
    parser.add_argument("--restart", action="store_true", help="ignore the checkpoint")
    add_json_option(parser)
    parser.set_defaults(run=_load)


def _signature(args: argparse.Namespace) -> str:
    parts = [args.source] + [str(p.resolve()) for p in args.files or []]
    for key in ("ids", "set_spec", "category", "from_date", "until", "query", "filter"):
        value = getattr(args, key)
        if value:
            parts.append(f"{key}={value}")
    return "-".join(parts).replace("/", "_")[:150]


def _input(args: argparse.Namespace) -> str:
    """What a checkpoint of this load must have read to be resumed."""
    signature = _signature(args)
    if not args.files:
        return signature
    return f"{signature}:{args.chunk_size}:{input_fingerprint(args.files)}"


def _load(args: argparse.Namespace, settings: Settings) -> int:
    state = settings.loads_dir
    checkpoint = state / f"{_signature(args)}.checkpoint.json"
    if args.restart:
        checkpoint.unlink(missing_ok=True)
    report = args.report or state / f"{args.source}-rejected.jsonl"
    skipped: list[SkippedFile] = []
    err = Console(stderr=True)
    quiet = args.quiet

    async def go() -> LoadSummary:
        async with Database.connect(settings) as db:
            await db.verify()
            await install_schema(settings, db)
            total = None
            if args.files and not quiet:
                total = count_bulk_records(args.files, source=args.source)
            with load_progress(f"load {args.source}", total, quiet=quiet) as bar:
                loader = Loader(
                    db,
                    coauthor_cap=settings.coauthor_cap,
                    report=report,
                    checkpoint=checkpoint,
                    input=_input(args),
                    warn=lambda line: err.print(
                        f"[yellow]warning:[/yellow] {escape(line)}", soft_wrap=True
                    ),
                )
                return await loader.run(bar.watch(_chunks(args, settings, skipped.append)))

    summary = asyncio.run(go())
    summary.skipped_files = [f"{file.path}: {file.reason}" for file in skipped]
    _print({args.source: summary}, args, report)
    return EXIT_REJECTED if summary.rejected else 0


def _chunks(
    args: argparse.Namespace, settings: Settings, on_skip: Callable[[SkippedFile], None]
) -> AsyncIterator[tuple[str, Batch]]:
    if args.files:
        return file_chunks(
            args.files, source=args.source, chunk_size=args.chunk_size, on_skip=on_skip
        )
    return _live(args, settings)


async def _live(args: argparse.Namespace, settings: Settings) -> AsyncIterator[tuple[str, Batch]]:
    """The live API of the source, through the rate-limited, cached clients."""
    async with live.open_clients(settings) as clients:
        chunks: AsyncIterator[tuple[str, Batch]]
        if args.source == "arxiv":
            query = args.query or (f"cat:{args.category}" if args.category else None)
            chunks = live.arxiv_chunks(
                clients.arxiv,
                ids=args.ids,
                set_spec=args.set_spec,
                query=query,
                from_date=optional_date(args.from_date, "--from"),
                until=optional_date(args.until, "--until"),
            )
        elif args.source == "s2":
            chunks = live.s2_chunks(clients.s2, refs=_required(args.ids, "--ids"))
        elif args.source == "openalex":
            ids = args.ids or []
            chunks = live.openalex_chunks(
                clients.openalex,
                arxiv_ids=[i for i in ids if is_arxiv_id(i)] or None,
                dois=[i for i in ids if not is_arxiv_id(i)] or None,
                filter=args.filter,
            )
        elif args.source == "orcid":
            chunks = live.orcid_chunks(clients.orcid, orcids=_required(args.ids, "--ids"))
        else:
            chunks = live.ror_chunks(clients.ror, ror_ids=args.ids, affiliations=args.affiliation)
        async for chunk in chunks:
            yield chunk


def _required(values: list[str] | None, option: str) -> list[str]:
    if not values:
        raise BadInput(f"give {option} (or --files for bulk files)")
    return values


def _print(
    summaries: dict[str, LoadSummary], args: argparse.Namespace, report: Path | None
) -> None:
    """The summary (a table, or JSON); under ``--quiet`` only where the rejections went."""
    if args.json:
        print_json({k: v.as_dict() for k, v in summaries.items()})
        return
    if args.quiet:
        rejected = sum(s.rejected for s in summaries.values())
        if report is not None and rejected:
            Console(stderr=True).print(
                f"[yellow]warning:[/yellow] {rejected:,} rejected records and files, "
                f"with reasons: {escape(str(report))}",
                soft_wrap=True,
            )
        return
    console = status(args)
    console.print(summary_table("load summary", summaries))
    for summary in summaries.values():
        if summary.skipped_files:
            console.print(f"{len(summary.skipped_files):,} files skipped, not read:")
            for line in summary.skipped_files:
                console.print(f"  {line}", highlight=False)
    if report is not None and any(s.rejected for s in summaries.values()):
        rejected = sum(s.rejected for s in summaries.values())
        console.print(f"{rejected:,} rejected records and files, with reasons: {report}")


def load_demo(
    settings: Settings, args: argparse.Namespace, *, papers: int, seed: int, if_empty: bool
) -> int:
    folder = write_demo_files(settings.demo_dir, papers=papers, seed=seed)

    async def go() -> dict[str, LoadSummary] | None:
        async with Database.connect(settings) as db:
            await db.verify()
            await install_schema(settings, db)
            if if_empty:
                from scholargraph.graph.stats import graph_stats

                if (await graph_stats(db))["nodes"].get("Paper"):
                    return None
            label = f"demo corpus ({papers:,} papers, seed {seed})"
            total = None if args.quiet else demo_records(folder)
            with load_progress(label, total, quiet=args.quiet) as bar:
                return await run_demo(
                    db,
                    folder,
                    coauthor_cap=settings.coauthor_cap,
                    report=settings.loads_dir / "demo-rejected.jsonl",
                    watch=bar.watch,
                )

    summaries = asyncio.run(go())
    if summaries is None:
        if args.json:
            print_json({"loaded": False, "reason": "the graph already holds papers"})
        else:
            status(args).print("the graph already holds papers; demo not loaded")
        return 0
    if args.json:
        print_json({"loaded": True, "sources": {k: v.as_dict() for k, v in summaries.items()}})
        return 0
    _print(summaries, args, None)
    return 0
