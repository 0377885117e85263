"""Synthetic institutions: universities, labs, companies and hospitals, some under a parent."""

from __future__ import annotations

from bisect import bisect
from dataclasses import dataclass, field
from itertools import accumulate
from random import Random

from scholargraph.graph.demo import places
from scholargraph.graph.demo.minting import Mint
from scholargraph.graph.demo.sampling import Table

_MINOR_WORDS = frozenset({"of", "for", "and", "de", "di", "the", "la"})

# OpenAlex and ROR share this vocabulary of organisation types.
_KIND_WEIGHTS = (
    ("education", 0.68),
    ("facility", 0.12),
    ("company", 0.07),
    ("healthcare", 0.05),
    ("government", 0.04),
    ("nonprofit", 0.04),
)


@dataclass(slots=True)
class Institution:
    index: int
    name: str
    kind: str
    country: str
    city: str
    ror: str
    openalex: str
    established: int
    lat: float
    lng: float
    geonames: int
    grid: str
    wikidata: str
    acronym: str | None = None
    parent: int = -1
    children: list[int] = field(default_factory=list)
    popularity: float = 1.0


@dataclass(slots=True)
class InstitutionPool:
    institutions: list[Institution]
    by_country: dict[str, tuple[list[int], list[float]]]  # indices and cumulative popularity
    everywhere: tuple[list[int], list[float]]

    def pick(self, rng: Random, country: str | None = None) -> int:
        indices, cumulative = self.by_country.get(country or "", self.everywhere)
        return indices[bisect(cumulative, rng.random() * cumulative[-1])]


def _acronym(name: str) -> str | None:
    letters = [word[0] for word in name.replace("-", " ").split() if word not in _MINOR_WORDS]
    text = "".join(letters)
    return text.upper() if len(text) >= 3 and text.isalpha() else None


class _Builder:
    def __init__(self, rng: Random, mint: Mint) -> None:
        self.rng = rng
        self.mint = mint
        self.items: list[Institution] = []
        self.names: set[str] = set()
        self.universities_by_city: dict[tuple[str, str], int] = {}

    def add(self, name: str, kind: str, country: places.Country, city: str) -> Institution | None:
        if name in self.names:
            return None
        rng = self.rng
        self.names.add(name)
        popularity = rng.paretovariate(1.1) * (3.0 if kind == "education" else 1.0)
        item = Institution(
            index=len(self.items),
            name=name,
            kind=kind,
            country=country.code,
            city=city,
            ror=self.mint.ror(),
            openalex=self.mint.openalex("I"),
            established=rng.randint(1088, 1990) if kind == "education" else rng.randint(1880, 2018),
            lat=round(country.centre[0] + rng.uniform(-3, 3), 5),
            lng=round(country.centre[1] + rng.uniform(-3, 3), 5),
            geonames=self.mint.number("geonames", 100_000, 12_000_000),
            grid=f"grid.{self.mint.number('grid', 1000, 999_999)}.{rng.randint(1, 9)}",
            wikidata=f"Q{self.mint.number('wikidata', 10_000, 120_000_000)}",
            acronym=_acronym(name) if rng.random() < 0.5 else None,
            popularity=popularity,
        )
        self.items.append(item)
        if kind == "education":
            self.universities_by_city.setdefault((country.code, city), item.index)
        return item

    def name_for(self, kind: str, country: places.Country, city: str) -> str:
        rng = self.rng
        topic = rng.choice(places.TOPICS)
        if kind == "education":
            return rng.choice(country.university_forms).format(city=city)
        if kind == "facility":
            return rng.choice(places.FACILITY_FORMS).format(city=city, topic=topic)
        if kind == "company":
            return rng.choice(places.COMPANY_FORMS).format(word=rng.choice(places.COMPANY_WORDS))
        if kind == "government":
            return rng.choice(places.GOVERNMENT_FORMS).format(city=city, topic=topic)
        if kind == "nonprofit":
            return rng.choice(places.NONPROFIT_FORMS).format(city=city, topic=topic)
        university = self.universities_by_city.get((country.code, city))
        if university is not None:
            return f"{self.items[university].name} Hospital"
        return f"{city} General Hospital"

    def link(self, parent: Institution, child: Institution) -> None:
        child.parent = parent.index
        parent.children.append(child.index)


def build_institutions(rng: Random, mint: Mint, count: int) -> InstitutionPool:
    builder = _Builder(rng, mint)
    countries = places.COUNTRIES
    country_table = Table((country, country.weight) for country in countries)
    kind_table = Table(_KIND_WEIGHTS)

    # Research societies that run institutes in several cities (parent → children in ROR).
    for founder in places.FOUNDERS[: max(1, count // 80)]:
        country = country_table.pick(rng)
        society = builder.add(f"{founder} Society", "nonprofit", country, country.cities[0])
        if society is None:
            continue
        for topic in rng.sample(places.TOPICS, rng.randint(2, 4)):
            city = rng.choice(country.cities)
            institute = builder.add(f"{founder} Institute for {topic}", "facility", country, city)
            if institute is not None:
                builder.link(society, institute)

    attempts = 0
    while len(builder.items) < count and attempts < count * 20:
        attempts += 1
        country = country_table.pick(rng)
        city = rng.choice(country.cities)
        kind = kind_table.pick(rng)
        item = builder.add(builder.name_for(kind, country, city), kind, country, city)
        if item is not None and kind == "healthcare" and item.name.endswith(" Hospital"):
            university = builder.universities_by_city.get((country.code, city))
            if university is not None and item.name.startswith(builder.items[university].name):
                builder.link(builder.items[university], item)

    items = builder.items
    by_country: dict[str, tuple[list[int], list[float]]] = {}
    for country in countries:
        members = [item.index for item in items if item.country == country.code]
        if members:
            cumulative = list(accumulate(items[index].popularity for index in members))
            by_country[country.code] = (members, cumulative)
    everywhere = ([item.index for item in items], list(accumulate(i.popularity for i in items)))
    return InstitutionPool(items, by_country, everywhere)
