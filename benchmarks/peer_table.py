"""bench_peer's figures as tables: each request side by side with its target, the CPU a page
costs each side, and where a request's time goes in our server."""

from __future__ import annotations

from typing import Any

from benchmarks.formats import figure as _f
from benchmarks.formats import met as _met


def _at_most(target: str, ratio: float, bound: float, more: str = "") -> tuple[str, str, bool]:
    return f"peer: {target}", f"{_f(ratio)}×{more}", ratio <= bound


def targets(peer: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """The targets of issue #16 against one run: (target, measured, met). Ratios are
    ours over the peer's p50 (with TCP_NODELAY); throughput is ours over theirs."""
    if not peer or "error" in peer:
        return []
    page, path, net = peer["page"]["ratios"], peer["path"]["ratios"], peer["network"]["ratios"]
    rps = peer["page_throughput_rps"]["ratios"]["ours/peer_nodelay"]
    shipped = f" ({_f(page['ours/peer_shipped'])}× as shipped)"
    return [
        _at_most(
            "page ≤ 0.8× @neo4j/graphql (TCP_NODELAY)", page["ours/peer_nodelay"], 0.8, shipped
        ),
        _at_most("page ≤ 1.5× a hand-written single statement", page["ours/statement"], 1.5),
        ("peer: page throughput at 8 clients ≥ 1.5× the peer's", f"{_f(rps)}×", rps >= 1.5),
        _at_most("path ≤ 1.0× the peer's shortestPath", path["ours/peer_nodelay"], 1.0),
        _at_most("network (graphology) ≤ 0.5× the peer's", net["ours/peer_nodelay"], 0.5),
        _at_most("network typed ≤ 1.5× graphology", net["ours_typed/ours"], 1.5),
    ]


def _p50(figures: dict[str, Any], side: str) -> str:
    found = figures.get(side)
    return _f(found["p50_ms"]) if isinstance(found, dict) else "–"


def side_by_side(peer: dict[str, Any]) -> list[str]:
    """Every request of the run, each side's p50 (ms) or pages a second, with its target."""
    if not peer or "error" in peer:
        return []
    met = iter(targets(peer))
    rows = []
    for label, kind, side in (
        ("page", "page", "ours"),
        ("page against the hand-written statement", "page", "ours"),
        ("page throughput, pages/s", "page_throughput_rps", "ours"),
        ("path", "path", "ours"),
        ("network (graphology)", "network", "ours"),
        ("network typed (against graphology)", "network", "ours_typed"),
    ):
        target, measured, ok = next(met)
        figures = peer[kind]
        if kind == "page_throughput_rps":
            cells = [_f(figures.get(s), 1) for s in ("ours", "peer_shipped", "peer_nodelay")]
            cells.append("–")
        else:
            cells = [_p50(figures, s) for s in (side, "peer_shipped", "peer_nodelay", "statement")]
        goal = target.split(": ", 1)[1]
        rows.append(f"| {label} | {' | '.join(cells)} | {measured} | {goal} | {_met(ok)} |")
    return [
        "| request | ours | peer as shipped | peer (TCP_NODELAY) | hand-written statement "
        "| ratio | target | met |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]


def cpu_per_page(peer: dict[str, Any]) -> list[str]:
    """CPU ms each page cost during the throughput run, and the pages a second the machine's
    cores allow at that cost."""
    cpu, cores = peer.get("cpu_ms_per_page"), peer.get("cores")
    if not isinstance(cpu, dict) or not cores:
        return []
    rows = []
    for side, parts in cpu.items():
        total = sum(parts.values())
        rows.append(
            f"| {side} | {_f(parts.get('api'))} | {_f(parts.get('neo4j'))} "
            f"| {_f(parts.get('clients'))} | {_f(total)} | {_f(cores * 1000 / total, 0)} "
            f"| {_f(peer['page_throughput_rps'].get(side), 1)} |"
        )
    return [
        f"| side | API server | Neo4j | clients | all | pages/s {cores} cores allow | measured |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]


def our_split(peer: dict[str, Any]) -> list[str]:
    """Our server alone (one worker): what the client saw, the GraphQL operation, and the
    Neo4j statements in it (means, ms)."""
    found = peer.get("our_split")
    if not isinstance(found, dict):
        return []
    rows = []
    for kind, s in found.items():
        outside = s["client_mean_ms"] - s["operation_mean_ms"]
        python = s["operation_mean_ms"] - s["statement_mean_ms"]
        statements = f"{_f(s['statement_mean_ms'])} ({_f(s['statements_per_request'], 1)})"
        rows.append(
            f"| {kind} | {_f(s['client_mean_ms'])} | {_f(outside)} "
            f"| {_f(s['operation_mean_ms'])} | {_f(python)} | {statements} "
            f"| {_f(s.get('api_cpu_mean_ms'))} |"
        )
    return [
        "| request | client saw | HTTP and JSON | GraphQL operation | of it, Python "
        "| of it, Neo4j statements (a request) | API server's CPU |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]


def tables(peer: dict[str, Any]) -> list[str]:
    """The three tables, each with its caption, for the report."""
    lines: list[str] = []
    for caption, table in (
        ("Side by side (p50 in ms; throughput in pages a second):", side_by_side(peer)),
        ("CPU milliseconds a page cost during the throughput run:", cpu_per_page(peer)),
        ("Where a request's time goes in our server (one worker, means in ms):", our_split(peer)),
    ):
        if table:
            lines += [caption, "", *table, ""]
    return lines
