"""Same-name people on S2AND's ``qian`` block: the model's precision/recall curve, a threshold
chosen by cross-validation over name blocks, and the ceiling of what the block's fields can
tell.

The block gives names, affiliations and author positions only (its papers file, with titles,
venues and coauthors, is not in the snapshot). So besides the model at each threshold this
prints two ceilings computed from the gold clusters themselves:

* ``same_affiliation_oracle``: every person's mentions with one affiliation string put
  together, nothing else joined (each name-only mention alone): what a matcher that never
  errs on affiliations reaches;
* ``plus_name_only_oracle``: the same, and each name-only mention (no affiliation) put with
  its person's largest group, which no name-only evidence can decide.

The cross-validation splits the blocks into five folds by a hash of the block's name; on the
four others it picks the threshold with the best B³ F1 among those at B³ precision ≥ 0.95 (the
best F1 if none reaches it), and scores the held-out fold with it. Printed as JSON::

    python -m benchmarks.bench_disambiguation [--shared ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import zlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from scholargraph.graph.identity.cluster import ClusterConfig, blocks_of, cluster_mentions
from scholargraph.graph.identity.evaluate import compare_clusterings
from scholargraph.graph.identity.s2and import read_clusters, read_signatures, to_mentions

QIAN = Path("author-disambiguation") / "s2and" / "qian"
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9)
FOLDS = 5
PRECISION_TARGET = 0.95
Clusters = Sequence[Sequence[str]]


def _rounded(figures: Mapping[str, float]) -> dict[str, float]:
    keys = ("b3_precision", "b3_recall", "b3_f1", "pairwise_precision", "pairwise_recall")
    return {k: round(figures[k], 4) for k in keys}


def _within(clusters: Iterable[Sequence[str]], keep: set[str]) -> list[tuple[str, ...]]:
    kept = (tuple(e for e in c if e in keep) for c in clusters)
    return [c for c in kept if c]


def ceilings(gold: Mapping[str, Sequence[str]], affiliations: Mapping[str, tuple[str, ...]]):
    """The two oracle clusterings of the module's docstring."""
    by_string: list[list[str]] = []
    attached: list[list[str]] = []
    for members in gold.values():
        groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
        alone: list[str] = []
        for element in members:
            key = tuple(sorted(affiliations[element]))
            (groups[key] if key else alone).append(element)
        listed = [list(g) for g in groups.values()]
        by_string += listed + [[e] for e in alone]
        if listed:
            largest = max(listed, key=len)
            largest_with = [*largest, *alone]
            attached += [largest_with if g is largest else g for g in listed]
        else:
            attached += [[e] for e in alone]
    return by_string, attached


def _fold(block: str) -> int:
    return zlib.crc32(block.encode("utf-8")) % FOLDS


def _pick(curve: Mapping[float, Mapping[str, float]]) -> float:
    meeting = [t for t, f in curve.items() if f["b3_precision"] >= PRECISION_TARGET]
    pool = meeting or list(curve)
    return max(pool, key=lambda t: (curve[t]["b3_f1"], t))


def cross_validate(
    by_threshold: Mapping[float, Clusters],
    gold: Clusters,
    fold_of: Mapping[str, int],
) -> dict[str, Any]:
    folds: list[dict[str, Any]] = []
    held_out: list[tuple[str, ...]] = []
    for k in range(FOLDS):
        train = {e for e, f in fold_of.items() if f != k}
        test = {e for e, f in fold_of.items() if f == k}
        curve = {
            t: compare_clusterings(_within(c, train), _within(gold, train))
            for t, c in by_threshold.items()
        }
        chosen = _pick(curve)
        test_figures = compare_clusterings(_within(by_threshold[chosen], test), _within(gold, test))
        held_out += _within(by_threshold[chosen], test)
        folds.append(
            {"fold": k, "mentions": len(test), "threshold": chosen, **_rounded(test_figures)}
        )
    return {"folds": folds, "pooled_held_out": _rounded(compare_clusterings(held_out, gold))}


def run(shared: Path) -> dict[str, Any]:
    folder = shared / QIAN
    signatures = read_signatures(folder / "signatures.json")
    gold = read_clusters(folder / "clusters.json")
    mentions = to_mentions(signatures)
    fold_of = {m.mention_id: _fold(b) for b, group in blocks_of(mentions).items() for m in group}
    by_threshold = {
        t: cluster_mentions(mentions, config=ClusterConfig(threshold=t)) for t in THRESHOLDS
    }
    gold_clusters = list(gold.values())
    curve = {t: compare_clusterings(c, gold_clusters) for t, c in by_threshold.items()}
    affiliations = {s.signature_id: s.affiliations for s in signatures.values()}
    by_string, attached = ceilings(gold, affiliations)
    meeting = {t: f for t, f in curve.items() if f["b3_precision"] >= PRECISION_TARGET}
    best = max(meeting.items(), key=lambda kv: kv[1]["b3_f1"]) if meeting else None
    return {
        "mentions": len(mentions),
        "people": len(gold),
        "with_affiliation": sum(bool(s.affiliations) for s in signatures.values()),
        "curve": {str(t): _rounded(f) for t, f in curve.items()},
        "best_at_precision_target": (
            {"threshold": best[0], **_rounded(best[1])} if best is not None else None
        ),
        "cross_validation": cross_validate(by_threshold, gold_clusters, fold_of),
        "ceilings": {
            "same_affiliation_oracle": _rounded(compare_clusterings(by_string, gold_clusters)),
            "plus_name_only_oracle": _rounded(compare_clusterings(attached, gold_clusters)),
        },
        "target": {"b3_f1": 0.85, "b3_precision": PRECISION_TARGET},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("..") / "shared" / "data")
    args = parser.parse_args()
    print(json.dumps(run(args.shared), indent=2))


if __name__ == "__main__":
    main()
