"""``scholargraph researchers merge|split|distinct|pin|why`` — curator decisions on identity.

Every decision is a recorded event (who, why, when); later loads never undo it.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
from typing import Any

from rich.console import Console
from rich.table import Table

from scholargraph.cli.options import add_json_option, at_least, print_json, status
from scholargraph.graph import curation
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.repo.entities import parse_researcher_id
from scholargraph.graph.repo.provenance import why


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("researchers", help="merge, split, mark distinct, pin, explain")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    merge = actions.add_parser("merge", help="merge researchers into a survivor")
    merge.add_argument("survivor")
    merge.add_argument("others", nargs="+")
    split = actions.add_parser("split", help="move papers to a new (or --into) researcher")
    split.add_argument("researcher")
    split.add_argument("--papers", nargs="+", required=True)
    split.add_argument("--into", help="an existing researcher to receive the papers")
    distinct = actions.add_parser("distinct", help="record that two researchers differ")
    distinct.add_argument("researcher")
    distinct.add_argument("other")
    pin = actions.add_parser("pin", help="pin a paper's author slot to a researcher")
    pin.add_argument("researcher")
    pin.add_argument("paper")
    for action in (merge, split, distinct, pin):
        action.add_argument("--reason", required=True, help="why (kept with the event)")
        action.add_argument("--actor", default=None, help="who decides (default: $USER)")
        add_json_option(action)
        action.set_defaults(run=_decide)
    why = actions.add_parser("why", help="how a researcher's ids and papers were matched")
    why.add_argument("researcher")
    why.add_argument(
        "--limit", type=at_least(1, "a number of papers"), default=20, help="papers shown (20)"
    )
    add_json_option(why)
    why.set_defaults(run=_why)


def _decide(args: argparse.Namespace, settings: Settings) -> int:
    actor = args.actor or f"curator:{getpass.getuser()}"
    rid = parse_researcher_id(args.researcher if args.action != "merge" else args.survivor)

    async def go() -> curation.CurationEvent:
        async with Database.connect(settings) as db:
            if args.action == "merge":
                others = [parse_researcher_id(o) for o in args.others]
                return await curation.merge(db, rid, others, actor=actor, reason=args.reason)
            if args.action == "split":
                into = parse_researcher_id(args.into) if args.into else None
                return await curation.split(
                    db, rid, args.papers, actor=actor, reason=args.reason, into=into
                )
            if args.action == "distinct":
                other = parse_researcher_id(args.other)
                return await curation.mark_distinct(db, rid, other, actor=actor, reason=args.reason)
            return await curation.pin_paper(db, rid, args.paper, actor=actor, reason=args.reason)

    event = asyncio.run(go())
    if args.json:
        print_json(
            {
                "event": event.id,
                "kind": event.kind,
                "actor": event.actor,
                "reason": event.reason,
                "at": event.at.isoformat(),
                "papers": list(event.papers),
                "roles": [{"researcher": r, "role": role} for r, role in event.roles],
            }
        )
    roles = ", ".join(f"{r} ({role})" for r, role in event.roles)
    status(args).print(f"{event.kind} recorded as event {event.id}: {roles}")
    return 0


def _why(args: argparse.Namespace, settings: Settings) -> int:
    async def go() -> dict[str, Any]:
        async with Database.connect(settings) as db:
            return await why(db, args.researcher, limit=args.limit)

    report = asyncio.run(go())
    if args.json:
        print_json(report)
        return 0
    _print_why(report)
    return 0


def _print_why(report: dict[str, Any]) -> None:
    out = Console()
    me = report["researcher"]
    out.print(f"[bold]{me['name']}[/bold] {me['path']}  ORCID {me['orcid'] or '-'}")
    ids = Table(title="external ids and how they joined")
    for column in ("id", "method", "source"):
        ids.add_column(column)
    for row in report["identifiers"]:
        ids.add_row(row["key"], row["method"], row["source"])
    out.print(ids)
    papers = Table(title="authorships and how each was matched")
    for column in ("paper", "pos", "printed as", "method", "confidence", "sources"):
        papers.add_column(column)
    for row in report["authorships"]:
        papers.add_row(
            row["paper"],
            str(row["position"]),
            row["raw_name"],
            row["method"] + (" (pinned)" if row["pinned"] else ""),
            f"{row['confidence']:.2f}" if row["confidence"] is not None else "-",
            ",".join(row["sources"] or ()),
        )
    out.print(papers)
    for record in report["same_name"]:
        flag = " (marked distinct)" if record["marked_distinct"] else ""
        out.print(
            f"same name: {record['name']} #{record['id']}, {record['papers']} papers, "
            f"same person? {record['same_person']:.2f}{flag}: " + "; ".join(record["evidence"])
        )
    for event in report["events"]:
        out.print(f"event: {event['kind']} by {event['actor']} at {event['at']}: {event['reason']}")
