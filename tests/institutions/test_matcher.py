"""Decisions of the affiliation matcher on a registry written for the tests."""

from __future__ import annotations

import pytest

from scholargraph.graph.institutions import THRESHOLD, AffiliationIndex, match_affiliation
from tests.institutions import records as r


@pytest.mark.parametrize(
    ("text", "ror_id", "method"),
    [
        ("Dept. of Physics, Univ. of Tokyo, Tokyo 113-0033, Japan", r.TOKYO, "exact_name"),
        ("東京大学", r.TOKYO, "alias"),
        ("Universität Leipzig", r.LEIPZIG, "alias"),
        ("UTokyo, Japan", r.TOKYO, "acronym_with_country"),
        ("PA, Canberra", r.PHENOMICS, "acronym_with_city"),
        ("CNRS, Paris, France", r.CNRS, "acronym_with_city"),
        ("INSERM U9, CNRS 7030, Paris", r.CNRS, "acronym_with_city"),
        ("Department of Neurology University of Tokyo Bunkyo Japan", r.TOKYO, "name_in_text"),
        ("University of Texas at Austin, TX, USA", r.TEXAS_AUSTIN, "exact_name"),
        ("University of Texas", r.TEXAS_SYSTEM, "alias"),
        ("University of Leipzig, Leipzig, Germany", r.LEIPZIG, "name_variant"),
        ("Washington University, St. Louis", r.WASHU, "name_variant"),
        ("College of Medicine, King Khaled University, Abha", r.KING_KHALID, "token_overlap"),
        ("Shell", r.SHELL, "exact_name"),
        ("Institute of Physics, Warsaw, Poland", r.PHYSICS_WARSAW, "exact_name"),
        ("Ministry of Health, Nairobi, Kenya", r.HEALTH_KENYA, "exact_name"),
    ],
)
def test_matches(index: AffiliationIndex, text: str, ror_id: str, method: str) -> None:
    match = match_affiliation(index, text)
    assert (match.ror_id, match.method) == (ror_id, method), match.evidence
    assert THRESHOLD <= match.score <= 1.0
    assert match.evidence


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("PA", "without the institution's place"),  # two letters, nothing else
        ("Pittsburgh, PA 15213", "without the institution's place"),
        ("Institute of Physics", "generic name without its place"),
        ("Ministry of Health", "generic name without its place"),
        ("University of Texas, Houston, TX", "system beside a campus"),
        ("University of Tokyo Hospital", "hospital"),
        ("Tokyo University of Science", "the name goes on"),
        ("Loyola University of Tokyo", "begins earlier"),
        ("Washington University", "without its city"),  # UW reordered, or WashU
        ("Université Pierre et Marie Curie, Paris", "inactive"),
        ("UMR 8195 CNRS Laboratory of Neuroscience", "inside a longer name"),
        ("University of Tokyo, Paris, France", "country JP is not FR"),
    ],
)
def test_abstains_rather_than_guess(index: AffiliationIndex, text: str, why: str) -> None:
    match = match_affiliation(index, text)
    assert match.ror_id is None
    assert match.method == "none"
    assert match.score < THRESHOLD
    assert any(why in line for line in match.evidence), match.evidence


def test_withdrawn_records_never_match(index: AffiliationIndex) -> None:
    match = match_affiliation(index, "Withdrawn Institute of Testing, London, UK")
    assert match.ror_id is None
    assert r.WITHDRAWN in index


def test_the_institution_is_chosen_over_its_part(index: AffiliationIndex) -> None:
    text = "Institute of Physics, Chinese Academy of Sciences, Beijing 100190, China"
    assert match_affiliation(index, text).ror_id == r.CAS
    # alone, the institute's homonym in Poland is ruled out by the country
    alone = match_affiliation(index, "Institute of Physics, Beijing, China")
    assert alone.ror_id == r.PHYSICS_BEIJING


def test_a_longer_name_wins_over_the_name_inside_it(index: AffiliationIndex) -> None:
    match = match_affiliation(index, "The University of Texas at Austin")
    assert match.ror_id == r.TEXAS_AUSTIN


def test_strings_that_name_nothing(index: AffiliationIndex) -> None:
    for text in ("", "   ", "Department of Physics", "12345", "&amp;"):
        match = match_affiliation(index, text)
        assert (match.ror_id, match.score, match.method) == (None, 0.0, "none")


def test_the_json_form(index: AffiliationIndex) -> None:
    payload = match_affiliation(index, "Leipzig University").as_json()
    assert payload == {
        "affiliation": "Leipzig University",
        "ror_id": r.LEIPZIG,
        "score": 0.93,
        "method": "exact_name",
        "evidence": ["exact_name 'Leipzig University'"],
    }


def test_decisions_do_not_depend_on_case_accents_or_spacing(index: AffiliationIndex) -> None:
    forms = ["University of Tokyo, Japan", "UNIVERSITY OF TOKYO ,  JAPAN", "Univ.  of Tōkyō; Japan"]
    assert {match_affiliation(index, f).ror_id for f in forms} == {r.TOKYO}
