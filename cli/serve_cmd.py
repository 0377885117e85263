"""``scholargraph serve`` — the API and the web page, under uvicorn (:mod:`api.server`)."""

from __future__ import annotations

import argparse

from scholargraph.cli.options import at_least, port, uvicorn_level
from scholargraph.graph.config import Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("serve", help="serve the GraphQL API and the web page")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=port, default=8000, help="TCP port, 1–65535 (8000)")
    parser.add_argument(
        "--workers",
        type=at_least(1, "a number of workers"),
        default=None,
        help="processes (SCHOLARGRAPH_WORKERS, else one per usable core)",
    )
    parser.set_defaults(run=_serve)


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from scholargraph.api import server

    config = server.serve_config(
        settings,
        host=args.host,
        port=args.port,
        workers=args.workers or settings.workers,
        log_level=uvicorn_level(args.output_options),
    )
    return server.run(config)
