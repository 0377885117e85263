"""The synthetic world behind every rendered source: papers, people and institutions.

Papers are made in date order. Each picks a field, a lead author and a team: coauthors of the
lead's earlier papers, other people of the field in proportion to how much they have published
(which gives the Zipf-like productivity of real fields), and newcomers. Large collaborations
(hundreds of authors) draw from fixed member pools, like real experiments do.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import accumulate
from random import Random

from scholargraph.graph import taxonomy
from scholargraph.graph.demo import names, publication, text
from scholargraph.graph.demo.fields import (
    CROSS_LIST_TABLES,
    FIELDS,
    PRIMARY_TABLES,
    Field,
    category_in_year,
)
from scholargraph.graph.demo.institutions import InstitutionPool, build_institutions
from scholargraph.graph.demo.minting import Mint, mix, unit
from scholargraph.graph.demo.people import PeopleFactory, Person
from scholargraph.graph.demo.sampling import Table

FIRST_YEAR = 1992
LAST_YEAR = 2025
HYPERAUTHOR_RATE = 5 / 10_000  # papers with 200–1000 authors, per paper
S2_COVERAGE = 0.8
OPENALEX_COVERAGE = 0.7
_LAST_DAY = date(LAST_YEAR, 12, 31)
_HARVESTED = date(LAST_YEAR + 1, 1, 14)  # the day before the OAI-PMH responseDate
_YEARLY_CAP = 30
_ESTABLISHED_POOL = 100
_CROSS_LIST_COUNTS = Table(((0, 0.45), (1, 0.3), (2, 0.15), (3, 0.1)))
_VERSION_COUNTS = Table(((1, 0.55), (2, 0.3), (3, 0.1), (4, 0.03), (5, 0.02)))
_COLLABORATIONS = {
    "hep-experiment": ("HELIX Collaboration", "KESTREL Collaboration"),
    "astrophysics": ("Aurora Sky Survey Collaboration", "PULSAR-ARRAY Collaboration"),
}


@dataclass(slots=True)
class Paper:
    index: int
    arxiv_id: str
    created: date
    updated: date | None  # date of the latest version when there is more than one
    datestamp: date  # last metadata change, as OAI-PMH reports it
    field: int
    categories: tuple[str, ...]  # primary first
    authors: list[int]
    variants: bytes  # printed name form per author slot (see names.FULL …)
    collaboration: str | None
    prints_affiliations: bool
    journal_doi: str | None
    journal_ref: str | None
    comments: str | None
    license: str | None
    citations: int
    s2_corpus_id: int | None  # None: S2 does not have the paper
    openalex_id: str | None  # None: OpenAlex does not have the paper
    openalex_under_journal_doi: bool  # OpenAlex merged the preprint into the journal work

    @property
    def year(self) -> int:
        return self.created.year


@dataclass(slots=True)
class World:
    seed: int
    papers: list[Paper]
    people: list[Person]
    institutions: InstitutionPool

    def title(self, paper: Paper) -> str:
        return text.title(Random(mix(self.seed, paper.index, 1)), FIELDS[paper.field].key)

    def abstract(self, paper: Paper) -> str:
        return text.abstract(Random(mix(self.seed, paper.index, 2)), FIELDS[paper.field].key)

    def noise(self, *values: int) -> float:
        """A number in [0, 1) fixed by the seed and the values, whatever the rendering order."""
        return unit(self.seed, *values)


def _dates(rng: Random, count: int) -> list[tuple[date, int]]:
    """Submission dates and fields: arXiv grows ~6% a year and fields grow at their own pace."""
    cells = [
        (year, index, field.weight * math.exp((field.growth + 0.06) * (year - 2010)))
        for year in range(FIRST_YEAR, LAST_YEAR + 1)
        for index, field in enumerate(FIELDS)
        if year >= field.first_year
    ]
    cumulative = list(accumulate(weight for _, _, weight in cells))
    drawn = rng.choices(cells, cum_weights=cumulative, k=count)
    dated = [
        (date(year, rng.randint(1, 12), rng.randint(1, 28)), index) for year, index, _ in drawn
    ]
    dated.sort(key=lambda item: item[0])
    return dated


class _IdAllocator:
    """Hands out arXiv ids in submission order, spread over each month as a sample would be."""

    def __init__(self, rng: Random, dates: list[tuple[date, int]]) -> None:
        self.rng = rng
        self.per_month = Counter((day.year, day.month) for day, _ in dates)
        self.counters: Counter[tuple[str, int, int]] = Counter()

    def next(self, day: date, primary: str) -> str:
        yymm = f"{day.year % 100:02d}{day.month:02d}"
        if (day.year, day.month) < (2007, 4):
            archive, capacity, width = taxonomy.lookup(primary).archive, 999, 3
        else:
            archive, capacity = "", 9999 if day.year < 2015 else 99_999
            width = len(str(capacity))
        key = (archive, day.year, day.month)
        gap = max(1, min(40, capacity // (self.per_month[(day.year, day.month)] + 1)))
        self.counters[key] += self.rng.randint(1, gap)
        number = self.counters[key]
        if number > capacity:
            raise AssertionError(f"arXiv id space for {yymm} exhausted; lower the paper count")
        return f"{archive}/{yymm}{number:0{width}d}" if archive else f"{yymm}.{number:0{width}d}"


class _Simulation:
    def __init__(self, papers: int, seed: int) -> None:
        self.rng = Random(seed)
        self.seed = seed
        self.mint = Mint(self.rng)
        count = max(30, min(2500, papers // 40))
        self.institutions = build_institutions(self.rng, self.mint, count)
        self.factory = PeopleFactory(self.rng, self.mint, self.institutions)
        self.pools: list[list[int]] = [[] for _ in FIELDS]  # one entry per authorship
        self.collaboration_members: dict[str, list[int]] = {}
        self.papers: list[Paper] = []
        self.total = papers
        self._expanded: dict[str, tuple[str, ...]] = {}

    def run(self) -> World:
        dates = _dates(self.rng, self.total)
        ids = _IdAllocator(self.rng, dates)
        hyperauthor_papers = 0
        for index, (day, field_index) in enumerate(dates):
            field = FIELDS[field_index]
            hyper = field.hyperauthor and hyperauthor_papers < int((index + 1) * HYPERAUTHOR_RATE)
            hyperauthor_papers += hyper
            self.papers.append(self._paper(index, day, field_index, field, hyper, ids))
        self.factory.split_some_s2_profiles(
            0.04, lambda paper: self.papers[paper].s2_corpus_id is not None
        )
        return World(self.seed, self.papers, self.factory.people, self.institutions)

    def _new_person(self, field_index: int, year: int, lead: Person | None = None) -> Person:
        """Most newcomers on a team are students and postdocs in the lead's group."""
        joins = None
        if lead is not None and self.rng.random() < 0.6:
            joins = lead.institution_in(year)
        return self.factory.create(field_index, FIELDS[field_index], year, joins)

    def _team_size(self, field: Field, year: int) -> int:
        # large teams became common from the late 1990s on
        if self.rng.random() < field.large_team_rate * min(1.0, max(0.0, (year - 1995) / 15)):
            return self.rng.randint(20, 60)
        # teams have roughly doubled in size since the early 1990s
        median = field.team_median * (0.55 + 0.45 * min(1.0, (year - FIRST_YEAR) / 28))
        size = math.exp(self.rng.gauss(math.log(median), field.team_spread))
        return max(1, min(25, round(size)))

    def _available(self, person: Person, year: int) -> bool:
        """Still publishing, and not yet at the yearly output even the most prolific reach."""
        if person.active_until < year:
            return False
        papers = person.papers
        return len(papers) < _YEARLY_CAP or self.papers[papers[-_YEARLY_CAP]].year < year

    def _active_from_pool(self, field_index: int, year: int) -> int:
        """Someone of the field, drawn in proportion to their papers so far."""
        pool, people = self.pools[field_index], self.factory.people
        # a young field is mostly newcomers, however its first authors did
        if self.rng.random() * _ESTABLISHED_POOL > len(pool):
            return -1
        for _ in range(3):
            candidate = self.rng.choice(pool)
            if self._available(people[candidate], year):
                return candidate
        return -1

    def _team(self, field_index: int, field: Field, year: int) -> tuple[Person, list[int]]:
        rng, people = self.rng, self.factory.people
        chosen = self._active_from_pool(field_index, year) if rng.random() < 0.8 else -1
        lead = people[chosen] if chosen >= 0 else self._new_person(field_index, year)
        team, seen = [lead.index], {lead.index}
        size = self._team_size(field, year)
        while len(team) < size:
            draw = rng.random()
            candidate = -1
            if draw < 0.5 and lead.papers:
                earlier = self.papers[rng.choice(lead.papers[-12:])]
                if len(earlier.authors) <= 60:
                    candidate = rng.choice(earlier.authors)
                    candidate = candidate if self._available(people[candidate], year) else -1
            elif draw < 0.8:
                candidate = self._active_from_pool(field_index, year)
            if candidate < 0 or candidate in seen:
                candidate = self._new_person(field_index, year, lead).index
            team.append(candidate)
            seen.add(candidate)
        if len(team) >= 3 and rng.random() < 0.7:
            others = team[1:]
            rng.shuffle(others)
            return lead, [*others, lead.index]  # the lead (group head) signs last
        rng.shuffle(team)
        return lead, team

    def _collaboration_team(
        self, field_index: int, field: Field, year: int
    ) -> tuple[str, list[int]]:
        rng = self.rng
        name = rng.choice(_COLLABORATIONS[field.key])
        members = self.collaboration_members.get(name)
        if members is None:
            pool = self.pools[field_index]
            veterans = {rng.choice(pool) for _ in range(min(len(pool), 150))} if pool else set()
            members = sorted(veterans)
            while len(members) < 1100:
                members.append(self._new_person(field_index, year).index)
            self.collaboration_members[name] = members
        return name, rng.sample(members, rng.randint(200, 1000))

    def _categories(self, lead: Person, field_index: int, year: int) -> tuple[str, ...]:
        rng = self.rng
        primaries = PRIMARY_TABLES[field_index]
        wanted = rng.choice(lead.favourites) if rng.random() < 0.85 else primaries.pick(rng)
        primary = category_in_year(wanted, year)
        if primary is None:  # the category did not exist yet: take one of the field that did
            available = (category_in_year(code, year) for code in primaries.items)
            primary = next(code for code in available if code)
        codes = list(self._expand(primary))
        for code in CROSS_LIST_TABLES[field_index].picks(rng, _CROSS_LIST_COUNTS.pick(rng)):
            resolved = category_in_year(code, year)
            if resolved:
                codes.extend(c for c in self._expand(resolved) if c not in codes)
        return tuple(codes)

    def _expand(self, code: str) -> tuple[str, ...]:
        """A category with the alias arXiv lists beside it (cs.IT comes with math.IT)."""
        if code not in self._expanded:
            listed_as = taxonomy.canonical(code)
            self._expanded[code] = (listed_as, *taxonomy.aliases_of(listed_as))
        return self._expanded[code]

    def _paper(
        self, index: int, day: date, field_index: int, field: Field, hyper: bool, ids: _IdAllocator
    ) -> Paper:
        rng, people, year = self.rng, self.factory.people, day.year
        collaboration: str | None = None
        if hyper:
            collaboration, team = self._collaboration_team(field_index, field, year)
            lead = people[team[0]]
        else:
            lead, team = self._team(field_index, field, year)
        if hyper or rng.random() < field.alphabetical_rate:
            team.sort(key=lambda member: names.sort_key(people[member].name.surname))
        variants = bytearray()
        for member in team:
            person = people[member]
            self.factory.maybe_move(person, year)
            person.papers.append(index)
            if not hyper:
                self.pools[field_index].append(member)
            variants.append(person.style if rng.random() < 0.85 else rng.choice(person.variants))
        categories = self._categories(lead, field_index, year)
        versions = _VERSION_COUNTS.pick(rng)
        updated = None
        if versions > 1:
            updated = min(_LAST_DAY, day + timedelta(days=rng.randint(3, 400) * (versions - 1)))
        datestamp = min(_HARVESTED, (updated or day) + timedelta(days=rng.randint(0, 30)))
        journal_doi = journal_ref = None
        if year < LAST_YEAR and rng.random() < 0.45:
            journal_doi, journal_ref = publication.journal_publication(
                rng, field.journal_doi_prefix, year
            )
        in_openalex = rng.random() < OPENALEX_COVERAGE
        return Paper(
            index=index,
            arxiv_id=ids.next(day, categories[0]),
            created=day,
            updated=updated,
            datestamp=datestamp,
            field=field_index,
            categories=categories,
            authors=team,
            variants=bytes(variants),
            collaboration=collaboration,
            prints_affiliations=rng.random() < 0.25,
            journal_doi=journal_doi,
            journal_ref=journal_ref,
            comments=publication.comments_for(rng, field.key, year),
            license=publication.license_for(rng, year),
            citations=self._citations(year, hyper),
            s2_corpus_id=self.mint.s2_corpus() if rng.random() < S2_COVERAGE else None,
            openalex_id=self.mint.openalex("W") if in_openalex else None,
            openalex_under_journal_doi=journal_doi is not None and rng.random() < 0.05,
        )

    def _citations(self, year: int, hyper: bool) -> int:
        """Heavy-tailed (Pareto), growing with age; many papers, most of all new ones, have none."""
        age = LAST_YEAR + 1 - year
        if self.rng.random() < (0.3 if age <= 2 else 0.12):
            return 0
        scale = 3.0 * min(age, 12) ** 0.8 * (4.0 if hyper else 1.0)
        return min(250_000, int((self.rng.paretovariate(1.6) - 1.0) * scale))


def simulate(papers: int, seed: int) -> World:
    return _Simulation(papers, seed).run()
