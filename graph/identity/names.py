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

Names printed in two scripts are read by their Latin form (the other goes to
:func:`script_forms`), and surnames printed before initials (``Hinton G.E.``) are surnames:

>>> parse_name("Ioannis, Ιωάννης, Kakadiaris, Κακαδιάρης")
ParsedName(first='ioannis', middles=(), last='kakadiaris', suffix='')
>>> parse_name("Hinton G.E.")
ParsedName(first='g', middles=('e',), last='hinton', suffix='')
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
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
    # Names are the keys of several caches: their hash is computed once.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.first, self.middles, self.last, self.suffix)))

    def __hash__(self) -> int:
        return self._hash

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


def is_capitalised_word(word: str) -> bool:
    """A word printed in capitals such as ``ZHANG``; dotted initials (``J.R.R.``) are not."""
    letters = [ch for ch in word if ch.isalpha()]
    return "." not in word and len(letters) > 1 and all(ch.isupper() for ch in letters)


def _is_latin_letter(ch: str) -> bool:
    return ch.isalpha() and (ch.isascii() or unicodedata.name(ch, "").startswith("LATIN"))


def _script(word: str) -> Literal["latin", "other", "none"]:
    letters = [ch for ch in word if ch.isalpha()]
    if not letters:
        return "none"
    return "latin" if any(_is_latin_letter(ch) for ch in letters) else "other"


_SCRIPT_TOKENS = re.compile(r"[^\s,()/]+|,")


@lru_cache(maxsize=1 << 16)
def script_forms(raw: str) -> tuple[str, tuple[str, ...]]:
    """A name printed in Latin and in another script: (its Latin form, the other forms).

    Commas that separate the forms of one name part (``Ioannis, Ιωάννης, Kakadiaris,
    Κακαδιάρης``) are not the comma of ``Last, First``; a Latin ``Last, First`` followed by
    the other form keeps its comma. A name with no Latin letters is its own Latin form.

    >>> script_forms("Ioannis, Ιωάννης, Kakadiaris, Κακαδιάρης")
    ('Ioannis Kakadiaris', ('Ιωάννης Κακαδιάρης',))
    >>> script_forms("Papadopoulos, Georgios (Παπαδόπουλος Γεώργιος)")
    ('Papadopoulos, Georgios', ('Παπαδόπουλος Γεώργιος',))
    >>> script_forms("Wei Wang")
    ('Wei Wang', ())
    """
    text = html.unescape(raw).strip()
    tokens = _SCRIPT_TOKENS.findall(text)
    scripts = [_script(t) for t in tokens]
    if "other" not in scripts or "latin" not in scripts:
        return text, ()
    latin_at = [i for i, s in enumerate(scripts) if s == "latin"]
    interleaved = any(s == "other" for s in scripts[latin_at[0] : latin_at[-1]])
    kept: list[str] = []
    span = slice(latin_at[0], latin_at[-1] + 1)
    for token, script in zip(tokens[span], scripts[span], strict=True):
        if token == ",":
            if not interleaved and kept and kept[-1] != ",":
                kept.append(",")
        elif script != "other":
            kept.append(token)
    latin = " ".join(kept).replace(" ,", ",")
    other = " ".join(t for t, s in zip(tokens, scripts, strict=True) if s == "other")
    return latin, (other,)


# Given names written as syllables marked with full stops, then the surname: "Ming. Chuan., Wang"
_DOTTED_SYLLABLES = re.compile(r"^(?:[^\W\d_]{2,}\.\s*)+$")
# "LeCun Y", "Hinton G.E.": one capital, or up to three dotted ones, after the surname
# (undotted runs are left alone: "Wei LI" and "Andrew NG" end in surnames)
_TRAILING_INITIALS = re.compile(r"^(?:[A-Z]|(?:[A-Z]\.){1,3})$")


# An initial and its full stop run into the next word, as typed in many arXiv author lists:
# "J.P.Hague", "C.Klein", "J.-P.Serre": a lone capital before a word ("St.John" and the
# trailing initials of "Hinton G.E." are left as they are).
_GLUED_INITIAL = re.compile(r"(?<![^\W\d_])([^\W\d_])\.(?=[^\W\d_]{2})")


def _unglued(text: str) -> str:
    """``"J.P.Hague"`` → ``"J. P. Hague"``."""
    return _GLUED_INITIAL.sub(lambda m: f"{m[1]}. " if m[1].isupper() else m[0], text)


@dataclass(frozen=True, slots=True)
class PrintedOrder:
    """The words of a printed name in ``given … last`` order, as printed (Latin form)."""

    given: tuple[str, ...]
    last: tuple[str, ...]
    suffix: str = ""


