"""The matcher on ror-api's real gold strings against the shared ROR dump: a floor under the
figures it reached (benchmarks/bench_affiliations.py prints them), so a change that loses
precision or recall fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

from scholargraph.graph.institutions import AffiliationIndex, evaluate, index_from_files, read_gold
from scholargraph.graph.institutions.evaluate import fold_of

pytestmark = pytest.mark.shared

CROSSREF = "tests_affiliations/data/dataset_affiliations_crossref_2024_02_19.json"
NAMES = "tests_functional/data/dataset_names.json"


@pytest.fixture(scope="module")
def dump_index(shared_data: Path) -> AffiliationIndex:
    return index_from_files([shared_data / "ror" / "ror-records-v2-latest"])


def test_crossref_strings_reach_the_target(dump_index: AffiliationIndex, shared_data: Path) -> None:
    gold = read_gold(shared_data / "ror" / "ror-api-tests" / CROSSREF)
    assert len(gold) == 3000
    whole = evaluate(gold, dump_index)
    assert whole.in_index.strings == 746
    assert whole.in_index.precision >= 0.985
    assert whole.in_index.recall >= 0.88
    assert whole.overall.precision >= 0.94
    held_out = evaluate([g for g in gold if fold_of(g.affiliation, 2) == 1], dump_index)
    assert held_out.in_index.precision >= 0.98
    assert held_out.in_index.recall >= 0.85


def test_institution_names_alone(dump_index: AffiliationIndex, shared_data: Path) -> None:
    gold = read_gold(shared_data / "ror" / "ror-api-tests" / NAMES)
    whole = evaluate(gold, dump_index)
    assert whole.in_index.strings == 255
    assert whole.in_index.precision >= 0.99
    assert whole.in_index.recall >= 0.85
    assert whole.overall.precision >= 0.93
