"""``scholargraph demo`` — generate the synthetic demo corpus and load it."""

from __future__ import annotations

import argparse

from scholargraph.cli.options import add_json_option, between
from scholargraph.graph.config import Settings
from scholargraph.graph.demo.generator import MAX_PAPERS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("demo", help="generate the deterministic demo corpus and load it")
    parser.add_argument(
        "--papers",
        type=between(1, MAX_PAPERS, "a number of papers"),
        default=2000,
        help=f"number of papers, 1–{MAX_PAPERS:,} (2000)",
    )
    parser.add_argument("--seed", type=int, default=7, help="random seed (7)")
    parser.add_argument("--if-empty", action="store_true", help="only when the graph has no papers")
    add_json_option(parser)
    parser.set_defaults(run=_demo)


def _demo(args: argparse.Namespace, settings: Settings) -> int:
    from scholargraph.cli.load_cmd import load_demo

    return load_demo(settings, args, papers=args.papers, seed=args.seed, if_empty=args.if_empty)
