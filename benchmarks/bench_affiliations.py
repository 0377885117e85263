"""Precision and recall of the offline affiliation matcher on ror-api's gold strings, and what
matching costs.

The index is the ROR dump in the shared data (13,503 records, a part of the registry). Each
gold set is split in two by a hash of the string (``fold_of(text, 2)``): the matcher's rules
were written looking at fold 0 only, so fold 1 is the held-out figure; the whole set is
printed beside it. Printed as JSON::

    .venv/bin/python -m benchmarks.bench_affiliations [--shared ../shared/data] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from scholargraph.graph.institutions import AffiliationIndex, index_from_files, read_gold
from scholargraph.graph.institutions.evaluate import GoldString, fold_of, match_all, score

GOLD_SETS = {
    "crossref_2024_02_19": "tests_affiliations/data/dataset_affiliations_crossref_2024_02_19.json",
    "names": "tests_functional/data/dataset_names.json",
}
DEVELOPED_ON = 0


def _figures(gold: list[GoldString], index: AffiliationIndex) -> dict[str, object]:
    matches = match_all(index, (g.affiliation for g in gold))
    return score(gold, matches, index).as_json()


def _per_thousand(index: AffiliationIndex, texts: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        match_all(index, texts)
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) / len(texts) * 1000, 3)


def run(shared: Path, runs: int) -> dict[str, object]:
    started = time.perf_counter()
    index = index_from_files([shared / "ror" / "ror-records-v2-latest"])
    built = time.perf_counter() - started
    results: dict[str, object] = {
        "index": {"institutions": len(index), "build_s_from_files": round(built, 2)},
    }
    for name, relative in GOLD_SETS.items():
        gold = read_gold(shared / "ror" / "ror-api-tests" / relative)
        folds = {
            ("developed_on" if k == DEVELOPED_ON else "held_out"): _figures(
                [g for g in gold if fold_of(g.affiliation, 2) == k], index
            )
            for k in (0, 1)
        }
        results[name] = {
            **folds,
            "whole": _figures(gold, index),
            "seconds_per_1000_strings": _per_thousand(index, [g.affiliation for g in gold], runs),
        }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Path(__file__).resolve().parents[1].parent / "shared" / "data"
    parser.add_argument("--shared", type=Path, default=default, help="the shared data folder")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (the median counts)")
    args = parser.parse_args()
    print(json.dumps(run(args.shared, args.runs), indent=2))


if __name__ == "__main__":
    main()
