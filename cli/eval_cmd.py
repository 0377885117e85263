"""``scholargraph eval disambiguation|affiliations`` — identity resolution against a gold
standard: our clustering against S2AND's, the affiliation matcher against ror-api's."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from scholargraph.cli.institutions_cmd import add_index_arguments, load_index
from scholargraph.graph.config import Settings
from scholargraph.graph.identity import compare_s2and, evaluate_s2and
from scholargraph.graph.institutions import evaluate, read_gold

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
    aff = kinds.add_parser(
        "affiliations",
        help="precision/recall of the affiliation matcher on ror-api format gold strings",
    )
    aff.add_argument("--gold", type=Path, required=True, help="[{affiliation, ror_ids}] JSON")
    add_index_arguments(aff)
    aff.add_argument("--json", action="store_true", help="print JSON")
    aff.set_defaults(run=_affiliations)


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


def _affiliations(args: argparse.Namespace, settings: Settings) -> int:
    gold = read_gold(args.gold)
    index = load_index(args, settings)
    result = evaluate(gold, index)
    if args.json:
        print(json.dumps({"index": len(index), **result.as_json()}, sort_keys=True))
        return 0
    table = Table(title=f"affiliations in {args.gold.name} against {len(index):,} institutions")
    for column in ("strings", "with gold", "matched", "correct", "precision", "recall", "F1"):
        table.add_column(column, justify="right")
    table.add_column("over")
    for name, scores in (("all strings", result.overall), ("gold in index", result.in_index)):
        table.add_row(
            f"{scores.strings:,}",
            f"{scores.with_gold:,}",
            f"{scores.matched:,}",
            f"{scores.correct:,}",
            f"{scores.precision:.3f}",
            f"{scores.recall:.3f}",
            f"{scores.f1:.3f}",
            name,
        )
    Console().print(table)
    return 0
