"""Synthetic people: a name, a field, a career across institutions and their ids in each source."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from scholargraph.graph.demo import name_pools, names
from scholargraph.graph.demo.fields import PRIMARY_TABLES, Field
from scholargraph.graph.demo.institutions import InstitutionPool
from scholargraph.graph.demo.minting import Mint
from scholargraph.graph.demo.sampling import Table


@dataclass(slots=True)
class Person:
    index: int
    name: names.PersonName
    origin: str
    field: int
    favourites: tuple[str, ...]  # the 1–3 categories they mostly publish in (modern codes)
    style: int  # the printed form of their name they use most
    variants: tuple[int, ...]  # every printed form that differs for their name
    orcid: str | None
    orcid_known_to_s2: bool
    orcid_known_to_openalex: bool
    s2_ids: list[str]
    openalex_id: str
    unicode_hyphen: bool  # OpenAlex prints their hyphen as U+2010
    affiliations: list[tuple[int, int]]  # (first year, institution index), oldest first
    active_until: int  # last year they publish: most leave research after a few years
    papers: list[int] = dataclasses.field(default_factory=list)
    s2_split_from: int = -1  # first paper index S2 credits to s2_ids[1]
    openalex_shared: bool = False  # OpenAlex merged them with another person of the same name

    def institution_in(self, year: int) -> int:
        for first_year, institution in reversed(self.affiliations):
            if first_year <= year:
                return institution
        return self.affiliations[0][1]

    def s2_id_for(self, paper_index: int) -> str:
        if self.s2_split_from >= 0 and paper_index >= self.s2_split_from:
            return self.s2_ids[1]
        return self.s2_ids[0]


# The first people of every corpus include two of each colliding name, so even a tiny
# corpus has homonyms; after that one new person in _COLLISION_EVERY takes such a name.
_EARLY_COLLISION_SLOTS = frozenset(range(3, 3 + 8 * 2 * len(name_pools.COLLISION_NAMES), 8))
_COLLISION_EVERY = 251
_FAVOURITE_COUNTS = Table(((1, 0.45), (2, 0.35), (3, 0.2)))


class PeopleFactory:
    def __init__(self, rng: Random, mint: Mint, institutions: InstitutionPool) -> None:
        self.rng = rng
        self.mint = mint
        self.institutions = institutions
        self.people: list[Person] = []
        self._origins = Table((origin, origin.weight) for origin in name_pools.ORIGINS)
        self._surnames = {o.key: names.surname_table(o) for o in name_pools.ORIGINS}
        self._countries = {o.key: Table(o.countries) for o in name_pools.ORIGINS}
        self._collisions_made = 0
        self._openalex_by_name: dict[str, list[int]] = {}

    def _pick_name(self) -> tuple[name_pools.Origin, names.PersonName, bool]:
        index = len(self.people)
        if index in _EARLY_COLLISION_SLOTS or index % _COLLISION_EVERY == _COLLISION_EVERY - 1:
            origin_key, given, surname = name_pools.COLLISION_NAMES[
                self._collisions_made % len(name_pools.COLLISION_NAMES)
            ]
            self._collisions_made += 1
            return name_pools.ORIGIN_BY_KEY[origin_key], names.PersonName(given, surname), True
        origin = self._origins.pick(self.rng)
        name = names.make_name(self.rng, origin, self._surnames[origin.key])
        return origin, name, False

    def _favourites(self, field_index: int) -> tuple[str, ...]:
        count = _FAVOURITE_COUNTS.pick(self.rng)
        picked: list[str] = []
        for code in PRIMARY_TABLES[field_index].picks(self.rng, count):
            if code not in picked:
                picked.append(code)
        return tuple(picked)

    def _openalex_id(
        self, name: names.PersonName, collides: bool, orcid: str | None
    ) -> tuple[str, bool]:
        """OpenAlex sometimes folds two people of one common name into one author id."""
        if collides and self.rng.random() < 0.2:
            for earlier in self._openalex_by_name.get(name.full, []):
                other = self.people[earlier]
                if orcid is None or other.orcid is None:
                    other.openalex_shared = True
                    return other.openalex_id, True
        return self.mint.openalex("A"), False

    def create(self, field_index: int, home: Field, year: int, joins: int | None = None) -> Person:
        """A newcomer; ``joins`` is the institution of the group they start in, if known."""
        rng = self.rng
        origin, name, collides = self._pick_name()
        orcid_rate = 0.2 if year < 2012 else 0.45
        orcid = self.mint.orcid() if rng.random() < orcid_rate else None
        country = self._countries[origin.key].pick(rng)
        variants = names.applicable_variants(name)
        initials_rate = 0.3 if home.alphabetical_rate > 0.5 else 0.1
        style = names.INITIALS if rng.random() < initials_rate else names.FULL
        openalex_id, shared = self._openalex_id(name, collides, orcid)
        person = Person(
            index=len(self.people),
            name=name,
            origin=origin.key,
            field=field_index,
            favourites=self._favourites(field_index),
            style=style,
            variants=variants,
            orcid=orcid,
            orcid_known_to_s2=orcid is not None and rng.random() < 0.5,
            orcid_known_to_openalex=orcid is not None and rng.random() < 0.85,
            s2_ids=[self.mint.s2_author()],
            openalex_id=openalex_id,
            openalex_shared=shared,
            unicode_hyphen=rng.random() < 0.5,
            active_until=year + min(45, round(math.exp(rng.gauss(1.6, 0.9)))),
            affiliations=[(year, self.institutions.pick(rng, country) if joins is None else joins)],
        )
        self.people.append(person)
        if collides:
            self._openalex_by_name.setdefault(name.full, []).append(person.index)
        return person

    def maybe_move(self, person: Person, year: int) -> None:
        """People change institution every few years, mostly within their country."""
        first_year, current = person.affiliations[-1]
        if year - first_year < 2 or self.rng.random() >= 0.07:
            return
        institutions = self.institutions
        here = institutions.institutions[current].country
        country = here if self.rng.random() < 0.5 else None
        moved_to = institutions.pick(self.rng, country)
        if moved_to != current:
            person.affiliations.append((year, moved_to))

    def split_some_s2_profiles(self, rate: float, in_s2: Callable[[int], bool]) -> None:
        """S2 sometimes keeps one person's later papers under a second author id."""
        first_candidate: tuple[Person, list[int]] | None = None
        split_any = False
        for person in self.people:
            covered = [paper for paper in person.papers if in_s2(paper)]
            if len(covered) < 2:
                continue
            first_candidate = first_candidate or (person, covered)
            if len(covered) >= 4 and self.rng.random() < rate:
                self._split(person, covered)
                split_any = True
        if not split_any and first_candidate is not None:
            self._split(*first_candidate)  # every corpus shows the case at least once

    def _split(self, person: Person, covered: list[int]) -> None:
        cut = self.rng.randrange(1, len(covered))
        person.s2_ids.append(self.mint.s2_author())
        person.s2_split_from = covered[cut]
