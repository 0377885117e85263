"""bench_peer's bookkeeping: the tables it reports, the CPU it reads from ``/proc`` and the
server figures it reads from ``/metrics`` (no timing is asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

from prometheus_client import CollectorRegistry, Histogram, generate_latest

from benchmarks import extras, peer_table
from benchmarks.bench_peer import OPERATION, STATEMENT, metric_sums
from benchmarks.cpu import tree_cpu_seconds


def _p50(ms: float) -> dict[str, float]:
    return {"n": 60, "p50_ms": ms, "p99_ms": ms * 2, "mean_ms": ms}


def _run() -> dict[str, Any]:
    return {
        "page": {
            "ours": _p50(12.0),
            "peer_shipped": _p50(11.0),
            "peer_nodelay": _p50(10.0),
            "statement": _p50(4.0),
            "ratios": {"ours/peer_shipped": 1.09, "ours/peer_nodelay": 1.2, "ours/statement": 3.0},
        },
        "path": {
            "ours": _p50(9.0),
            "peer_shipped": _p50(10.0),
            "peer_nodelay": _p50(10.0),
            "ratios": {"ours/peer_shipped": 0.9, "ours/peer_nodelay": 0.9},
        },
        "network": {
            "ours": _p50(40.0),
            "ours_typed": _p50(70.0),
            "peer_shipped": _p50(90.0),
            "peer_nodelay": _p50(100.0),
            "ratios": {
                "ours/peer_shipped": 0.44,
                "ours/peer_nodelay": 0.4,
                "ours_typed/ours": 1.75,
            },
        },
        "page_throughput_rps": {
            "ours": 100.0,
            "peer_shipped": 150.0,
            "peer_nodelay": 160.0,
            "ratios": {"ours/peer_shipped": 0.67, "ours/peer_nodelay": 0.62},
        },
        "cpu_ms_per_page": {
            "ours": {"api": 12.0, "neo4j": 5.0, "clients": 3.0},
            "peer_nodelay": {"api": 4.0, "neo4j": 5.0, "clients": 1.0},
        },
        "cores": 2,
        "our_split": {
            "page": {
                "client_mean_ms": 14.0,
                "operation_mean_ms": 12.5,
                "statement_mean_ms": 7.0,
                "statements_per_request": 2.0,
                "api_cpu_mean_ms": 6.5,
            }
        },
    }


def test_the_side_by_side_table_gives_each_request_its_figures_target_and_verdict() -> None:
    rows = peer_table.side_by_side(_run())
    assert rows[0].startswith("| request | ours | peer as shipped | peer (TCP_NODELAY) |")
    page, statement, throughput, path, network, typed = rows[2:]
    assert page == "| page | 12.00 | 11.00 | 10.00 | 4.00 | 1.20× (1.09× as shipped) " + (
        "| page ≤ 0.8× @neo4j/graphql (TCP_NODELAY) | no |"
    )
    assert statement.endswith("| 3.00× | page ≤ 1.5× a hand-written single statement | no |")
    assert throughput.startswith("| page throughput, pages/s | 100.0 | 150.0 | 160.0 | – | 0.62× ")
    assert path.endswith("| 0.90× | path ≤ 1.0× the peer's shortestPath | yes |")
    assert network.endswith("| 0.40× | network (graphology) ≤ 0.5× the peer's | yes |")
    assert typed.startswith("| network typed (against graphology) | 70.00 | 90.00 | 100.00 |")
    assert typed.endswith("| 1.75× | network typed ≤ 1.5× graphology | no |")


def test_the_cpu_table_shows_what_the_cores_allow_at_each_side_s_cost() -> None:
    rows = peer_table.cpu_per_page(_run())
    assert rows[0] == (
        "| side | API server | Neo4j | clients | all | pages/s 2 cores allow | measured |"
    )
    assert rows[2] == "| ours | 12.00 | 5.00 | 3.00 | 20.00 | 100 | 100.0 |"
    assert rows[3] == "| peer_nodelay | 4.00 | 5.00 | 1.00 | 10.00 | 200 | 160.0 |"


def test_the_split_table_parts_a_request_s_time() -> None:
    assert peer_table.our_split(_run())[2] == (
        "| page | 14.00 | 1.50 | 12.50 | 5.50 | 7.00 (2.0) | 6.50 |"
    )


def test_the_report_puts_the_tables_above_the_json_and_skips_them_for_a_failed_run() -> None:
    peer = next(e for e in extras.EXTRAS if e.module == "bench_peer")
    lines = extras.report({peer.key: _run()})
    assert lines.index("Side by side (p50 in ms; throughput in pages a second):") < lines.index(
        "```json"
    )
    failed = extras.report({peer.key: {"error": "node is not on PATH"}})
    assert not any(line.startswith("| request") for line in failed)
    assert peer_table.targets({"error": "x"}) == []


def test_metric_sums_add_up_the_operations_and_the_statements_sent() -> None:
    registry = CollectorRegistry()
    operations = Histogram(OPERATION, "ops", ["operation"], registry=registry)
    statements = Histogram(STATEMENT, "statements", registry=registry)
    operations.labels("Page").observe(0.010)
    operations.labels("Path").observe(0.004)
    for seconds in (0.003, 0.002, 0.001):
        statements.observe(seconds)
    sums = metric_sums(generate_latest(registry).decode())
    assert sums["operations"] == 2 and sums["statements"] == 3
    assert abs(sums["operation_s"] - 0.014) < 1e-9
    assert abs(sums["statement_s"] - 0.006) < 1e-9


def test_tree_cpu_seconds_counts_a_busy_child() -> None:
    burn = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass\n"
    child = subprocess.Popen([sys.executable, "-c", f"{burn}time.sleep(30)"])
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and tree_cpu_seconds(child.pid) < 0.5:
            time.sleep(0.05)
        assert tree_cpu_seconds(child.pid) >= 0.5
        assert tree_cpu_seconds(os.getpid()) >= tree_cpu_seconds(child.pid)
    finally:
        child.kill()
        child.wait()
