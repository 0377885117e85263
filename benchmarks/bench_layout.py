"""Time what drawing a researcher-network map costs: build + communities + layout.

A seeded generator writes authorship rows for a synthetic field: researchers in groups
(labs) of 10–60 who mostly publish together, with some papers across groups. The rows are
built into a coauthor graph, split into Louvain communities and laid out with ForceAtlas2;
each step is timed, and the medians over the runs are printed as JSON::

    .venv/bin/python benchmarks/bench_layout.py --nodes 2000 --edges 8000 --runs 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from itertools import combinations

from scholargraph.graph.analysis import (
    coauthor_graph_from_authorships,
    components,
    forceatlas2,
    louvain,
)

Row = dict[str, object]
AUTHOR_COUNTS = (2, 2, 3, 3, 3, 4, 4, 5, 6, 8)


def synthetic_authorships(nodes: int, edges: int, seed: int) -> list[Row]:
    """Authorship rows in which ``nodes`` researchers share about ``edges`` coauthor pairs."""
    rng = random.Random(seed)
    groups: list[list[int]] = []
    researcher = 1
    while researcher <= nodes:
        size = min(rng.randint(10, 60), nodes - researcher + 1)
        groups.append(list(range(researcher, researcher + size)))
        researcher += size
    group_of = {r: g for g in groups for r in g}

    rows: list[Row] = []
    pairs: set[tuple[int, int]] = set()

    def publish(first: int) -> None:
        home = group_of[first]
        authors = {first}
        while len(authors) < min(rng.choice(AUTHOR_COUNTS), len(home)):
            pool = home if rng.random() < 0.85 else rng.choice(groups)
            authors.add(rng.choice(pool))
        paper = f"synthetic.{len(rows):07d}"
        year = rng.randint(2005, 2024)
        rows.extend(
            {"paper": paper, "year": year, "n_authors": len(authors), "researcher": r}
            for r in authors
        )
        pairs.update(combinations(sorted(authors), 2))

    for first in range(1, nodes + 1):  # everyone publishes at least once
        publish(first)
    while len(pairs) < edges:
        publish(rng.randint(1, nodes))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--edges", type=int, default=8000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-iter", type=int, default=60)
    args = parser.parse_args()

    rows = synthetic_authorships(args.nodes, args.edges, args.seed)
    timings: dict[str, list[float]] = {"build": [], "communities": [], "layout": [], "total": []}
    for _ in range(args.runs):
        start = time.perf_counter()
        graph = coauthor_graph_from_authorships(rows)
        built = time.perf_counter()
        found = louvain(graph, seed=args.seed)
        grouped = time.perf_counter()
        forceatlas2(graph, seed=args.seed, max_iter=args.max_iter)
        laid_out = time.perf_counter()
        timings["build"].append(built - start)
        timings["communities"].append(grouped - built)
        timings["layout"].append(laid_out - grouped)
        timings["total"].append(laid_out - start)

    report = {
        "nodes": graph.number_of_nodes(),
        "edges": graph.number_of_edges(),
        "authorship_rows": len(rows),
        "components": components(graph).count,
        "communities": len(found.sizes),
        "modularity": round(found.modularity, 3),
        "max_iter": args.max_iter,
        "runs": args.runs,
        "median_seconds": {step: round(statistics.median(t), 4) for step, t in timings.items()},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