@lru_cache(maxsize=1 << 16)
def printed_order(raw: str) -> PrintedOrder:
    """Which printed words are given names and which the surname: ``First M. Last``,
    ``Last, First``, ``LAST First``, ``Last F.``, suffixes, and names given in two scripts
    (read by their Latin form)."""
    text = _unglued(script_forms(raw)[0])
    parts = [p.strip() for p in text.split(",") if p.strip()]
    suffix = ""
    if len(parts) > 1 and normalize_part(parts[-1]) in SUFFIXES:
        suffix = parts.pop()
    if len(parts) == 2 and _DOTTED_SYLLABLES.match(parts[0]):
        return PrintedOrder(tuple(parts[0].split()), tuple(parts[1].split()), suffix)
    if len(parts) > 1:  # "Last, First"
        given = tuple(w for w in " ".join(parts[1:]).split() if normalize_part(w) not in TITLES)
        return PrintedOrder(given, tuple(parts[0].split()), suffix)
    words = (parts[0] if parts else "").split()
    while words and normalize_part(words[0]) in TITLES:
        words.pop(0)
    if len(words) > 1 and normalize_part(words[-1]) in SUFFIXES:
        suffix = words.pop()
    caps = [i for i, w in enumerate(words) if is_capitalised_word(w)]
    if len(words) > 1 and len(caps) == 1 and caps[0] == 0:  # "ZHANG Lei": surname in capitals
        return PrintedOrder(tuple(words[1:]), tuple(words[:1]), suffix)
    if (
        len(words) > 1
        and _TRAILING_INITIALS.match(words[-1])
        and all(len(normalize_part(w)) > 1 for w in words[:-1])
    ):
        initials = tuple(f"{ch}." for ch in words[-1].replace(".", ""))
        return PrintedOrder(initials, tuple(words[:-1]), suffix)
    start = len(words) - 1
    while start > 1 and normalize_part(words[start - 1]) in PARTICLES:
        start -= 1
    return PrintedOrder(tuple(words[:start]), tuple(words[start:]), suffix)


@lru_cache(maxsize=1 << 18)
def parse_name(raw: str) -> ParsedName:
    """Parse a name as printed (see :func:`printed_order`) into normalised parts."""
    order = printed_order(raw)
    name = name_from_parts(" ".join(order.given), None, " ".join(order.last))
    return _with_suffix(name, normalize_part(order.suffix))


def _with_suffix(name: ParsedName, suffix: str) -> ParsedName:
    return ParsedName(name.first, name.middles, name.last, suffix or name.suffix)


def last_key(name: ParsedName) -> str:
    return name.last.replace(" ", "").replace("-", "")


@lru_cache(maxsize=1 << 16)
def block_key(name: ParsedName) -> str:
    """The S2AND-style block: first initial and compacted last name (``"l zhang"``)."""
    return f"{name.first_initial} {last_key(name)}".strip()


@lru_cache(maxsize=1 << 18)
def printed_block_key(raw: str) -> str:
    """The block of a name as printed: ``block_key(parse_name(raw))``."""
    return block_key(parse_name(raw))


def base_block_key(name: ParsedName) -> str | None:
    """The block of the name's surname with every variant of :func:`variant_block_keys`
    applied at once (no particles, the first part of a hyphenated name, umlauts not written
    out), where it differs from :func:`block_key`: a name filed under ``g dirossi`` has
    ``g rossi``, so a pass deciding ``g rossi`` finds it (see
    :func:`graph.identity.converge.components_to_decide`).

    >>> base_block_key(parse_name("Joost van den Meijer")), base_block_key(parse_name("Jo Li"))
    ('j meijer', None)
    >>> base_block_key(parse_name("Ana García López")) is None  # two surnames: no variant
    True
    """
    words = name.last.split()
    bare = [w for w in words if w not in PARTICLES] or words
    if not bare:
        return None
    surname = bare[-1].split("-")[0] if "-" in bare[-1] else "".join(bare)
    compact = _UMLAUT_SPELLED.sub(r"\1", surname.replace("-", ""))
    base = f"{name.first_initial} {compact}".strip()
    return None if base == block_key(name) else base


@lru_cache(maxsize=1 << 16)
def variant_block_keys(name: ParsedName) -> tuple[str, ...]:
    """Other blocks the same person may be filed under, besides :func:`block_key`.

    German umlauts written out (``Mueller`` and ``Müller`` both give ``muller``), the first
    part of a hyphenated surname (``Müller-Iden`` → ``muller``, as ``García-López`` is often
    cited as ``García``), the surname without particles (``van den Berg`` → ``berg``) and a
    double surname printed without its hyphen, read as a middle name and a surname
    (``Carmen D. García López`` → ``garcialopez``, the block of ``Carmen D. García-López``).

    >>> variant_block_keys(parse_name("Jens Mueller-Iden"))
    ('j mulleriden', 'j mueller', 'j muller')
    >>> variant_block_keys(parse_name("Carmen D. García López"))
    ('c garcialopez',)
    """
    words = name.last.split()
    surnames = [name.last]
    if words and "-" in words[-1]:
        surnames.append(words[-1].split("-")[0])
    if name.middles and len(name.middles[-1]) > 1:
        surnames.append(name.middles[-1] + name.last)
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
