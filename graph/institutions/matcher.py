"""Raw affiliation string → one ROR institution, or none.

Candidates come from the index two ways: a name (display name, label in another language or
alias) found among the words of the string, and an acronym printed on its own. Each is then
weighed against the places the string names (a country that is not the institution's rules
it out; its city or country named outside its name supports it) and against the words around
it (a name that goes on, "University of Texas *at Austin*", or that a hospital's name
contains, "Peking University *Third Hospital*", is another institution's).

The matcher prefers abstaining to guessing. These never decide alone: a name too generic to
identify an institution ("Institute of Physics", "Ministry of Health") without its country
or city; a name several institutions share; a one-word alias; an acronym without the
institution's country or city, and a two-letter one without its city (unless the whole string
is an acronym of four letters or more that no other institution has: "CNRS"); the alias of a
university *system*, which people use for its main campus; a name that ends with the
institution's city printed without it ("University of Maryland" for "University of Maryland,
Baltimore") when the city is not named. A candidate must score at least :data:`THRESHOLD`.

>>> from scholargraph.graph.institutions.index import IndexedInstitution, build_index
>>> index = build_index([
...     IndexedInstitution("057zh3y96", "University of Tokyo", acronyms=("UTokyo",),
...                        country_code="JP", city="Tokyo"),
...     IndexedInstitution("0001aa000", "Phenomics Australia", acronyms=("PA",),
...                        country_code="AU", city="Melbourne"),
... ])
>>> match = match_affiliation(index, "Dept. of Physics, Univ. of Tokyo, Tokyo 113-0033, Japan")
>>> match.ror_id, match.method
('057zh3y96', 'exact_name')
>>> match_affiliation(index, "PA").ror_id is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scholargraph.graph.institutions.index import AffiliationIndex, IndexedInstitution
from scholargraph.graph.institutions.normalise import SUBUNIT_HEADS, UNIT_WORDS, key_of, words
from scholargraph.graph.institutions.reading import (
    Candidate,
    Found,
    Reading,
    content_words,
    in_subunits,
    within,
)

Method = Literal[
    "exact_name",
    "alias",
    "name_in_text",
    "name_variant",
    "token_overlap",
    "acronym_with_city",
    "acronym_with_country",
    "acronym_alone",
    "none",
]
THRESHOLD = 0.7
_SCORE: dict[Method, float] = {
    "exact_name": 0.93,
    "alias": 0.91,
    "name_in_text": 0.85,
    "name_variant": 0.85,
    "token_overlap": 0.8,
    "acronym_with_city": 0.8,
    "acronym_with_country": 0.75,
    "acronym_alone": 0.75,
    "none": 0.0,
}
_WEAK = 0.4  # what a candidate that cannot decide alone scores
_LOCATION_BONUS = 0.03


@dataclass(frozen=True, slots=True)
class Match:
    """The decision for one string: ``ror_id`` None means the matcher abstained."""

    text: str
    ror_id: str | None
    score: float
    method: Method
    evidence: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {
            "affiliation": self.text,
            "ror_id": self.ror_id,
            "score": round(self.score, 3),
            "method": self.method,
            "evidence": list(self.evidence),
        }


def _strength(reading: Reading, candidate: Candidate, found: Found) -> tuple[float, Method, str]:
    """What one finding is worth, and why; ``_WEAK`` when it cannot decide alone."""
    located = candidate.country_agrees or candidate.city_agrees
    institution = candidate.institution
    if found.kind == "acronym":
        if not reading.alone_but_places(found, institution):
            return _WEAK, "acronym_with_country", f"acronym {found.value!r} inside a longer name"
        if candidate.city_agrees:
            return _SCORE["acronym_with_city"], "acronym_with_city", f"acronym {found.value!r}"
        method: Method = "acronym_with_country"
        if candidate.country_agrees and len(found.value) >= 3:
            return _SCORE[method], method, f"acronym {found.value!r}"
        if reading.is_one_word() and len(found.value) >= 4 and _sole_holder(reading, found):
            return _SCORE["acronym_alone"], "acronym_alone", f"acronym {found.value!r} alone"
        return _WEAK, method, f"acronym {found.value!r} without the institution's place"
    if found.kind in ("variant", "reordered", "citiless"):
        method = "name_variant"
    elif found.kind == "misspelt":
        method = "token_overlap"
    elif found.whole:
        method = "exact_name" if found.kind == "name" else "alias"
    else:
        method = "name_in_text"
    note = f"{method} {found.value!r}"
    content = content_words(found.value)
    generic = all(w in UNIT_WORDS for w in content)
    if generic and not located:
        return _WEAK, method, f"{note}, a generic name without its place"
    if not found.whole:
        if len(content) < 2 or generic:
            return _WEAK, method, f"{note}, too short to find inside a segment"
        flaw = reading.context_flaw(found, institution)
        if flaw:
            return _WEAK, method, f"{note}, but {flaw}"
    elif found.kind == "alias" and len(content) < 2 and not _written_in_characters(content[0]):
        return _WEAK, method, f"{note}, a one-word alias"
    if found.kind == "reordered" and not (found.whole and candidate.city_agrees):
        return _WEAK, method, f"{note}, its words in another order and without its city"
    if found.kind == "variant" and not (
        (candidate.city_agrees and reading.ends_segment(found))
        or (found.whole and (reading.stands_alone(found) or _carries_city(found, institution)))
    ):
        return _WEAK, method, f"{note}, printed another way and without its city"
    if found.kind == "citiless" and not candidate.city_agrees:
        return _WEAK, method, f"{note}, printed without its city, which is not named"
    family = reading.index.family_sizes.get(key_of(words(found.value)), 0)
    campus_may_follow = not (found.whole and reading.only_places_follow(found))
    if family and not candidate.city_agrees and campus_may_follow:
        return _WEAK, method, f"{note}, which begins the names of {family} others"
    if content[0] in SUBUNIT_HEADS and reading.institution_words_follow(found):
        return _WEAK, method, f"{note}, a part of the institution named after it"
    if found.kind != "name" and "system" in words(institution.name) and campus_may_follow:
        return _WEAK, method, f"{note}, the alias of a university system beside a campus"
    return _SCORE[method], method, note


def _sole_holder(reading: Reading, found: Found) -> bool:
    """No other institution has the acronym, as an acronym or as a one-word name."""
    holders = set(reading.index.by_acronym.get(found.value, ()))
    holders |= {e.ror_id for e in reading.index.by_key.get(found.value.lower(), ())}
    return len(holders) == 1


def _carries_city(found: Found, institution: IndexedInstitution) -> bool:
    """The name ends with the institution's city: "University of California San Diego"."""
    city = words(institution.city or "")
    return bool(city) and words(found.value)[-len(city) :] == city


