"""arXiv ``.abs`` records rewritten as lines of arXiv's metadata snapshot, as arXiv writes it.

The raw fields are copied from the ``.abs`` text as the snapshot keeps them (continued lines
with their line break and indent, the author string in TeX, the abstract untrimmed); the
version list is the ``Date`` lines without their sizes. ``authors_parsed`` is arXiv's
split of each name (``browse/domain/author_affil.py`` in arxiv-browse): a space after every
dot ("C.-P." → "C. -P."), then a key name from the end (with a surname prefix or a
suffix), the rest as forenames, the affiliations after them. The names it splits are those
the ``.abs`` reading found (TeX decoded, as the snapshot's are).
"""

from __future__ import annotations

import re
from email.utils import parsedate_to_datetime
from typing import Any

from scholargraph.graph.loaders.parse.arxiv_abs import parse_abs

_BREAK = re.compile(r"^\\\\[ \t]*$", re.MULTILINE)
_FIELD = re.compile(r"^([A-Za-z][\w-]*(?: \(revised v\d+\))?):\s*(.*)$")
_PREFIX = "van|der|de|la|von|del|della|da|mac|ter|dem|di"
_SPLITS = (
    (re.compile(rf"^(.*)\s+({_PREFIX})\s({_PREFIX})\s(\S+)$", re.I), "double-prefix"),
    (re.compile(rf"^(.*)\s+({_PREFIX})\s(\S+)$", re.I), "prefix"),
    (re.compile(r"^(.*)\s+(\S+)\s(I|II|III|IV|V|Sr|Jr|Sr\.|Jr\.)$", re.I), "suffix"),
    (re.compile(r"^(.*)\s+(\S+)$"), "plain"),
)
KEYS = {
    "Title": "title",
    "Authors": "authors",
    "Comments": "comments",
    "Journal-ref": "journal-ref",
    "DOI": "doi",
    "Report-no": "report-no",
    "Categories": "categories",
    "License": "license",
}


def arxiv_split(name: str, affiliations: tuple[str, ...]) -> list[str]:
    """``[keyname, forenames, suffix, affiliation, …]`` as arXiv splits one name."""
    spaced = re.sub(r"\.(\S)", r". \1", name)
    for pattern, kind in _SPLITS:
        if match := pattern.match(spaced):
            groups = match.groups()
            if kind == "double-prefix":
                parts = [" ".join(groups[1:]), groups[0], ""]
            elif kind == "prefix":
                parts = [f"{groups[1]} {groups[2]}", groups[0], ""]
            elif kind == "suffix":
                parts = [groups[1], groups[0], groups[2]]
            else:
                parts = [groups[1], groups[0], ""]
            return [*parts, *affiliations]
    return [spaced, "", "", *affiliations]


def _fields(header: str) -> list[tuple[str, str]]:
    fields: list[tuple[str, str]] = []
    for line in header.strip("\n").splitlines():
        match = _FIELD.match(line)
        if match and not line[0].isspace():
            fields.append((match.group(1), match.group(2).rstrip()))
        elif fields and line.strip():
            key, value = fields[-1]
            fields[-1] = (key, f"{value}\n{line.rstrip()}")
    return fields


def _version(key: str) -> str:
    """``v2`` of ``Date (revised v2)``; ``v1`` of ``Date``."""
    return "v1" if key == "Date" else f"v{key.rsplit('v', 1)[1].rstrip(')')}"


def abs_text(data: bytes) -> str:
    """An ``.abs`` file's text: UTF-8, or Latin-1 for old records."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def snapshot_line(text: str) -> dict[str, Any]:
    """The snapshot's line for the ``.abs`` record ``text``."""
    paper = parse_abs(text)
    sections = _BREAK.split(text)
    fields = _fields(sections[1])
    values = dict(reversed(fields))
    versions = [
        {"version": _version(key), "created": value.split("(")[0].strip()}
        for key, value in fields
        if key == "Date" or key.startswith("Date (revised v")
    ]
    last = parsedate_to_datetime(versions[-1]["created"]).date() if versions else None
    line: dict[str, Any] = {
        "id": values.get("arXiv") or values.get("Paper"),
        "submitter": re.sub(r"\s*<[^>]*>\s*$", "", values.get("From", "")) or None,
        **{name: values.get(key) for key, name in KEYS.items()},
        "abstract": sections[2].rstrip(" ") if len(sections) > 2 else None,
        "versions": versions,
        "update_date": last.isoformat() if last else None,
        "authors_parsed": [arxiv_split(a.raw_name, a.raw_affiliations) for a in paper.authorships],
    }
    return line
