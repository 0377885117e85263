"""Countries an affiliation names, from country names and the regions of a few countries.

Names come from ``places.json`` (ISO 3166 names and the forms affiliations print: "USA",
"P.R. China", "Deutschland"). A region stands for its country when the affiliation gives a
state or a province instead ("Tempe, Arizona", "Chengdu, Sichuan"); a two-letter region code
counts only in capitals at the end of a segment or before a number ("Tempe, AZ 85287"), where
it cannot be an ordinary word.

>>> places = Places.load()
>>> from scholargraph.graph.institutions.normalise import segments
>>> [sorted(m.countries) for m in places.find(segments("New Haven, CT 06510, USA"))]
[['US'], ['US']]
>>> [sorted(m.countries) for m in places.find(segments("Tbilisi, Georgia"))]
[['GE', 'US']]
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from scholargraph.graph.institutions.normalise import Segment, words

_DATA = Path(__file__).with_name("places.json")
# Printed in capitals only: as lower-case words they are ordinary English.
_CAPITALS_ONLY = frozenset({"us", "as", "in", "me", "or", "oh", "ok", "hi", "la", "pa", "ma"})
_MAX_WORDS = 6


@dataclass(frozen=True, slots=True)
class PlaceMention:
    """Words ``start``–``end`` of segment ``segment`` name a place in ``countries``."""

    segment: int
    start: int
    end: int
    countries: frozenset[str]


@dataclass(frozen=True, slots=True)
class Places:
    names: dict[tuple[str, ...], frozenset[str]]
    region_codes: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    @cache
    def load(cls) -> Places:
        data = json.loads(_DATA.read_text(encoding="utf-8"))
        names: dict[tuple[str, ...], set[str]] = {}
        codes: dict[str, set[str]] = {}
        for country, printed in data["countries"].items():
            for name in printed:
                names.setdefault(tuple(words(name)), set()).add(country)
        for country, regions in data["regions"].items():
            for code, name in regions.items():
                names.setdefault(tuple(words(name)), set()).add(country)
                if len(code) == 2 and code.isalpha() and country in {"US", "CA", "AU"}:
                    codes.setdefault(code, set()).add(country)
        for abbreviation in ("NSW", "VIC", "QLD", "TAS", "ACT"):
            codes.setdefault(abbreviation, set()).add("AU")
        return cls(
            {k: frozenset(v) for k, v in names.items() if k},
            {k: frozenset(v) for k, v in codes.items()},
        )

    def find(self, segments: list[Segment]) -> list[PlaceMention]:
        """Every place named, longest names first where two overlap, in reading order."""
        found: list[PlaceMention] = []
        for number, segment in enumerate(segments):
            position = 0
            while position < len(segment.words):
                mention = self._at(number, segment, position)
                if mention is None:
                    position += 1
                    continue
                found.append(mention)
                position = mention.end
        return found

    def _at(self, number: int, segment: Segment, start: int) -> PlaceMention | None:
        last = min(len(segment.words), start + _MAX_WORDS)
        for end in range(last, start, -1):
            countries = self.names.get(segment.words[start:end])
            if countries is None:
                continue
            printed = segment.tokens[start:end]
            if (
                end - start == 1
                and segment.words[start] in _CAPITALS_ONLY
                and not (printed[0].isupper())
            ):
                continue
            return PlaceMention(number, start, end, countries)
        token = segment.tokens[start]
        codes = self.region_codes.get(token)
        if codes is not None and token.isupper():
            at_end = start == len(segment.words) - 1
            before_number = not at_end and segment.words[start + 1].isdigit()
            if at_end or before_number:
                return PlaceMention(number, start, start + 1, codes)
        return None
