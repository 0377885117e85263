"""Person names: normalisation, parsing, blocking keys and compatibility.

Every name part is reduced to lower-case ASCII letters: diacritics are stripped
(``ü``→``u``, ``ø``→``o``, ``ß``→``ss``, ``ł``→``l``), apostrophes vanish (``O'Brien`` →
``obrien``), any hyphen joins (``Ming-Wei``, ``Ming‐Wei`` → ``mingwei``) and HTML entities
are decoded (``M&uuml;ller`` → ``muller``).

>>> parse_name("Ming‐Wei Chang")
ParsedName(first='mingwei', middles=(), last='chang', suffix='')
>>> parse_name("van der Berg, J. R. R., Jr.")
ParsedName(first='j', middles=('r', 'r'), last='van der berg', suffix='jr')
>>> parse_name("ZHANG Lei").last
'zhang'
>>> block_key(parse_name("Wolfgang M&uuml;ller"))
'w muller'
>>> compare_names(parse_name("Ming Wei Chang"), parse_name("Ming-Wei Chang")).first
'exact'
>>> compare_names(parse_name("Jun Li"), parse_name("Jian Li")).compatible
False
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from scholargraph.graph.identity.variants import DEFAULT_VARIANTS, NameVariants

_FOLDED = str.maketrans(
    {
        "ß": "ss",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "þ": "th",
        "Þ": "Th",
        "ı": "i",
    }
)
_HYPHENS = re.compile(r"[\u2010\u2011\u2012\u2013\u2014\u2212\-]+")
_APOSTROPHES = re.compile(r"['’‘`´ʼ]")
_NOT_LETTER = re.compile(r"[^a-z]")
_NOT_SURNAME = re.compile(r"[^a-z\-]")
_UMLAUT_SPELLED = re.compile(r"([aou])e")

SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
TITLES = frozenset({"dr", "prof", "professor", "mr", "mrs", "ms", "sir", "dame"})
PARTICLES = frozenset(
    {"van", "von", "de", "der", "den", "da", "das", "di", "del", "della", "des", "do", "dos",
     "du", "la", "le", "ter", "ten", "zu", "af", "bin", "ibn", "al", "el", "st"}
)  # fmt: skip

FirstMatch = Literal["exact", "variant", "initial", "missing", "conflict"]
MiddleMatch = Literal["agree_full", "agree_initial", "one_missing", "none", "conflict"]


def ascii_fold(text: str) -> str:
    """Decode entities, strip diacritics and lower-case; keeps spaces and hyphens."""
    text = html.unescape(text)
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDED))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def normalize_part(text: str) -> str:
    """One name part as letters only: ``"O'Brien"`` → ``"obrien"``, ``"Fei-Fei"`` → ``"feifei"``."""
    return _NOT_LETTER.sub("", ascii_fold(text))


@dataclass(frozen=True, slots=True)
class ParsedName:
    """A name in normalised parts; a one-letter part is an initial, ``""`` means absent."""

    first: str
    middles: tuple[str, ...]
    last: str
    suffix: str = ""

    @property
    def given(self) -> str:
        """First and middle names as one space-separated string (the key of a name form)."""
        return " ".join(part for part in (self.first, *self.middles) if part)

    @property
    def first_initial(self) -> str:
        return self.first[:1]

    @property
    def has_full_first(self) -> bool:
        return len(self.first) > 1


def _given_tokens(text: str) -> list[str]:
    """Split given names; dotted or hyphenated initials (``J.-P.``, ``J.R.R.``) split apart."""
    tokens: list[str] = []
    for word in _APOSTROPHES.sub("", ascii_fold(text)).split():
        pieces = [p for p in _HYPHENS.split(word) if p.strip(".")]
        if all(len(p.strip(".")) == 1 or "." in p.rstrip(".") for p in pieces):
            for piece in pieces:  # initials, possibly run together as "j.r.r."
                tokens.extend(ch for ch in _NOT_LETTER.sub("", piece))
        else:
            tokens.append(_NOT_LETTER.sub("", "".join(pieces)))
    return [t for t in tokens if t and t not in TITLES]


def _join_last(words: list[str]) -> str:
    cleaned = (_NOT_SURNAME.sub("", _APOSTROPHES.sub("", _HYPHENS.sub("-", w))) for w in words)
    return " ".join(w.strip("-") for w in cleaned if w.strip("-"))


def name_from_parts(
    first: str | None,
    middle: str | None = None,
    last: str | None = None,
    suffix: str | None = None,
) -> ParsedName:
    """A name that a source already split (S2AND, arXiv OAI-PMH ``forenames``/``keyname``)."""
    given = _given_tokens(" ".join(p for p in (first, middle) if p))
    last_words = [w for w in ascii_fold(last or "").split() if w]
    return ParsedName(
        first=given[0] if given else "",
        middles=tuple(given[1:]),
        last=_join_last(last_words).strip(),
        suffix=normalize_part(suffix or ""),
    )


def _is_capitalised_surname(word: str) -> bool:
    """A word in capitals such as ``ZHANG``; dotted initials (``J.R.R.``) are not."""
    letters = [ch for ch in word if ch.isalpha()]
    return "." not in word and len(letters) > 1 and all(ch.isupper() for ch in letters)


@lru_cache(maxsize=1 << 18)
def parse_name(raw: str) -> ParsedName:
    """Parse a name as printed: ``First M. Last``, ``Last, First``, ``LAST First``, suffixes."""
    text = html.unescape(raw).strip()
    parts = [p.strip() for p in text.split(",") if p.strip()]
    suffix = ""
    if len(parts) > 1 and normalize_part(parts[-1]) in SUFFIXES:
        suffix = normalize_part(parts.pop())
    if len(parts) > 1:  # "Last, First"
        return _with_suffix(name_from_parts(" ".join(parts[1:]), None, parts[0]), suffix)
    words = parts[0].split() if parts else []
    if len(words) > 1 and normalize_part(words[-1]) in SUFFIXES:
        suffix = normalize_part(words.pop())
    while words and normalize_part(words[0]) in TITLES:
        words.pop(0)
    if not words:
        return ParsedName("", (), "", suffix)
    caps = [i for i, w in enumerate(words) if _is_capitalised_surname(w)]
    if len(words) > 1 and len(caps) == 1 and caps[0] == 0:  # "ZHANG Lei": surname in capitals
        return _with_suffix(name_from_parts(" ".join(words[1:]), None, words[0]), suffix)
    last_start = len(words) - 1
    while last_start > 1 and normalize_part(words[last_start - 1]) in PARTICLES:
        last_start -= 1
    given = " ".join(words[:last_start])
    return _with_suffix(name_from_parts(given, None, " ".join(words[last_start:])), suffix)


def _with_suffix(name: ParsedName, suffix: str) -> ParsedName:
    return ParsedName(name.first, name.middles, name.last, suffix or name.suffix)


def last_key(name: ParsedName) -> str:
    return name.last.replace(" ", "").replace("-", "")


def block_key(name: ParsedName) -> str:
    """The S2AND-style block: first initial and compacted last name (``"l zhang"``)."""
    return f"{name.first_initial} {last_key(name)}".strip()


def variant_block_keys(name: ParsedName) -> tuple[str, ...]:
    """Other blocks the same person may be filed under, besides :func:`block_key`.

    German umlauts written out (``Mueller`` and ``Müller`` both give ``muller``), the first
    part of a hyphenated surname (``Müller-Iden`` → ``muller``, as ``García-López`` is often
    cited as ``García``) and the surname without particles (``van den Berg`` → ``berg``).

    >>> variant_block_keys(parse_name("Jens Mueller-Iden"))
    ('j mulleriden', 'j mueller', 'j muller')
    """
    words = name.last.split()
    surnames = [name.last]
    if words and "-" in words[-1]:
        surnames.append(words[-1].split("-")[0])
    bare = [w for w in words if w not in PARTICLES]
    if bare and len(bare) < len(words):
        surnames.append("".join(bare))
    keys: list[str] = []
    for surname in surnames:
        compact = surname.replace(" ", "").replace("-", "")
        keys.extend((compact, _UMLAUT_SPELLED.sub(r"\1", compact)))
    primary = block_key(name)
    candidates = (f"{name.first_initial} {k}".strip() for k in keys)
    return tuple(dict.fromkeys(k for k in candidates if k != primary))


def swapped(name: ParsedName) -> ParsedName | None:
    """The name read the other way round, for two-part names only (``Zhang Ping``).

    >>> swapped(parse_name("Zhang Ping"))
    ParsedName(first='ping', middles=(), last='zhang', suffix='')
    """
    simple_last = " " not in name.last and "-" not in name.last and len(name.last) > 1
    if not name.has_full_first or name.middles or name.suffix or not simple_last:
        return None
    return ParsedName(name.last, (), name.first)


@dataclass(frozen=True, slots=True)
class NameComparison:
    first: FirstMatch
    middle: MiddleMatch

    @property
    def compatible(self) -> bool:
        return self.first != "conflict" and self.middle != "conflict"


def _compare_tokens(a: str, b: str, variants: NameVariants) -> FirstMatch:
    if not a or not b:
        return "missing"
    if len(a) == 1 or len(b) == 1:
        return "initial" if a[0] == b[0] else "conflict"
    if a == b:
        return "exact"
    return "variant" if variants.are_variants(a, b) else "conflict"


def _compare_middles(a: tuple[str, ...], b: tuple[str, ...]) -> MiddleMatch:
    if not a and not b:
        return "none"
    if not a or not b:
        return "one_missing"
    x, y = a[0], b[0]
    if x[0] != y[0] or (len(x) > 1 and len(y) > 1 and x != y):
        return "conflict"
    return "agree_full" if len(x) > 1 and len(y) > 1 else "agree_initial"


def _split_run(joined: str, tokens: tuple[str, ...]) -> bool:
    """Whether ``tokens`` (full names or initials) spell out ``joined`` (``mingwei`` ≈ ming w)."""
    rest = joined
    for index, token in enumerate(tokens):
        if len(token) > 1:
            if not rest.startswith(token):
                return False
            rest = rest[len(token) :]
        else:
            # an initial may only stand for the remainder of the run (Ming-Wei ≈ Ming W.)
            return index == len(tokens) - 1 and rest.startswith(token) and len(rest) > 1
    return not rest


@lru_cache(maxsize=65536)
def _compare_given(
    a: tuple[str, ...], b: tuple[str, ...], variants: NameVariants
) -> NameComparison:
    if a == b:
        return NameComparison(
            "exact" if a and len(a[0]) > 1 else "initial" if a else "missing",
            _compare_middles(a[1:], b[1:]),
        )
    if a and b and len(a[0]) > 1 and len(b[0]) > 1:
        if "".join(a) == "".join(b):
            return NameComparison("exact", "none" if len(a) == len(b) == 1 else "agree_full")
        if len(a) == 1 and len(b) > 1 and _split_run(a[0], b):
            return NameComparison("exact", "one_missing")
        if len(b) == 1 and len(a) > 1 and _split_run(b[0], a):
            return NameComparison("exact", "one_missing")
    first = _compare_tokens(a[0] if a else "", b[0] if b else "", variants)
    return NameComparison(first, _compare_middles(a[1:], b[1:]))


def compare_given(
    a: tuple[str, ...], b: tuple[str, ...], variants: NameVariants = DEFAULT_VARIANTS
) -> NameComparison:
    """Compare two given-name sequences (first name then middles)."""
    return _compare_given(a, b, variants)


def compare_names(
    a: ParsedName, b: ParsedName, variants: NameVariants = DEFAULT_VARIANTS
) -> NameComparison:
    """Whether two names can be one person, by their given names (surnames are blocked on)."""
    return _compare_given(_tokens(a), _tokens(b), variants)


def _tokens(name: ParsedName) -> tuple[str, ...]:
    return tuple(p for p in (name.first, *name.middles) if p)
