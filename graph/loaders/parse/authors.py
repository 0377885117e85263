"""Splitting arXiv's flat author strings into names and affiliations.

arXiv keeps authors as one string typed by the submitter (``.abs`` files, the OAI-PMH
``arXivRaw`` format). The conventions this reads:

* names are separated by commas, semicolons, ``and`` or ``&``; a collaboration may lead
  with a colon (``BELLE Collaboration: A. Person, B. Person``);
* text in parentheses is the affiliation of the name before it;
* numbered affiliations: ``A (1,2), B (1) ((1) MPA, (2) Harvard)`` — a final parenthesised
  legend maps the numbers to affiliations;
* ``et al`` marks a list cut short;
* a bare suffix (``Jr.``, ``III``) belongs to the name before it;
* a parenthesised group in another script than Latin is the name in that script, not an
  affiliation (``Wei Wang (王伟)``): it stays with the name, whose Latin form is read
  (:func:`graph.identity.names.script_forms`).

>>> [a.name for a in split_authors("C. Bal\\\\'azs, E. L. Berger, and C.-P. Yuan").authors]
['C. Balázs', 'E. L. Berger', 'C.-P. Yuan']
>>> split_authors("Yu Shi (Dept. of Phys., Fudan University)").authors[0].affiliations
('Dept. of Phys., Fudan University',)
>>> split_authors("Wei Wang (王伟) (Peking University)").authors[0]
ParsedAuthor(name='Wei Wang (王伟)', affiliations=('Peking University',))
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

from scholargraph.graph.loaders.parse.text import clean_name, decode_tex, normalize_text


@dataclass(frozen=True, slots=True)
class ParsedAuthor:
    name: str
    affiliations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AuthorList:
    authors: tuple[ParsedAuthor, ...]
    et_al: bool = False  # the string ended in "et al": more authors than listed


_SEPARATOR = re.compile(r"\s*(?:,|;|:|&|\band\b)\s*")
_ET_AL = re.compile(r"(?:^|\s)et\.?\s*al\.?$", re.IGNORECASE)
_SUFFIX = re.compile(r"^(?:Jr|Sr|Jun|Sen)\.?$|^(?:II|III|IV|V)$")
_FOOTNOTE_NUMBERS = re.compile(r"^\d+(?:\s*(?:,|and|&)\s*\d+)*$")
_LEGEND_ENTRY = re.compile(r"\(\s*(\d+)\s*\)")
_HAS_LETTER = re.compile(r"[^\W\d_]")
# "The CMS and LHCb Collaborations: A, B" names one group; its "and" separates nothing.
_COLLABORATION_PREFIX = re.compile(r"^\s*([^:,;()]*\bcollaborations?)\s*:", re.IGNORECASE)
# "for the X Collaboration" / "on behalf of …" says who the authors speak for; not a name.
_ON_BEHALF = re.compile(r"^(?:for|on\s+behalf\s+of)\s+the\b", re.IGNORECASE)


@dataclass(slots=True)
class _Slot:
    name: str
    groups: list[str]


def _tokens(text: str) -> list[tuple[str, str]]:
    """("text", …) runs at depth 0 and ("group", …) for each balanced (…) group."""
    tokens: list[tuple[str, str]] = []
    depth = 0
    start = 0
    for index, char in enumerate(text):
        if char == "(":
            if depth == 0:
                tokens.append(("text", text[start:index]))
                start = index + 1
            depth += 1
        elif char == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                tokens.append(("group", text[start:index]))
                start = index + 1
    # An unclosed parenthesis: keep what follows it as an affiliation rather than a name.
    tokens.append(("group" if depth else "text", text[start:]))
    return tokens


def _legend(group: str) -> dict[str, str] | None:
    """The number → affiliation map of a ``((1) X, (2) Y)`` legend, or None."""
    if not _LEGEND_ENTRY.match(group.lstrip()):
        return None
    parts = _LEGEND_ENTRY.split(group.strip())
    # parts = ["", "1", " X, ", "2", " Y"]
    entries: dict[str, str] = {}
    for number, affiliation in zip(parts[1::2], parts[2::2], strict=True):
        entries[number] = normalize_text(affiliation).strip(" ,;")
    return entries


def _names_in(run: str) -> list[str]:
    return [piece for piece in _SEPARATOR.split(run) if piece.strip()]


def split_authors(raw: str) -> AuthorList:
    """Names and affiliations of a flat arXiv author string, in printed order."""
    text = normalize_text(decode_tex(html.unescape(raw)))
    slots: list[_Slot] = []
    legends: dict[str, str] = {}
    et_al = False
    for index, (kind, value) in enumerate(_tokens(text)):
        if index == 0 and (prefix := _COLLABORATION_PREFIX.match(value)):
            slots.append(_Slot(prefix.group(1), []))
            value = value[prefix.end() :]
        if kind == "group":
            legend = _legend(value)
            if legend is not None:
                legends.update(legend)
            elif slots and _other_script(value) and not slots[-1].groups:
                slots[-1].name = f"{slots[-1].name} ({value.strip()})"
            elif slots:
                slots[-1].groups.append(value)
            continue
        for piece in _names_in(value):
            name = piece.strip()
            if _ET_AL.search(name):
                et_al = True
                name = _ET_AL.sub("", name).strip()
                if not name:
                    continue
            if _ON_BEHALF.match(name):
                continue
            if _SUFFIX.match(name) and slots:
                slots[-1].name = f"{slots[-1].name} {name}"
                continue
            if _HAS_LETTER.search(name):
                slots.append(_Slot(name, []))
    authors = []
    for slot in slots:
        cleaned = clean_name(slot.name, tex=True)
        if cleaned:
            authors.append(ParsedAuthor(cleaned, _affiliations(slot.groups, legends)))
    return AuthorList(tuple(authors), et_al)


def _other_script(text: str) -> bool:
    """Letters, none of them Latin: a name written in another script."""
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and not any(
        ch.isascii() or unicodedata.name(ch, "").startswith("LATIN") for ch in letters
    )


def _affiliations(groups: list[str], legends: dict[str, str]) -> tuple[str, ...]:
    found: list[str] = []
    for group in groups:
        text = normalize_text(group)
        if _FOOTNOTE_NUMBERS.match(text):
            numbers = re.findall(r"\d+", text)
            found.extend(legends[n] for n in numbers if n in legends)
        elif text and not _ON_BEHALF.match(text):
            found.append(text)
    return tuple(dict.fromkeys(found))