def _written_in_characters(word: str) -> bool:
    """Chinese, Japanese and Korean names are one word however long: "東京大学"."""
    return any("\u2e80" <= ch <= "\ud7af" for ch in word)


@dataclass(frozen=True, slots=True)
class _Verdict:
    score: float
    method: Method
    evidence: tuple[str, ...]


def _share_key(found: Found) -> str:
    kind = "acronym" if found.kind == "acronym" else "name"
    return f"{kind}:{key_of(words(found.value))}"


def _weigh(reading: Reading, candidate: Candidate, shared: dict[str, list[str]]) -> _Verdict:
    best, notes = 0.0, list[str]()
    method: Method = "none"
    for found in candidate.found:
        score, kind, note = _strength(reading, candidate, found)
        holders = shared.get(_share_key(found), [])
        if len(holders) > 1 and score > _WEAK:
            with_city = [h for h in holders if reading.candidates[h].city_agrees]
            if with_city != [candidate.institution.ror_id]:
                score, note = _WEAK, f"{note}, a name {len(holders)} institutions share"
        notes.append(note)
        if score > best:
            best, method = score, kind
    if candidate.institution.status == "inactive" and best > _WEAK:
        best, notes = _WEAK, [*notes, "inactive in ROR"]
    if best > _WEAK:
        best += _LOCATION_BONUS * (candidate.country_agrees + candidate.city_agrees)
    if candidate.country_agrees:
        notes.append(f"country {candidate.institution.country_code}")
    if candidate.city_agrees:
        notes.append(f"city {candidate.institution.city}")
    return _Verdict(min(best, 1.0), method, tuple(notes))


def _shared(live: list[Candidate]) -> dict[str, list[str]]:
    """The live candidates holding each name key and acronym found."""
    holders: dict[str, list[str]] = {}
    for candidate in live:
        for found in candidate.found:
            slot = holders.setdefault(_share_key(found), [])
            if candidate.institution.ror_id not in slot:
                slot.append(candidate.institution.ror_id)
    return holders


def match_affiliation(index: AffiliationIndex, text: str) -> Match:
    """The institution ``text`` names, or an abstention (``ror_id`` None)."""
    reading = Reading(index, text)
    reading.collect()
    for candidate in reading.candidates.values():
        reading.locate(candidate)
    live = [c for c in reading.candidates.values() if c.ruled_out is None]
    if not live:
        out = [f"{c.institution.ror_id}: {c.ruled_out}" for c in reading.candidates.values()]
        return Match(text, None, 0.0, "none", tuple(out[:3]))
    shared = _shared(live)
    verdicts = {c.institution.ror_id: _weigh(reading, c, shared) for c in live}

    def score(candidate: Candidate) -> float:
        return verdicts[candidate.institution.ror_id].score

    accepted = [c for c in live if score(c) >= THRESHOLD]
    if len(accepted) > 1:
        outside = [c for c in accepted if not in_subunits(reading, c)]
        accepted = outside or accepted
        longest = [c for c in accepted if not any(within(c, o) for o in accepted if o is not c)]
        accepted = longest or accepted
    if not accepted:
        top = max(live, key=score)
        best = verdicts[top.institution.ror_id]
        evidence = (f"best {top.institution.ror_id} {top.institution.name}", *best.evidence)
        return Match(text, None, best.score, "none", evidence)
    accepted.sort(key=lambda c: -score(c))
    chosen = accepted[0]
    for other in accepted[1:]:
        if other.institution.ror_id in index.ancestors(chosen.institution.ror_id):
            chosen = other  # the institution rather than its part
    verdict = verdicts[chosen.institution.ror_id]
    return Match(text, chosen.institution.ror_id, verdict.score, verdict.method, verdict.evidence)
