"""Normalising the names, titles and dates the sources print.

Every parser passes titles through :func:`clean_title` and person names through
:func:`clean_name`, so that the same string from two sources compares equal:

>>> clean_name("Ming\u2010Wei  Chang")
'Ming-Wei Chang'
>>> clean_name(r"Fr\\'{e}d\\'{e}ric Lagouti\\`ere", tex=True)
'Frédéric Lagoutière'
>>> clean_title("Fast &amp; <i>exact</i>   inference")
'Fast & exact inference'
>>> parse_date("Mon, 2 Apr 2007 19:18:42 GMT")
datetime.date(2007, 4, 2)
"""

from __future__ import annotations

import html
import re
import unicodedata
from datetime import date
from email.utils import parsedate_to_datetime

# Hyphen look-alikes that sources substitute for ASCII '-' in names (OpenAlex prints
# "Ming‐Wei Chang" with U+2010 where arXiv has "Ming-Wei Chang").
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
_WHITESPACE = re.compile(r"\s+")

_SYMBOL_ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
}
_LETTER_ACCENTS = {
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
}
_SPECIAL_LETTERS = {
    "ss": "ß",
    "aa": "å",
    "AA": "Å",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "o": "ø",
    "O": "Ø",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
    "j": "ȷ",
    "dh": "ð",
    "DH": "Ð",
    "th": "þ",
    "TH": "Þ",
}
_ACCENT_BASE = r"\\[ij](?![A-Za-z])|[A-Za-z]"
_SYMBOL_ACCENT = re.compile(
    r"\\(['`^\"~=.])\s*(?:\{\s*(" + _ACCENT_BASE + r")\s*\}|(" + _ACCENT_BASE + r"))"
)
# Letter-named accents need a brace or a space before their argument, so that
# macros such as \underline or \cdot are left alone.
_LETTER_ACCENT = re.compile(r"\\([uvHckrdb])(?:\s*\{\s*(" + _ACCENT_BASE + r")\s*\}|\s+([A-Za-z]))")
_SPECIAL_LETTER = re.compile(
    r"\\(" + "|".join(sorted(_SPECIAL_LETTERS, key=len, reverse=True)) + r")"
    r"(?![A-Za-z])(?:\{\}| (?=[A-Za-z]))?"
)
# Database exports sometimes escape the backslash of an accent ("Fr\\\\'ed\\\\'eric").
_DOUBLED_BACKSLASH = re.compile(r"\\{2,}(?=[A-Za-z'`^\"~=.])")
_ESCAPED_SYMBOL = re.compile(r"\\([&%$#_])")
_BRACED_LETTER = re.compile(r"\{([^\x00-\x7f])\}")

# Submitters often run a macro into the letters after it ("J\\orgensen", "Lefran\\ccois",
# "Y\\ild\\iz"). In a name no other macro is plausible, so these are read as the letter
# they spell; font switches (\\it, \\bf …) are dropped first so they are not misread.
_FONT_SWITCH = re.compile(r"\\(?:it|bf|rm|em|sl|sc|tt|sf)(?![A-Za-z])\s*")
_RUN_ON_LETTER_ACCENT = re.compile(r"\\([uvHckrdb])([A-Za-z])")
_RUN_ON_SPECIAL_LETTER = re.compile(r"\\(ss|aa|AA|ae|AE|oe|OE|o|O|l|L|i)(?=[a-z])")
# Whatever macro is left in a name is a footnote mark or markup ("A. Ramanathan \\ast").
_LEFTOVER_MACRO = re.compile(r"\\[A-Za-z]+\s*")

_INLINE_MARKUP = re.compile(
    r"</?(?:i|b|em|strong|sub|sup|scp|u|tt|span|br|(?:mml|jats):[a-z-]+)(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)


def normalize_text(text: str) -> str:
    """NFC, ASCII hyphens for U+2010/U+2011, invisible characters dropped, spaces collapsed."""
    text = unicodedata.normalize("NFC", text).translate(_HYPHENS)
    text = _INVISIBLE.sub("", text)
    return _WHITESPACE.sub(" ", text).strip()


def _accent_base(match: re.Match[str]) -> str:
    base = match.group(2) or match.group(3)
    # A dotless i under an accent is how TeX spells an accented i.
    return {"\\i": "i", "\\j": "j"}.get(base, base)


def _symbol_accent(match: re.Match[str]) -> str:
    return _accent_base(match) + _SYMBOL_ACCENTS[match.group(1)]


def _letter_accent(match: re.Match[str]) -> str:
    return _accent_base(match) + _LETTER_ACCENTS[match.group(1)]


def decode_tex(text: str) -> str:
    r"""Replace TeX accent macros with Unicode letters; other TeX (math) is left as it is.

    >>> decode_tex(r'Bal\'azs, Sch\"{u}rmann, Fran\c{c}a, {\o}ksendal, $\phi^{\pm}$')
    'Balázs, Schürmann, França, øksendal, $\\phi^{\\pm}$'
    """
    if "\\" not in text:
        return text
    text = _DOUBLED_BACKSLASH.sub(r"\\", text)
    text = _SYMBOL_ACCENT.sub(_symbol_accent, text)
    text = _LETTER_ACCENT.sub(_letter_accent, text)
    text = _SPECIAL_LETTER.sub(lambda m: _SPECIAL_LETTERS[m.group(1)], text)
    text = _ESCAPED_SYMBOL.sub(r"\1", text)
    text = unicodedata.normalize("NFC", text)
    return _BRACED_LETTER.sub(r"\1", text)


def clean_title(raw: str | None, *, tex: bool = False) -> str | None:
    """A title or abstract fit to store, or None when nothing is left of it."""
    if raw is None:
        return None
    text = _INLINE_MARKUP.sub("", html.unescape(raw))
    if tex:
        text = decode_tex(text)
    return normalize_text(text) or None


def clean_name(raw: str | None, *, tex: bool = False) -> str | None:
    """A person's name fit to store, or None when nothing is left of it.

    TeX grouping braces and ties (``J.~Smith``) only matter to TeX, so they go.
    """
    if raw is None:
        return None
    text = html.unescape(raw)
    if tex:
        text = _FONT_SWITCH.sub("", decode_tex(text))
        text = _RUN_ON_LETTER_ACCENT.sub(lambda m: m.group(2) + _LETTER_ACCENTS[m.group(1)], text)
        text = _RUN_ON_SPECIAL_LETTER.sub(lambda m: _SPECIAL_LETTERS[m.group(1)], text)
        text = _LEFTOVER_MACRO.sub(" ", text)
        text = text.replace("~", " ").replace("{", "").replace("}", "")
    return normalize_text(text) or None


_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")


def parse_date(raw: str | None) -> date | None:
    """The calendar date of an ISO 8601 or RFC 2822 timestamp; None when there is none.

    >>> parse_date("2021-04-20T16:07:14Z"), parse_date("2009-06-18 12:03:57")
    (datetime.date(2021, 4, 20), datetime.date(2009, 6, 18))
    >>> parse_date("sometime in 2007") is None
    True
    """
    if not raw:
        return None
    text = raw.strip()
    if m := _ISO_DATE.match(text):
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    try:
        return parsedate_to_datetime(text).date()
    except (TypeError, ValueError, IndexError):
        return None


def parse_year(raw: object) -> int | None:
    """A plausible publication year from an int or a string starting with four digits."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        year = raw
    elif isinstance(raw, str) and re.match(r"^\s*\d{4}", raw):
        year = int(raw.strip()[:4])
    else:
        return None
    return year if 1000 <= year <= 2999 else None
