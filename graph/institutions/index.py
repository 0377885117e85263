"""An in-memory index of ROR institutions for matching affiliation strings.

Built from :class:`IndexedInstitution` values, which hold what the graph stores of an
institution: its name, its other names (labels in other languages and aliases, in one list as
the graph keeps them), acronyms, country, city, status, types and parents. The index is the
same whether those come from the graph (:func:`scholargraph.graph.institutions.sources.
index_from_graph`) or from ROR dump files (:func:`~scholargraph.graph.institutions.sources.
index_from_files`), and two indexes compare equal when they hold the same institutions.

Withdrawn records are kept but never matched: ROR withdraws duplicates and mistakes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from scholargraph.graph.institutions.normalise import SMALL_WORDS, UNIT_WORDS, key_of, words
from scholargraph.graph.records import InstitutionRecord

NameKind = Literal["name", "alias", "variant", "reordered", "citiless"]
# "Google (United States)": ROR qualifies companies' names with their country.
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


@dataclass(frozen=True, slots=True)
class IndexedInstitution:
    ror_id: str
    name: str
    aliases: tuple[str, ...] = ()
    acronyms: tuple[str, ...] = ()
    country_code: str | None = None
    city: str | None = None
    status: str | None = None
    types: tuple[str, ...] = ()
    parents: tuple[str, ...] = ()

    @classmethod
    def of_record(cls, record: InstitutionRecord) -> IndexedInstitution:
        """What the graph keeps of a parsed ROR record (labels and aliases in one list)."""
        if record.ror_id is None:
            raise ValueError(f"{record.name!r} has no ROR id")
        return cls(
            ror_id=record.ror_id,
            name=record.name,
            aliases=tuple(dict.fromkeys((*record.labels, *record.aliases))),
            acronyms=record.acronyms,
            country_code=record.country_code,
            city=record.city,
            status=record.status,
            types=record.types,
            parents=record.parent_ids,
        )

    @property
    def matchable(self) -> bool:
        return self.status != "withdrawn"


@dataclass(frozen=True, slots=True)
class NameEntry:
    """One name of one institution under its key."""

    ror_id: str
    kind: NameKind
    value: str


@dataclass(eq=False)
class AffiliationIndex:
    """Institutions by ROR id, with look-ups by name key, acronym and city."""

    institutions: Mapping[str, IndexedInstitution]
    by_key: dict[str, tuple[NameEntry, ...]] = field(default_factory=dict)
    by_loose_key: dict[str, tuple[NameEntry, ...]] = field(default_factory=dict)
    by_acronym: dict[str, tuple[str, ...]] = field(default_factory=dict)
    city_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    children: dict[str, tuple[str, ...]] = field(default_factory=dict)
    keys_by_word: dict[str, tuple[str, ...]] = field(default_factory=dict)
    family_sizes: dict[str, int] = field(default_factory=dict)
    longest_key: int = 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AffiliationIndex):
            return NotImplemented
        return dict(self.institutions) == dict(other.institutions)

    def __len__(self) -> int:
        return len(self.institutions)

    def __contains__(self, ror_id: object) -> bool:
        return ror_id in self.institutions

    def __getitem__(self, ror_id: str) -> IndexedInstitution:
        return self.institutions[ror_id]

    def ancestors(self, ror_id: str) -> set[str]:
        """Parents, their parents, and so on, as far as the index holds them."""
        return _ancestors(self.institutions, ror_id)

    def related(self, one: str, other: str) -> bool:
        """One is an ancestor of the other."""
        return one in self.ancestors(other) or other in self.ancestors(one)


def build_index(institutions: Iterable[IndexedInstitution]) -> AffiliationIndex:
    by_id = {i.ror_id: i for i in sorted(institutions, key=lambda i: i.ror_id)}
    by_key: dict[str, dict[str, NameEntry]] = {}
    by_acronym: dict[str, set[str]] = {}
    cities: dict[str, set[str]] = {}
    children: dict[str, set[str]] = {}
    longest = 0
    for institution in by_id.values():
        for parent in institution.parents:
            if parent in by_id:
                children.setdefault(parent, set()).add(institution.ror_id)
        if not institution.matchable:
            continue
        named: list[tuple[NameKind, str]] = [("name", institution.name)]
        named += [("alias", alias) for alias in institution.aliases]
        for kind, printed in named:
            for value in dict.fromkeys((printed, _QUALIFIER.sub("", printed))):
                name_words = words(value)
                key = key_of(name_words)
                if not key:
                    continue
                slot = by_key.setdefault(key, {})
                if institution.ror_id not in slot:  # the display name comes first
                    slot[institution.ror_id] = NameEntry(institution.ror_id, kind, value)
                longest = max(longest, len(name_words))
        for acronym in institution.acronyms:
            by_acronym.setdefault(acronym, set()).add(institution.ror_id)
        if institution.city:
            cities.setdefault(" ".join(words(institution.city)), set()).add(institution.ror_id)
    families = _family_sizes(by_key, by_id)
    keys_by_word: dict[str, set[str]] = {}
    for key in by_key:
        for word in set(key.split()) - {"_"}:
            keys_by_word.setdefault(word, set()).add(key)
    _add_citiless(by_key, by_id)
    _add_variants(by_key)
    return AffiliationIndex(
        institutions=by_id,
        by_key={k: tuple(v.values()) for k, v in by_key.items()},
        by_loose_key=_loose(by_key),
        by_acronym={k: tuple(sorted(v)) for k, v in by_acronym.items()},
        city_words={k: tuple(sorted(v)) for k, v in cities.items()},
        children={k: tuple(sorted(v)) for k, v in children.items()},
        keys_by_word={k: tuple(sorted(v)) for k, v in keys_by_word.items()},
        family_sizes=families,
        longest_key=longest,
    )


def loosen(key: str) -> str:
    """A key without its small-word gaps: "University of California at San Diego" and
    "University of California San Diego" loosen alike."""
    return key.replace(" _ ", " ")


def variants(key: str) -> set[str]:
    """The name with "University" moved: "Leipzig University" for "University of Leipzig",
    "Marche Polytechnic University" for "Polytechnic University of Marche", and back."""
    out = set()
    parts = key.split()
    if "university" in parts:
        at = parts.index("university")
        rest = parts[at + 1 :]
        if len(rest) >= 2 and rest[0] == "_" and "_" not in rest[1:] and "_" not in parts[:at]:
            out.add(" ".join([*rest[1:], *parts[: at + 1]]))
    if len(parts) >= 2 and parts[-1] == "university" and "_" not in parts:
        out.add(" ".join(["university", "_", *parts[:-1]]))
    out.discard(key)
    return out


def without_city(name: str, city: str | None) -> str | None:
    """The key of a name that ends with the institution's city, without it: "Erasmus
    University" for "Erasmus University Rotterdam", "University of Maryland" for "University
    of Maryland, Baltimore"; None when the name does not end so or what is left is too short
    or too generic to name anything ("Universidad de Buenos Aires" leaves "Universidad").

    >>> without_city("The University of Texas Medical Branch at Galveston", "Galveston")
    'university _ texas medical branch'
    >>> without_city("Universidad de Buenos Aires", "Buenos Aires") is None
    True
    """
    place, name_words = words(city or ""), words(name)
    if not place or len(name_words) <= len(place) or name_words[-len(place) :] != place:
        return None
    rest = name_words[: -len(place)]
    while rest and rest[-1] in SMALL_WORDS:
        rest.pop()
    content = [w for w in key_of(rest).split() if w != "_"]
    if len(content) < 2 or all(w in UNIT_WORDS for w in content):
        return None
    return key_of(rest)


def _add_citiless(
    by_key: dict[str, dict[str, NameEntry]], by_id: Mapping[str, IndexedInstitution]
) -> None:
    found: dict[str, dict[str, NameEntry]] = {}
    for entries in by_key.values():
        for ror_id, entry in entries.items():
            key = without_city(entry.value, by_id[ror_id].city)
            if key is not None:
                found.setdefault(key, {}).setdefault(
                    ror_id, NameEntry(ror_id, "citiless", entry.value)
                )
    for key, entries in found.items():
        slot = by_key.setdefault(key, {})
        for ror_id, entry in entries.items():
            slot.setdefault(ror_id, entry)


def _add_variants(by_key: dict[str, dict[str, NameEntry]]) -> None:
    found: dict[str, dict[str, NameEntry]] = {}
    for key, entries in by_key.items():
        for variant in variants(key):
            if any(e.kind in ("name", "alias") for e in by_key.get(variant, {}).values()):
                continue  # another institution's real name
            slot = found.setdefault(variant, {})
            for ror_id, entry in entries.items():
                if entry.kind in ("name", "alias"):
                    slot.setdefault(ror_id, NameEntry(ror_id, "reordered", entry.value))
    for variant, entries in found.items():
        slot = by_key.setdefault(variant, {})
        for ror_id, entry in entries.items():
            slot.setdefault(ror_id, entry)


def _loose(by_key: dict[str, dict[str, NameEntry]]) -> dict[str, tuple[NameEntry, ...]]:
    out: dict[str, dict[str, NameEntry]] = {}
    for key, entries in by_key.items():
        slot = out.setdefault(loosen(key), {})
        for ror_id, entry in entries.items():
            if entry.kind in ("name", "alias"):
                slot.setdefault(ror_id, NameEntry(ror_id, "variant", entry.value))
    return {k: tuple(v.values()) for k, v in out.items() if v}


def _family_sizes(
    by_key: dict[str, dict[str, NameEntry]], by_id: Mapping[str, IndexedInstitution]
) -> dict[str, int]:
    """For a name that begins other institutions' names ("Indian Institute of Technology",
    "University of California"), how many: on its own it may mean any of them. Its own parts
    count only when they are campuses, universities themselves ("Indiana University
    Bloomington"); a research centre of it does not ("University of Wisconsin–Madison Space
    Science and Engineering Center")."""
    starting: dict[str, set[str]] = {}
    for key, entries in by_key.items():
        parts = key.split()
        for size in range(2, len(parts)):
            starting.setdefault(" ".join(parts[:size]), set()).update(entries)
    sizes: dict[str, int] = {}
    for key, entries in by_key.items():
        others = {
            other
            for other in starting.get(key, set()) - set(entries)
            if "education" in by_id[other].types or not set(entries) & _ancestors(by_id, other)
        }
        if len(others) >= 2:
            sizes[key] = len(others)
    return sizes


def _ancestors(by_id: Mapping[str, IndexedInstitution], ror_id: str) -> set[str]:
    seen: set[str] = set()
    todo = list(by_id[ror_id].parents) if ror_id in by_id else []
    while todo:
        parent = todo.pop()
        if parent in seen or parent not in by_id:
            continue
        seen.add(parent)
        todo.extend(by_id[parent].parents)
    return seen
