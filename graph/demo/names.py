"""Synthetic people's names, and the ways one name gets printed on papers."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from random import Random

from scholargraph.graph.demo.name_pools import Origin
from scholargraph.graph.demo.sampling import Table

# Name particles by origin, and how often a surname carries one.
_PARTICLES_BY_ORIGIN = {
    "dutch": (("van der", "van den", "van", "de"), 0.6),
    "german": (("von",), 0.03),
    "french": (("de",), 0.04),
    "italian": (("di", "De"), 0.04),
    "spanish": (("de la", "de"), 0.04),
}
_PARTICLES = sorted(
    {particle.lower() for options, _ in _PARTICLES_BY_ORIGIN.values() for particle in options},
    key=len,
    reverse=True,
)
_SUFFIXES = ("Jr.", "III", "II")

# Letters NFKD does not decompose, transliterated the way authors drop them in ASCII.
_ASCII_FOLD = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE", "đ": "d", "ı": "i"}
)


@cache
def ascii_fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII_FOLD))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def initials(given: str) -> str:
    """``Yann`` → ``Y.``; ``Ming-Wei`` → ``M.-W.``; ``Hans Peter`` → ``H. P.``."""
    words = given.split()
    return " ".join("-".join(part[0] + "." for part in word.split("-")) for word in words)


@dataclass(frozen=True, slots=True)
class PersonName:
    given: str
    surname: str
    middle: str = ""  # an initial such as "A." or empty
    suffix: str = ""

    @property
    def full(self) -> str:
        parts = [self.given, self.middle, self.surname]
        text = " ".join(part for part in parts if part)
        return f"{text} {self.suffix}" if self.suffix else text


# Printed forms of a name. FULL keeps the middle initial, the others are what authors,
# editors and metadata pipelines turn it into.
FULL, INITIALS, NO_MIDDLE, ASCII, JOINED = range(5)


def applicable_variants(name: PersonName) -> tuple[int, ...]:
    variants = [FULL, INITIALS]
    if name.middle:
        variants.append(NO_MIDDLE)
    if ascii_fold(name.given + name.surname) != name.given + name.surname:
        variants.append(ASCII)
    if "-" in name.given or "-" in name.surname:
        variants.append(JOINED)
    return tuple(variants)


def printed(name: PersonName, variant: int) -> tuple[str, str, str]:
    """(forenames, keyname, suffix) as the name appears on a paper in the given variant."""
    given, middle, surname = name.given, name.middle, name.surname
    if variant == INITIALS:
        given = initials(given)
    elif variant == NO_MIDDLE:
        middle = ""
    elif variant == ASCII:
        given, surname = ascii_fold(given), ascii_fold(surname)
    elif variant == JOINED:
        # "Ming-Wei" → "Mingwei"; "García-López" → "García López"
        head, _, tail = given.partition("-")
        given = head + tail.lower() if tail else given
        surname = surname.replace("-", " ")
    forenames = f"{given} {middle}" if middle else given
    return forenames, surname, name.suffix


def make_name(rng: Random, origin: Origin, surnames: Table[str]) -> PersonName:
    given = rng.choice(origin.given)
    surname = surnames.pick(rng)
    middle = ""
    if rng.random() < origin.middle_initial_rate:
        middle = rng.choice("ABCDEFGHJKLMNPRSTW") + "."
    suffix = ""
    if origin.key == "english" and rng.random() < 0.015:
        suffix = rng.choice(_SUFFIXES)
    particles, rate = _PARTICLES_BY_ORIGIN.get(origin.key, ((), 0.0))
    if particles and rng.random() < rate:
        surname = f"{rng.choice(particles)} {surname}"
    return PersonName(given, surname, middle, suffix)


def surname_table(origin: Origin) -> Table[str]:
    ranked = enumerate(origin.surnames, start=1)
    return Table((surname, rank**-origin.surname_skew) for rank, surname in ranked)


@cache
def sort_key(keyname: str) -> str:
    """How alphabetical author lists order a keyname: particles and accents ignored."""
    folded = ascii_fold(keyname).lower()
    for particle in _PARTICLES:
        if folded.startswith(particle + " "):
            return folded[len(particle) + 1 :]
    return folded
