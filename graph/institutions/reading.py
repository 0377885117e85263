"""How the matcher reads one affiliation string: its segments, the places it names, and
every institution a name or acronym in it may stand for, with where it was found.

:class:`Reading` finds candidates and the facts the decision weighs (the country and city
outside the name, the words around it); :mod:`~scholargraph.graph.institutions.matcher`
decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from scholargraph.graph.institutions.index import AffiliationIndex, IndexedInstitution, loosen
from scholargraph.graph.institutions.normalise import (
    SMALL_WORDS,
    SUBUNIT_HEADS,
    UNIT_WORDS,
    Segment,
    fold,
    key_of,
    segments,
    words,
)
from scholargraph.graph.institutions.places import Places

FoundKind = Literal["name", "alias", "variant", "reordered", "citiless", "acronym", "misspelt"]
# A name followed by one of these goes on: "University of Texas at Austin".
_CONTINUATIONS = frozenset(
    {"at", "of", "in", "for", "and", "de", "di", "du", "des", "da", "do", "et", "und", "y"}
)
# Words before a name that leave it whole: "Affiliated to …", "… at …".
_OPENERS = frozenset({"to", "at", "with", "from", "by", "the", "der"})
# Endings of the fields departments are named after ("Neurology", "Studies", "Medicine").
_FIELD_ENDINGS = (
    "ology", "ologie", "ics", "ry", "ence", "ences", "ine", "ing", "ies", "ism", "ure",
    "tion", "sion", "ment", "ogy", "phy", "ity", "ia", "ship", "ise", "ize", "ls",
)  # fmt: skip
# Adjectives that begin institutions' names: "Medical University of Lodz".
_NAME_ADJECTIVES = frozenset(
    {"medical", "technical", "agricultural", "state", "national", "normal", "polytechnic",
     "catholic", "pontifical", "free", "open", "federal", "royal", "metropolitan", "city",
     "international", "municipal", "new", "central", "american", "european", "imperial"}
)  # fmt: skip
_INSTITUTION_WORDS = frozenset(
    {"university", "college", "institute", "hospital", "school", "academy", "polytechnic"}
)
_HOSPITAL_WORDS = frozenset({"hospital", "hospitals", "clinic", "clinics", "infirmary"})
_HOSPITAL_PAIRS = frozenset(
    {("medical", "center"), ("health", "science"), ("health", "system"), ("health", "center"),
     ("cancer", "center"), ("medical", "branch")}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Found:
    """Where one name or acronym of an institution is printed: words ``start``–``end`` of
    segment ``segment``, or whole segments ``segment``–``last`` for a name with a comma."""

    kind: FoundKind
    value: str
    segment: int
    start: int
    end: int
    last: int
    whole: bool

    def covers(self, segment: int, start: int, end: int) -> bool:
        if self.last > self.segment:
            return self.segment <= segment <= self.last
        return segment == self.segment and self.start <= start and end <= self.end


@dataclass(slots=True)
class Candidate:
    institution: IndexedInstitution
    found: list[Found] = field(default_factory=list)
    country_agrees: bool = False
    city_agrees: bool = False
    ruled_out: str | None = None


def _spans(segs: list[Segment], longest: int) -> Iterator[tuple[int, int, int, int]]:
    """``(segment, start, end, last)`` of every run of words that may be a name."""
    for number, segment in enumerate(segs):
        ws = segment.words
        for start in range(len(ws)):
            if ws[start] in SMALL_WORDS:
                continue
            for end in range(start + 1, min(len(ws), start + longest) + 1):
                yield number, start, end, number
    # a name with a comma in it ("University of Wisconsin, Madison") spans whole segments
    for first in range(len(segs)):
        size = len(segs[first].words)
        for last in range(first + 1, min(len(segs), first + 3)):
            size += len(segs[last].words)
            if size > longest + 2:
                break
            yield first, 0, len(segs[first].words), last


_MISSPELT_LOOKUPS = 400


def _misspelling(printed: str, name: str) -> bool:
    """One letter added, dropped or changed in a long word (two in a very long one)."""
    if min(len(printed), len(name)) < 6 or "_" in (printed, name):
        return False
    allowed = 2 if min(len(printed), len(name)) >= 9 else 1
    return _edit_distance(printed, name, allowed) <= allowed


def _edit_distance(a: str, b: str, limit: int) -> int:
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _unnumbered(ws: tuple[str, ...]) -> tuple[str, ...]:
    end = len(ws)
    while end > 1 and ws[end - 1].isdigit():
        end -= 1
    return ws[:end]


def _field_word(word: str) -> bool:
    return word in UNIT_WORDS or (len(word) > 4 and word.endswith(_FIELD_ENDINGS))


def content_words(value: str) -> list[str]:
    return [w for w in key_of(words(value)).split() if w != "_"]


class Reading:
    """One affiliation string as the matcher reads it: segments, places, candidates."""

    def __init__(self, index: AffiliationIndex, text: str) -> None:
        self.index = index
        self.segments = segments(text)
        self.places = Places.load().find(self.segments)
        self.candidates: dict[str, Candidate] = {}

    def collect(self) -> None:
        by_key = self.index.by_key
        for number, start, end, last in _spans(self.segments, self.index.longest_key):
            if last > number:  # postcodes go: "China University of Petroleum, Beijing 102249"
                ws = [w for s in self.segments[number : last + 1] for w in _unnumbered(s.words)]
            else:
                ws = list(self.segments[number].words[start:end])
            whole = last > number or (start == 0 and end == len(self.segments[number].words))
            key = key_of(ws)
            entries = by_key.get(key, ())
            named = {e.ror_id for e in entries}
            loose = self.index.by_loose_key.get(loosen(key), ())
            for entry in (*entries, *(e for e in loose if e.ror_id not in named)):
                found = Found(entry.kind, entry.value, number, start, end, last, whole)
                self._add(entry.ror_id, found)
        spans = {(f.segment, f.last) for c in self.candidates.values() for f in c.found if f.whole}
        for number, segment in enumerate(self.segments):
            if (number, number) not in spans:
                self._misspelt(number, number, segment.words)
            # a name with a comma and a short second part: "University of California, Los
            # Angles"
            following = self.segments[number + 1].words if number + 1 < len(self.segments) else ()
            if 0 < len(following) <= 3 and (number, number + 1) not in spans:
                joined = (*segment.words, *_unnumbered(following))
                self._misspelt(number, number + 1, joined)
        for number, segment in enumerate(self.segments):
            for position, token in enumerate(segment.tokens):
                if self.is_one_word() and token.upper() in self.index.by_acronym:
                    token = token.upper()  # "Inrae": the string is the acronym
                if sum(ch.isupper() for ch in token) < 2 or token[1:].islower():
                    continue
                holders = set(self.index.by_acronym.get(token, ()))
                # a one-word name printed in capitals is an acronym too ("INSERM U409")
                word = segment.words[position]
                holders |= {e.ror_id for e in by_key.get(word, ()) if e.kind in ("name", "alias")}
                for ror_id in sorted(holders):
                    if self.index.institutions[ror_id].matchable:
                        found = Found(
                            "acronym", token, number, position, position + 1, number, False
                        )
                        self._add(ror_id, found)

    def is_one_word(self) -> bool:
        return len(self.segments) == 1 and len(self.segments[0].words) == 1

    def _misspelt(self, number: int, last: int, printed: tuple[str, ...]) -> None:
        """Names that differ from whole segments ``number``–``last`` by one misspelt word
        ("King Khaled University" for "King Khalid University")."""
        own = key_of(printed).split()
        if len(own) < 2:
            return
        seen: set[str] = set()
        for word in own:
            if word == "_" or word in UNIT_WORDS:
                continue
            for key in self.index.keys_by_word.get(word, ())[:_MISSPELT_LOOKUPS]:
                if key in seen:
                    continue
                seen.add(key)
                theirs = key.split()
                if len(theirs) != len(own):
                    continue
                differ = [(a, b) for a, b in zip(own, theirs, strict=True) if a != b]
                if len(differ) == 1 and _misspelling(*differ[0]):
                    for entry in self.index.by_key[key]:
                        if entry.kind in ("name", "alias"):
                            end = len(self.segments[number].words)
                            found = Found("misspelt", entry.value, number, 0, end, last, True)
                            self._add(entry.ror_id, found)

    def _add(self, ror_id: str, found: Found) -> None:
        candidate = self.candidates.setdefault(ror_id, Candidate(self.index[ror_id]))
        if found not in candidate.found:
            candidate.found.append(found)

    def countries_outside(self, found: list[Found]) -> set[str]:
        out: set[str] = set()
        for mention in self.places:
            if not any(f.covers(mention.segment, mention.start, mention.end) for f in found):
                out |= mention.countries
        return out

    def city_named(self, institution: IndexedInstitution, found: list[Found]) -> bool:
        city = tuple(words(institution.city or ""))
        if not city:
            return False
        for number, segment in enumerate(self.segments):
            ws = segment.words
            for start in range(len(ws) - len(city) + 1):
                end = start + len(city)
                if ws[start:end] == city and not any(f.covers(number, start, end) for f in found):
                    return True
        return False

    def locate(self, candidate: Candidate) -> None:
        institution = candidate.institution
        countries = self.countries_outside(candidate.found)
        code = institution.country_code
        if code and countries and code not in countries:
            candidate.ruled_out = f"country {code} is not {'/'.join(sorted(countries))}"
            return
        candidate.country_agrees = bool(code and code in countries)
        candidate.city_agrees = self.city_named(institution, candidate.found)

    def context_flaw(self, found: Found, institution: IndexedInstitution) -> str | None:
        """Why the words around a name found inside a segment make it another's name."""
        ws = self.segments[found.segment].words
        before = ws[found.start - 1] if found.start else None
        after = ws[found.end : found.end + 4]
        if after and after[0] in _CONTINUATIONS:
            return f"the name goes on ({after[0]!r})"
        if any(w in _HOSPITAL_WORDS for w in after) or tuple(after[:2]) in _HOSPITAL_PAIRS:
            return "a hospital's name contains it"
        spoken_of = [w for w in ws[: found.start] if w not in SMALL_WORDS][-1:]
        if spoken_of == ["branch"] and before in SMALL_WORDS:
            return "a branch of it is named"
        if before is None:
            return None
        leading = words(found.value)
        if leading and before == leading[0]:  # "La Trobe University": "la" is its own
            return None
        if before in _NAME_ADJECTIVES:
            return f"the name begins earlier ({before!r})"
        if self.hyphened_acronym_before(found):  # "IDIBELL-University of Barcelona"
            return None
        if ws[0] in SUBUNIT_HEADS:
            return None
        if before in _OPENERS or (before not in SMALL_WORDS and _field_word(before)):
            return None
        return f"the name begins earlier ({before!r})"

    def hyphened_acronym_before(self, found: Found) -> bool:
        """An acronym joined by a hyphen to the name, another unit beside it: "IDIBELL" in
        "IDIBELL-University of Barcelona", "CINVESTAV" in "CINVESTAV-Universidad Autónoma"."""
        if not found.start:
            return False
        segment = self.segments[found.segment]
        acronym, first = segment.tokens[found.start - 1], segment.tokens[found.start]
        if len(acronym) < 2 or not acronym.isupper():
            return False
        joined = rf"\b{re.escape(acronym.lower())}[-‐‑–]{re.escape(first.lower())}\b"
        return re.search(joined, fold(segment.raw)) is not None

    def alone_but_places(self, found: Found, institution: IndexedInstitution) -> bool:
        """Nothing but postcodes and the institution's own places beside it in its segment
        ("UCD Dublin", "INSERM U409")."""
        segment = self.segments[found.segment]
        city = set(words(institution.city or ""))
        placed = {
            p
            for m in self.places
            if m.segment == found.segment and institution.country_code in m.countries
            for p in range(m.start, m.end)
        }
        if all(
            found.start <= i < found.end
            or any(ch.isdigit() for ch in w)
            or w in city
            or i in placed
            for i, w in enumerate(segment.words)
        ):
            return True
        # or ending a phrase: "School of Medicine at UCLA", "associé au CNRS"
        before = segment.tokens[found.start - 1] if found.start else ""
        return found.end == len(segment.tokens) and before in _OPENERS | {"au", "aux"}

    def institution_words_follow(self, found: Found) -> bool:
        return any(
            w in _INSTITUTION_WORDS
            for segment in self.segments[found.last + 1 :]
            for w in segment.words
        )

    def ends_segment(self, found: Found) -> bool:
        """Nothing but postcodes follows the name in its segment."""
        ws = self.segments[found.last].words
        after = ws[found.end :] if found.last == found.segment else ()
        return all(any(ch.isdigit() for ch in w) for w in after)

    def stands_alone(self, found: Found) -> bool:
        """The string is the name, and places."""
        return found.segment == 0 and found.start == 0 and self.only_places_follow(found)

    def only_places_follow(self, found: Found) -> bool:
        """The string ends after the name but for places and postcodes: no campus named."""
        placed = {(m.segment, p) for m in self.places for p in range(m.start, m.end)}
        ws = self.segments[found.last].words
        tail = [
            (found.last, i)
            for i in range(found.end if found.last == found.segment else len(ws), len(ws))
        ]
        for number in range(found.last + 1, len(self.segments)):
            tail += [(number, i) for i in range(len(self.segments[number].words))]
        return all(
            spot in placed or any(ch.isdigit() for ch in self.segments[spot[0]].words[spot[1]])
            for spot in tail
        )


def _extent(found: Found) -> tuple[int, int, int, int]:
    if found.last > found.segment:
        return found.segment, 0, found.last, 1 << 20
    return found.segment, found.start, found.segment, found.end


def within(one: Candidate, other: Candidate) -> bool:
    """Everything ``one`` was found by is inside a longer name of ``other``: "University of
    Nebraska" inside "University of Nebraska, Lincoln"."""

    def inside(a: Found, b: Found) -> bool:
        (s1, b1, e1, f1), (s2, b2, e2, f2) = _extent(a), _extent(b)
        return (s2, b2) <= (s1, b1) and (e1, f1) <= (e2, f2) and _extent(a) != _extent(b)

    return all(any(inside(a, b) for b in other.found) for a in one.found)


def in_subunits(reading: Reading, candidate: Candidate) -> bool:
    """Found only in segments naming a department or a lab ("Department of Biotechnology")."""
    return all(reading.segments[f.segment].is_subunit for f in candidate.found)
