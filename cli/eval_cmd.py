"""``scholargraph eval disambiguation`` — our clustering against an S2AND gold standard."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from scholargraph.graph.config import Settings
from scholargraph.graph.identity import compare_s2and, evaluate_s2and

MEASURES = (
    "b3_precision",
    "b3_recall",
    "b3_f1",
    "pairwise_precision",
    "pairwise_recall",
    "pairwise_f1",
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("eval", help="measure identity resolution against a gold standard")
    kinds = parser.add_subparsers(dest="kind", required=True, metavar="KIND")
    dis = kinds.add_parser(
        "disambiguation", help="B³ and pairwise precision/recall/F1 on S2AND-format files"
    )
    dis.add_argument("--signatures", type=Path, required=True, help="signatures.json")
    dis.add_argument("--clusters", type=Path, required=True, help="clusters.json (gold)")
    dis.add_argument("--papers", type=Path, help="papers.json (titles, coauthors) if available")
    dis.add_argument("--baselines", action="store_true", help="also run the two simple baselines")
    dis.add_argument("--json", action="store_true", help="print JSON")
    dis.set_defaults(run=_disambiguation)


def _disambiguation(args: argparse.Namespace, settings: Settings) -> int:
    if args.baselines:
        results = compare_s2and(args.signatures, args.clusters, args.papers)
    else:
        results = {"model": evaluate_s2and(args.signatures, args.clusters, args.papers)}
    if args.json:
        payload = results["model"] if not args.baselines else results
        print(json.dumps(payload, sort_keys=True))
        return 0
    table = Table(title=f"disambiguation on {args.signatures.parent.name}")
    table.add_column("measure")
    for method in results:
        table.add_column(method, justify="right")
    for measure in MEASURES:
        table.add_row(measure, *(f"{r[measure]:.3f}" for r in results.values()))
    Console().print(table)
    return 0
