"""The same-name benchmark's ceilings and cross-validation, on hand-made clusters, and its
report on S2AND's ``qian`` block."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import bench_disambiguation as bench
from scholargraph.graph.identity.evaluate import compare_clusterings

GOLD = {"ada": ["1", "2", "3", "4"], "bob": ["5", "6"]}
AFFILIATIONS: dict[str, tuple[str, ...]] = {
    "1": ("Cambridge",),
    "2": ("Cambridge",),
    "3": ("Oxford",),
    "4": (),
    "5": (),
    "6": (),
}


def test_the_affiliation_ceiling_joins_only_one_persons_mentions_with_one_string() -> None:
    by_string, attached = bench.ceilings(GOLD, AFFILIATIONS)
    assert sorted(map(sorted, by_string)) == [["1", "2"], ["3"], ["4"], ["5"], ["6"]]
    # the name-only mention joins its person's largest group; a person with no affiliation
    # at all stays in pieces
    assert sorted(map(sorted, attached)) == [["1", "2", "4"], ["3"], ["5"], ["6"]]
    for clusters in (by_string, attached):
        assert compare_clusterings(clusters, GOLD.values())["b3_precision"] == 1.0


def test_cross_validation_scores_each_fold_with_a_threshold_chosen_on_the_others() -> None:
    gold = [("a1", "a2"), ("b1",), ("c1", "c2"), ("d1",), ("e1", "e2")]
    strict = [(e,) for cluster in gold for e in cluster]
    loose = [("a1", "a2", "b1"), ("c1", "c2", "d1"), ("e1", "e2")]
    fold_of = {e: index % bench.FOLDS for index, c in enumerate(gold) for e in c}
    report = bench.cross_validate({0.9: strict, 0.3: loose}, gold, fold_of)
    assert [f["fold"] for f in report["folds"]] == list(range(bench.FOLDS))
    assert sum(f["mentions"] for f in report["folds"]) == 8
    # the strict clustering is the only one at precision 1.0 on every training set
    assert {f["threshold"] for f in report["folds"]} == {0.9}
    assert report["pooled_held_out"]["b3_precision"] == 1.0


@pytest.mark.shared
def test_the_report_on_qian_puts_the_model_beside_its_ceilings(shared_data: Path) -> None:
    report = bench.run(shared_data)
    assert report["mentions"] == 3071 and report["people"] == 574
    assert set(report["curve"]) == {str(t) for t in bench.THRESHOLDS}
    ceilings = report["ceilings"]
    assert ceilings["same_affiliation_oracle"]["b3_precision"] == 1.0
    assert (
        ceilings["plus_name_only_oracle"]["b3_recall"]
        > ceilings["same_affiliation_oracle"]["b3_recall"]
    )
    assert len(report["cross_validation"]["folds"]) == bench.FOLDS
