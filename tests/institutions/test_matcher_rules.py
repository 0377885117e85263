"""One test (or a pair: a match and the abstention beside it) per reading rule, each on a few
institutions written for it."""

from __future__ import annotations

import pytest

from scholargraph.graph.institutions import (
    AffiliationIndex,
    IndexedInstitution,
    build_index,
    match_affiliation,
)
from scholargraph.graph.institutions.index import without_city
from scholargraph.graph.institutions.normalise import name_key, segments, words

MADISON = "0uwmad001"
UC_SYSTEM = "0ucsys002"
UC_DAVIS = "0ucdav003"
UMB = "0umbal004"
RAS = "0ras00005"
BARCELONA = "0ubarc006"
DRESDEN = "0tudre007"
GOTTINGEN = "0ugott008"
PARIS = "0upari009"
CNRS = "0cnrs0010"
INRAE = "0inrae011"
CAS_CN = "0casch012"
CAS_CZ = "0cascz013"
LISBON = "0ulisb014"
UCLA = "0ucla0015"
AACHEN = "0rwth0016"
DAVILA = "0dav00017"
INDIANA = "0iu00s018"


def _inst(
    ror_id: str,
    name: str,
    country: str,
    city: str,
    *,
    aliases: tuple[str, ...] = (),
    acronyms: tuple[str, ...] = (),
    parents: tuple[str, ...] = (),
    types: tuple[str, ...] = (),
) -> IndexedInstitution:
    return IndexedInstitution(
        ror_id,
        name,
        aliases=aliases,
        acronyms=acronyms,
        country_code=country,
        city=city,
        types=types,
        parents=parents,
    )


@pytest.fixture(scope="module")
def index() -> AffiliationIndex:
    return build_index(
        [
            _inst(MADISON, "University of Wisconsin–Madison", "US", "Madison",
                  types=("education",)),
            # research centres of the university, whose names begin with its name
            _inst("0ssec0101", "University of Wisconsin–Madison Space Science Center", "US",
                  "Madison", parents=(MADISON,), types=("facility",)),
            _inst("0cimss102", "University of Wisconsin–Madison Satellite Studies Institute",
                  "US", "Madison", parents=(MADISON,), types=("facility",)),
            _inst(INDIANA, "Indiana University", "US", "Bloomington", types=("education",)),
            # campuses of it, universities themselves
            _inst("0iub00103", "Indiana University Bloomington", "US", "Bloomington",
                  parents=(INDIANA,), types=("education",)),
            _inst("0iui00104", "Indiana University Indianapolis", "US", "Indianapolis",
                  parents=(INDIANA,), types=("education",)),
            _inst(UC_SYSTEM, "University of California System", "US", "Oakland",
                  aliases=("University of California",), types=("education",)),
            _inst(UC_DAVIS, "University of California, Davis", "US", "Davis",
                  parents=(UC_SYSTEM,), types=("education",)),
            _inst(UCLA, "University of California, Los Angeles", "US", "Los Angeles",
                  parents=(UC_SYSTEM,), types=("education",)),
            _inst(UMB, "University of Maryland, Baltimore", "US", "Baltimore"),
            _inst(RAS, "Russian Academy of Sciences", "RU", "Moscow"),
            _inst(BARCELONA, "Universitat de Barcelona", "ES", "Barcelona"),
            _inst(DRESDEN, "Technische Universität Dresden", "DE", "Dresden"),
            _inst(GOTTINGEN, "University of Göttingen", "DE", "Göttingen"),
            _inst(PARIS, "Université Paris Cité", "FR", "Paris",
                  aliases=("University of Paris",)),
            _inst(CNRS, "Centre National de la Recherche Scientifique", "FR", "Paris",
                  acronyms=("CNRS",)),
            _inst(INRAE, "Institut National de Recherche pour l'Agriculture", "FR", "Paris",
                  acronyms=("INRAE",)),
            _inst(CAS_CN, "Chinese Academy of Sciences", "CN", "Beijing", acronyms=("CASC",)),
            _inst(CAS_CZ, "Czech Academy of Sciences", "CZ", "Prague", acronyms=("CASC",)),
            _inst(LISBON, "University of Lisbon", "PT", "Lisbon",
                  aliases=("Universidade de Lisboa",)),
            _inst(AACHEN, "RWTH Aachen University", "DE", "Aachen",
                  aliases=("Rheinisch-Westfälische Technische Hochschule Aachen",)),
            _inst(DAVILA, "Carol Davila University of Medicine and Pharmacy", "RO", "Bucharest"),
        ]
    )  # fmt: skip


def _decide(index: AffiliationIndex, text: str) -> str | None:
    return match_affiliation(index, text).ror_id


# Normalisation


def test_accents_printed_beside_their_letter_go() -> None:
    assert words("Universita¨t Go¨ttingen") == words("Universität Göttingen")
    assert name_key("Rheinisch Westfa¨lische Technische Hochschule Aachen") == name_key(
        "Rheinisch-Westfälische Technische Hochschule Aachen"
    )


def test_accents_printed_apart_find_the_name(index: AffiliationIndex) -> None:
    text = "Institute of Machine Design, Rheinisch Westfa¨lische Technische Hochschule Aachen"
    assert _decide(index, text) == AACHEN


