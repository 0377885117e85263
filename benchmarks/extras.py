"""Benchmarks that run as their own processes and print JSON, collected by ``make bench``.

Each entry is a module of this folder, the arguments it is run with, what it measures and
its targets; the report prints its command beside its figures. A module that fails is
reported with the end of its error output, and the rest go on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import peer_table

ROOT = Path(__file__).resolve().parents[1]
# The line that dates the standalone sections, after the generated ones.
DATED_SECTIONS = "The sections from here to the targets were measured at"


@dataclass(frozen=True)
class Extra:
    module: str
    title: str
    about: str
    args: tuple[str, ...] = ()
    needs_shared: bool = False
    timeout: float = 1800.0
    tables: Callable[[dict[str, Any]], list[str]] | None = None  # shown above the JSON

    @property
    def key(self) -> str:
        return " ".join([self.module, *self.args])

    @property
    def command(self) -> str:
        return " ".join(["python -m", f"benchmarks.{self.module}", *self.args])


EXTRAS = (
    Extra(
        "bench_hardening",
        "Refused requests (issue: hardening)",
        "Server CPU per refused abusive document (the doubling-fragment family up to the body "
        "limit, wide fragments, deep selections, nested JSON) and `/healthz` latency while "
        "they are sent. Targets: ≤ 50 ms CPU a refused request, `/healthz` < 10 ms.",
    ),
    Extra(
        "bench_outage",
        "Neo4j down (issue: hardening)",
        "GraphQL requests to a server whose Neo4j has nothing listening, and whose local Neo4j "
        "was killed with SIGKILL mid-run: the time to the `UNAVAILABLE` / 503 answer. "
        "Target: within 2 s.",
        args=("outage", "--kill"),
    ),
    Extra(
        "bench_outage",
        "Half-sent requests (issue: hardening)",
        "1,000 connections that send half a request head to `scholargraph serve`'s server: the "
        "time until the server has dropped them all, and `/healthz` meanwhile.",
        args=("slow-clients",),
    ),
    Extra(
        "bench_paper_identity",
        "Paper identity's cost (issue: write plan)",
        "The demo corpus (2,000 papers, three sources) loaded through the real loaders, every "
        "statement timed: the share of the load the paper-identity statements (id lookup, "
        "upsert, renames, merges) and their planning take.",
    ),
    Extra(
        "bench_order",
        "Load order: groupings and the canonical dump (issue: write plan)",
        "The demo corpus (120 papers) loaded in six orders of sources and batch sizes; in "
        "each, the researchers whose set of author slots differs from the first order's, and "
        "the entries of the canonical dump that differ, of the graph's state (papers, slots, "
        "researchers, ties, affiliations) and with the load's history. Target: 0 state "
        "differences in every order.",
    ),
    Extra(
        "bench_order",
        "Load order at 2,000 papers (issue: write plan)",
        "The first two orders on the 2,000-paper demo corpus (OpenAlex, S2, arXiv and arXiv, "
        "S2, OpenAlex, in transactions of 500 papers): large enough for hyperauthor papers, "
        "namesakes on one paper and ids two sources disagree on, small enough to run in a few "
        "minutes. Target: the state identical in every order.",
        args=("--papers", "2000", "--orders", "2"),
        timeout=1800.0,
    ),
    Extra(
        "bench_order",
        "Load order at 10,000 papers (issue: write plan)",
        "The first two orders on the 10,000-paper demo corpus: OpenAlex, S2, arXiv and arXiv, "
        "S2, OpenAlex, in transactions of 500 papers (a load takes about 7 minutes on two "
        "cores; `--orders 6` runs all six). Target: the state identical in every order.",
        args=("--papers", "10000", "--orders", "2"),
        timeout=3600.0,
    ),
    Extra(
        "bench_hyperauthor",
        "A 5,000-author paper (issue: write plan)",
        "One paper of 5,000 authors through the writer: arXiv's name-only record, OpenAlex's "
        "record aligned slot by slot, then a changed OpenAlex record. Target: < 2 s each.",
    ),
    Extra(
        "bench_semantic",
        "Semantic search (issue: semantic search)",
        "The demo corpus (5,000 papers, four sources) loaded with embedding off and on, "
        "alternately: the load's cost of embedding. Then nDCG@10 and recall@10 of keyword, "
        "semantic and hybrid search on the judged demo queries (phrased without the words of "
        "the titles they should find), search latency, the model's own time per 1,000 texts, "
        "and the judged known-item queries over the recorded arXiv 0704 abstracts. Targets: "
        "hybrid beats keyword; loads within 10 %; a semantic search ≤ 20 ms p50 at 100k.",
        timeout=5400.0,
    ),
    Extra(
        "bench_semantic_scale",
        "Search by meaning at 100,000 papers (issue: semantic search)",
        "A store of the demo corpus's 100,000 papers with titles, abstracts and vectors (no "
        "authors: what a search by meaning reads), built in `UNWIND` batches; p50/p95 of the "
        "judged demo queries by mode, papers only. Target: semantic ≤ 20 ms p50.",
        timeout=3600.0,
    ),
    Extra(
        "bench_peer",
        "The official Neo4j GraphQL library as a peer (issue #16)",
        "`@neo4j/graphql` 7.6.3 (Node, `benchmarks/peer/`: typeDefs over our labels, "
        "relationship types and properties, `@cypher` only where the library has no native "
        "way) against the same 1,000-paper demo store, with the same researchers and pairs, "
        "interleaved with ours and warmed up alike; the peer as shipped and with TCP_NODELAY "
        "on its Bolt sockets, and a hand-written single page statement through the Python "
        "driver. What differs between the answers: docs/peer-benchmark.md. Targets: page ≤ "
        "0.8× the peer (TCP_NODELAY on) and ≤ 1.5× the hand-written statement, ≤ 2 statements "
        "a request; page throughput at 8 clients ≥ 1.5× the peer's; path ≤ 1.0× the peer's "
        "`shortestPath`; network (graphology) ≤ 0.5× the peer's; typed ≤ 1.5× graphology.",
        args=("--papers", "1000", "--requests", "60", "--warmup", "20", "--seconds", "5"),
        timeout=3600.0,
        tables=peer_table.tables,
    ),
    Extra(
        "bench_disambiguation",
        "Same-name people: the precision/recall curve and its ceiling (issue: identity quality)",
        "S2AND's `qian` block (names, affiliations, positions only): B³ and pairwise figures "
        "of the model at each threshold, a threshold chosen by 5-fold cross-validation over "
        "name blocks (the folds and the pooled held-out figure), and two ceilings computed "
        "from the gold clusters: every person's mentions with one affiliation string joined, "
        "and also each name-only mention put with its person. Target: B³ F1 ≥ 0.85 at B³ "
        "precision ≥ 0.95.",
        needs_shared=True,
    ),
    Extra(
        "bench_affiliations",
        "Offline affiliation matching (issue: identity quality)",
        "Precision and recall of `scholargraph institutions match` on ror-api's gold strings "
        "against the shared ROR dump (held-out fold and whole set), and time per 1,000 "
        "strings. Target: precision ≥ 0.95 at recall ≥ 0.85 over in-dump strings.",
        needs_shared=True,
    ),
    Extra(
        "bench_bulk",
        "The store written by neo4j-admin import (issue: scale)",
        "The 10,000-paper demo corpus loaded through all four sources with embedding, then "
        "`scholargraph neo4j compact` on that store: read out into typed CSV, written by "
        "`neo4j-admin database import full`, empty arrays and schema restored; the canonical "
        "dump compared before and after. The import is the physical floor of writing this "
        "graph, beside the transactional load that planned and wrote it.",
        args=("--papers", "10000"),
        timeout=3600.0,
    ),
)


def run_extra(extra: Extra, shared: Path) -> dict[str, Any]:
    if extra.needs_shared and not shared.is_dir():
        return {"error": f"{shared} is missing"}
    done = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{extra.module}", *extra.args],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=extra.timeout,
        check=False,
    )
    if done.returncode != 0:
        return {"error": done.stderr[-2000:]}
    try:
        result: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": done.stdout[-2000:]}
    return result


def run_all(shared: Path, only: set[str] | None = None) -> dict[str, Any]:
    return {
        extra.key: run_extra(extra, shared)
        for extra in EXTRAS
        if only is None or extra.module in only or extra.key in only
    }


def report(
    results: dict[str, Any], date: str | None = None, dates: dict[str, str] | None = None
) -> list[str]:
    """The standalone sections; ``dates`` names the sections measured again on their own
    (``make bench-extras``), ``date`` when the others were."""
    lines: list[str] = []
    if results and date:
        lines += [f"{DATED_SECTIONS} {date}.", ""]
    for extra in EXTRAS:
        if extra.key not in results:
            continue
        when = (dates or {}).get(extra.key)
        found = results[extra.key]
        lines += [
            f"## {extra.title}",
            "",
            extra.about + (f" Measured again on its own at {when}." if when else ""),
            "",
            f"`{extra.command}`",
            "",
            *(extra.tables(found) if extra.tables and isinstance(found, dict) else []),
            "```json",
            json.dumps(found, indent=2, default=str),
            "```",
            "",
        ]
    return lines
