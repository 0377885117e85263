"""Affiliation strings and ROR names in one comparable form."""

from __future__ import annotations

import pytest

from scholargraph.graph.institutions.normalise import fold, key_of, name_key, segments, words
from scholargraph.graph.institutions.places import Places


def test_fold_decodes_entities_and_strips_accents() -> None:
    assert fold("Universit&#xE9; de Gen&egrave;ve") == "universite de geneve"
    assert fold("Łódź Straße Ørsted") == "lodz strasse orsted"


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("Univ. of Tokyo", ["university", "of", "tokyo"]),
        ("Dept. Phys., Inst. of Tech.", ["department", "phys", "institute", "of", "technology"]),
        ("Centre for Sleep Research", ["center", "for", "sleep", "research"]),
        ("Universität Leipzig", ["university", "leipzig"]),
        ("Women's & Children's", ["womens", "and", "childrens"]),
        ("l'Université d'Orléans", ["l", "university", "d", "orleans"]),
        ("Technische Universität Dresden", ["technical", "university", "dresden"]),
    ],
)
def test_words_spell_abbreviations_and_languages_one_way(printed: str, expected: list[str]) -> None:
    assert words(printed) == expected


def test_keys_keep_word_order_and_mark_small_words() -> None:
    assert name_key("University of Oslo") == name_key("Universitetet i Oslo") == "university _ oslo"
    assert name_key("University in Oslo") == "university _ oslo"
    assert name_key("The University of Tokyo") == "university _ tokyo"
    assert name_key("Washington University") != name_key("University of Washington")
    # "Loyola University Chicago" never reads as "University of Chicago"
    assert key_of(words("University Chicago")) != name_key("University of Chicago")
    # small words at the end stay: "Lyon I" is not "Lyon"
    assert name_key("Lyon-I") == "lyon i"


def test_segments_cut_at_separators_and_drop_footnote_marks() -> None:
    found = segments("1West Virginia Univ.; Morgantown (WV) – USA")
    assert [s.text for s in found] == ["west virginia university", "morgantown", "wv", "usa"]
    assert segments("a Department of Physics, Univ. of X")[0].text == "department of physics"
    # quotes wrap a part of a name ("“Carol Davila” University"): they go, without a cut
    assert [s.text for s in segments('Institution "Kotelnikov Institute", Moscow')] == [
        "institution kotelnikov institute",
        "moscow",
    ]


def test_words_run_together_are_parted_but_names_in_camel_case_are_not() -> None:
    run_on = segments("Robotic SystemsÉcole Polytechnique de LausanneLausanne1015Switzerland")
    assert run_on[0].words[-5:] == ("de", "lausanne", "lausanne", "1015", "switzerland")
    assert words("McGill DePaul MacArthur") == ["mcgill", "depaul", "macarthur"]


def test_segments_keep_the_printed_case_for_acronyms() -> None:
    (segment,) = segments("UiO CNRS")
    assert segment.tokens == ("UiO", "CNRS")
    assert segment.words == ("uio", "cnrs")


def test_subunit_segments_are_told_apart() -> None:
    first, second = segments("Dept. of Physics, University of Tokyo")
    assert first.is_subunit and not second.is_subunit


@pytest.mark.parametrize(
    ("text", "countries"),
    [
        ("Seoul, Republic of Korea", [{"KR"}]),
        ("Beijing 100190, P. R. China", [{"CN"}, {"CN"}]),
        ("Tempe, AZ 85287, USA", [{"US"}, {"US"}]),
        ("New Haven CT USA", [{"US"}]),
        ("Santa Fe, New Mexico", [{"US"}]),
        ("Freiburg, FRG", [{"DE"}]),
        ("Tbilisi, Georgia", [{"GE", "US"}]),
        ("Hasselt, Limburg, Belgium", [{"BE"}]),
    ],
)
def test_places_name_countries(text: str, countries: list[set[str]]) -> None:
    assert [set(m.countries) for m in Places.load().find(segments(text))] == countries


def test_lower_case_words_that_spell_codes_are_not_places() -> None:
    # "us", "in", "pa" are English words unless printed in capitals
    assert Places.load().find(segments("with us in the PA lab")) == []
    assert [set(m.countries) for m in Places.load().find(segments("Pittsburgh, PA"))] == [{"US"}]