def test_quotes_are_not_cuts() -> None:
    printed = "“Carol Davila” University of Medicine and Pharmacy, Bucharest"
    assert next(s.text for s in segments(printed)) == (
        "carol davila university of medicine and pharmacy"
    )
    assert [s.text for s in segments("«Kurchatov Institute»")] == ["kurchatov institute"]


def test_a_quoted_name_is_found(index: AffiliationIndex) -> None:
    text = '“Carol Davila" University of Medicine and Pharmacy, Bucharest, Romania'
    assert _decide(index, text) == DAVILA


def test_university_as_an_adjective_is_not_a_university(index: AffiliationIndex) -> None:
    assert "university" not in words("Instituto Universitário Hospital Universitaria")
    assert _decide(index, "Instituto Universitário de Lisboa") is None
    assert _decide(index, "Universidade de Lisboa") == LISBON


# Names that begin other names


def test_a_name_beginning_only_its_own_centres_names_is_no_family(
    index: AffiliationIndex,
) -> None:
    text = "Dept. of Civ. and Environmental Engrg., Univ. of Wisconsin, Madison, Wisc. 53706"
    assert _decide(index, text) == MADISON


def test_a_name_beginning_its_campuses_names_is_a_family(index: AffiliationIndex) -> None:
    match = match_affiliation(index, "Indiana University, Department of Biology, Richmond")
    assert match.ror_id is None
    assert any("begins the names of" in line for line in match.evidence), match.evidence


# Names ending with their city


def test_without_city() -> None:
    assert without_city("University of Maryland, Baltimore", "Baltimore") == "university _ maryland"
    assert without_city("Erasmus University Rotterdam", "Rotterdam") == "erasmus university"
    assert without_city("University of Oslo", "Oslo") is None  # "University" alone: generic
    assert without_city("Ghent University", "Ghent") is None  # does not end with its city


def test_a_name_printed_without_its_city_needs_the_city(index: AffiliationIndex) -> None:
    text = "Department of Radiology, University of Maryland School of Medicine, Baltimore, MD"
    match = match_affiliation(index, text)
    assert (match.ror_id, match.method) == (UMB, "name_variant"), match.evidence
    alone = match_affiliation(index, "University of Maryland School of Medicine")
    assert alone.ror_id is None
    assert any("printed without its city" in line for line in alone.evidence), alone.evidence


def test_a_system_name_and_a_campus_city_name_the_campus(index: AffiliationIndex) -> None:
    text = "University of California, School of Veterinary Medicine, Davis, CA"
    assert _decide(index, text) == UC_DAVIS
    assert _decide(index, "University of California, School of Veterinary Medicine") is None


# Words around a name


def test_a_branch_of_an_institution_is_not_the_institution(index: AffiliationIndex) -> None:
    match = match_affiliation(index, "Siberian Branch of the Russian Academy of Sciences")
    assert match.ror_id is None
    assert any("a branch of it" in line for line in match.evidence), match.evidence
    assert _decide(index, "Institute of Physics, Russian Academy of Sciences") == RAS


def test_an_acronym_hyphened_to_a_name_is_beside_it(index: AffiliationIndex) -> None:
    assert _decide(index, "Biophysics Unit, IDIBELL-University of Barcelona, Spain") == BARCELONA
    # a word before the name, not hyphened, still begins another name
    assert _decide(index, "Biophysics Unit, IDIBELL University of Barcelona, Spain") is None


# Names printed another way


def test_a_variant_carrying_the_city_counts_when_whole(index: AffiliationIndex) -> None:
    text = "Medical Faculty, Technical University of Dresden, Germany"
    assert _decide(index, text) == DRESDEN


def test_a_variant_inside_a_segment_needs_its_city_and_the_segment_end(
    index: AffiliationIndex,
) -> None:
    text = "Institut für Chemie der Universität Göttingen, Tammannstrasse 4, Göttingen"
    assert _decide(index, text) == GOTTINGEN
    # the name goes on ("Paris-Sud"): the city named elsewhere does not help
    assert _decide(index, "Univ Paris-Sud, Centre de Neurosciences Paris-Sud, France") is None


def test_a_misspelt_word_in_a_name_with_a_comma(index: AffiliationIndex) -> None:
    match = match_affiliation(index, "University of California, Los Angles")
    assert (match.ror_id, match.method) == (UCLA, "token_overlap"), match.evidence


# Acronyms


@pytest.mark.parametrize(("text", "ror_id"), [("CNRS", CNRS), ("Inrae", INRAE)])
def test_an_acronym_one_institution_holds_may_be_the_whole_string(
    index: AffiliationIndex, text: str, ror_id: str
) -> None:
    match = match_affiliation(index, text)
    assert (match.ror_id, match.method) == (ror_id, "acronym_alone"), match.evidence


@pytest.mark.parametrize("text", ["CASC", "CNRS Lab", "Cnrs lab"])
def test_a_shared_acronym_or_one_beside_other_words_is_not_enough(
    index: AffiliationIndex, text: str
) -> None:
    assert _decide(index, text) is None
