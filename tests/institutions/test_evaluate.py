"""Counting precision and recall, and reading gold files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scholargraph.graph.errors import BadInput
from scholargraph.graph.institutions import AffiliationIndex, Match, evaluate, read_gold
from scholargraph.graph.institutions.evaluate import GoldString, fold_of, score
from tests.institutions import records as r


def _gold(text: str, *ids: str) -> GoldString:
    return GoldString(text, frozenset(ids))


def _match(ror_id: str | None) -> Match:
    return Match("", ror_id, 0.9 if ror_id else 0.0, "exact_name" if ror_id else "none")


def test_counts_one_decision_per_string(index: AffiliationIndex) -> None:
    gold = [
        _gold("a", r.TOKYO),  # right
        _gold("b", r.TOKYO, r.CAS),  # right: one of its gold ids
        _gold("c", r.LEIPZIG),  # abstained
        _gold("d", "0zzzzzz99"),  # gold id not in the index: any match is wrong
        _gold("e"),  # names no institution: any match is wrong
        _gold("f", "0zzzzzz98"),  # abstained, outside the index
    ]
    matches = [
        _match(r.TOKYO),
        _match(r.CAS),
        _match(None),
        _match(r.CAS),
        _match(r.CNRS),
        _match(None),
    ]
    result = score(gold, matches, index)
    assert result.overall.as_json() == {
        "strings": 6,
        "with_gold": 5,
        "matched": 4,
        "correct": 2,
        "precision": 0.5,
        "recall": 0.4,
        "f1": 0.4444,
    }
    assert (result.in_index.strings, result.in_index.matched, result.in_index.correct) == (3, 2, 2)
    assert result.in_index.precision == 1.0
    assert result.in_index.recall == pytest.approx(2 / 3)


def test_no_match_at_all_is_precise_and_recalls_nothing(index: AffiliationIndex) -> None:
    result = score([_gold("a", r.TOKYO)], [_match(None)], index)
    assert (result.overall.precision, result.overall.recall, result.overall.f1) == (1.0, 0.0, 0.0)


def test_reads_both_ror_api_formats(tmp_path: Path) -> None:
    path = tmp_path / "gold.json"
    path.write_text(
        json.dumps(
            [
                {"affiliation": "Univ. of Tokyo", "ror_ids": [f"https://ror.org/{r.TOKYO}"]},
                {"affiliation": "Nowhere Ltd", "ror_ids": []},
                {"affiliation": "Leipzig University", "ror-id": f"https://ror.org/{r.LEIPZIG}"},
            ]
        )
    )
    assert read_gold(path) == [
        _gold("Univ. of Tokyo", r.TOKYO),
        _gold("Nowhere Ltd"),
        _gold("Leipzig University", r.LEIPZIG),
    ]


@pytest.mark.parametrize(
    "content",
    ["{}", "not json", '[{"ror_ids": []}]', '[{"affiliation": "x", "ror_ids": ["nope"]}]'],
)
def test_malformed_gold_is_bad_input(tmp_path: Path, content: str) -> None:
    path = tmp_path / "gold.json"
    path.write_text(content)
    with pytest.raises(BadInput):
        read_gold(path)


def test_folds_are_stable_and_roughly_even() -> None:
    texts = [f"Department {n}, University {n % 37}" for n in range(2000)]
    folds = [fold_of(t, 2) for t in texts]
    assert folds == [fold_of(t, 2) for t in texts]
    assert 900 < sum(folds) < 1100
    assert {fold_of(t, 5) for t in texts} == set(range(5))


def test_evaluate_matches_the_gold_strings(index: AffiliationIndex) -> None:
    gold = [_gold("Univ. of Tokyo, Japan", r.TOKYO), _gold("PA", r.PHENOMICS)]
    result = evaluate(gold, index)
    assert (result.in_index.matched, result.in_index.correct) == (1, 1)
