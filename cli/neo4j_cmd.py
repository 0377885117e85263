"""``scholargraph neo4j start|status|stop|compact`` — the local Neo4j server."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import asdict
from pathlib import Path

from rich.console import Console

from scholargraph.cli.options import add_json_option, memory_size, port, print_json, status
from scholargraph.graph import localserver
from scholargraph.graph.bulk.compact import compact
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("neo4j", help="run the local Neo4j Community server")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    install = actions.add_parser("install", help="resolve the Neo4j jars from Maven Central")
    add_json_option(install)
    install.set_defaults(run=_install)
    for name, run, text in (
        ("start", _start, "start the server in the background (resolving its jars on first use)"),
        ("status", _status, "say whether the server runs, where, and its memory"),
        ("stop", _stop, "shut the server down cleanly"),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument(
            "--data-dir",
            type=Path,
            help="store folder (default <home>/neo4j/data, see SCHOLARGRAPH_HOME)",
        )
        if name == "start":
            action.add_argument(
                "--bolt-port", type=port, help="Bolt port on 127.0.0.1, 1–65535 (7687)"
            )
            action.add_argument(
                "--heap",
                type=memory_size,
                help="JVM heap, e.g. 4g (default: planned from the machine's memory)",
            )
            action.add_argument(
                "--pagecache",
                type=memory_size,
                help="page cache, e.g. 8g (default: planned from the memory and the store)",
            )
        add_json_option(action)
        action.set_defaults(run=run)
    compact_ = actions.add_parser(
        "compact",
        help="rewrite the running server's store with neo4j-admin import: the same graph, "
        "without the space deleted records left",
    )
    compact_.add_argument("--data-dir", type=Path, help="store folder (as for start)")
    compact_.add_argument(
        "--drop-old",
        action="store_true",
        help="delete the old store once the new one counts the same (default: keep it as "
        "<data dir>.before-compact)",
    )
    add_json_option(compact_)
    compact_.set_defaults(run=_compact)


def _settings(args: argparse.Namespace, settings: Settings) -> Settings:
    changes: dict[str, object] = {}
    if args.data_dir is not None:
        changes["neo4j_data_dir"] = args.data_dir.expanduser().resolve()
    if getattr(args, "bolt_port", None) is not None:
        changes["neo4j_bolt_port"] = args.bolt_port
    for name in ("heap", "pagecache"):
        if getattr(args, name, None) is not None:
            changes[f"neo4j_{name}"] = getattr(args, name)
    return settings.with_overrides(**changes) if changes else settings


def _remote(settings: Settings, args: argparse.Namespace) -> int:
    async def check() -> None:
        async with Database.connect(settings) as db:
            await db.verify()

    asyncio.run(check())
    if args.json:
        print_json({"uri": settings.uri, "local": False, "running": True})
    status(args).print(
        f"NEO4J_URI is set: using {settings.uri}; no local server is started or stopped"
    )
    return 0


def _install(args: argparse.Namespace, settings: Settings) -> int:
    out = status(args)
    if not settings.local:
        if args.json:
            print_json({"uri": settings.uri, "local": False, "neo4j_home": None})
        out.print(f"NEO4J_URI is set ({settings.uri}): no local Neo4j is needed")
        return 0
    localserver.install(settings.neo4j_home)
    if args.json:
        print_json({"uri": settings.local_uri, "local": True, "neo4j_home": settings.neo4j_home})
    out.print(f"Neo4j Community jars ready in {settings.neo4j_home}")
    return 0


def _start(args: argparse.Namespace, settings: Settings) -> int:
    out = status(args)
    settings = _settings(args, settings)
    if not settings.local:
        return _remote(settings, args)
    info, started = localserver.start(settings)
    if args.json:
        print_json(
            {
                "uri": info.uri,
                "pid": info.pid,
                "started": started,
                "heap": info.heap,
                "pagecache": info.pagecache,
            }
        )
    elif started:
        out.print(
            f"Neo4j started in {info.startup_seconds:.1f}s: {info.uri} (pid {info.pid}; "
            f"heap {info.heap}, page cache {info.pagecache})"
        )
    else:
        out.print(f"Neo4j is already running: {info.uri} (pid {info.pid})")
    return 0


def _status(args: argparse.Namespace, settings: Settings) -> int:
    out = Console()
    settings = _settings(args, settings)
    if not settings.local:
        return _remote(settings, args)
    state = localserver.status(settings.neo4j_data_dir)
    running = state.info is not None and state.alive
    if args.json:
        print_json(
            {
                "running": running,
                "uri": state.info.uri if state.info else None,
                "pid": state.info.pid if state.info else None,
                "bolt": state.bolt_answers,
                "rss_bytes": state.rss_bytes,
            }
        )
    elif running and state.info is not None:
        mib = (state.rss_bytes or 0) / 2**20
        bolt = "answering" if state.bolt_answers else "not answering yet"
        out.print(f"running: {state.info.uri} (pid {state.info.pid}), Bolt {bolt}, {mib:.0f} MiB")
    else:
        out.print(f"not running (data dir {settings.neo4j_data_dir})")
    return 0 if running else 3


def _stop(args: argparse.Namespace, settings: Settings) -> int:
    out = status(args)
    settings = _settings(args, settings)
    if not settings.local:
        return _remote(settings, args)
    info = localserver.stop(settings.neo4j_data_dir)
    if args.json:
        print_json({"stopped": info is not None, "pid": info.pid if info else None})
    elif info is None:
        out.print("Neo4j was not running")
    else:
        out.print(f"Neo4j stopped (pid {info.pid})")
    return 0


def _compact(args: argparse.Namespace, settings: Settings) -> int:
    out = status(args)
    done = asyncio.run(compact(_settings(args, settings), keep_old=not args.drop_old))
    if args.json:
        print_json(asdict(done))
        return 0
    out.print(
        f"store rewritten: {done.nodes:,} nodes, {done.relationships:,} relationships in "
        f"{done.total_s:.1f}s (read out {done.export_s:.1f}s, import {done.import_s:.1f}s, "
        f"empty arrays {done.arrays_s:.1f}s, schema {done.schema_s:.1f}s); "
        f"{done.store_bytes_before / 2**20:,.0f} MiB -> {done.store_bytes_after / 2**20:,.0f} MiB"
    )
    if done.old_store:
        out.print(f"the old store is kept in {done.old_store}: delete it once you are content")
    return 0
