"""How people and institutions of the synthetic world are written in source records."""

from __future__ import annotations

from typing import Any

from scholargraph.graph.demo import names
from scholargraph.graph.demo.institutions import Institution
from scholargraph.graph.demo.people import Person
from scholargraph.graph.demo.places import COUNTRY_BY_CODE
from scholargraph.graph.demo.world import Paper, World

JsonObject = dict[str, Any]

UNICODE_HYPHEN = "\u2010"

# Salts for World.noise, one per independent per-record decision.
SALT_S2_UNLINKED = 7
SALT_OPENALEX_NO_INSTITUTION = 8
SALT_AFFILIATION_FORM = 9
SALT_CORRESPONDING = 10
SALT_EXTRA_PAPERS = 11
SALT_EXTRA_CITATIONS = 12
SALT_OPENALEX_CITATIONS = 13
SALT_PROFILE_AFFILIATION = 14
SALT_DBLP = 15
SALT_ROR_STATUS = 16


def joined(forenames: str, keyname: str, suffix: str) -> str:
    text = f"{forenames} {keyname}" if forenames else keyname
    return f"{text} {suffix}" if suffix else text


def printed_name(person: Person, variant: int) -> str:
    return joined(*names.printed(person.name, variant))


def openalex_form(text: str, person: Person) -> str:
    """OpenAlex prints some people's hyphens as U+2010 (``Ming‐Wei Chang``)."""
    return text.replace("-", UNICODE_HYPHEN) if person.unicode_hyphen else text


def display_name(person: Person) -> str:
    return printed_name(person, names.FULL)


def affiliation_text(world: World, institution: Institution, *key: int) -> str:
    """A raw affiliation string as authors type it: name, sometimes city and country."""
    country = COUNTRY_BY_CODE[institution.country].name
    form = world.noise(*key, SALT_AFFILIATION_FORM)
    if form < 0.4:
        return institution.name
    if form < 0.8:
        return f"{institution.name}, {institution.city}, {country}"
    return f"{institution.name}, {country}"


def institution_at(world: World, person: Person, paper: Paper) -> Institution:
    return world.institutions.institutions[person.institution_in(paper.year)]


def h_index(citations: list[int]) -> int:
    ranked = sorted(citations, reverse=True)
    return sum(1 for rank, count in enumerate(ranked, start=1) if count >= rank)


def s2_unlinked(world: World, paper: Paper, person: Person) -> bool:
    """S2 leaves a few author slots without an author id."""
    return world.noise(paper.index, person.index, SALT_S2_UNLINKED) < 0.005
