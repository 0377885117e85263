"""arXiv ``.abs`` metadata files → :class:`PaperRecord`.

The format, as arXiv stores it::

    ------------------------------------------------------------------------------
    \\\\
    arXiv:0704.0001
    From: Submitter Name <obfuscated@address>
    Date: Mon, 2 Apr 2007 19:18:42 GMT   (443kb)
    Date (revised v2): Tue, 24 Jul 2007 20:10:27 GMT   (370kb)

    Title: A title that may continue
      on indented lines
    Authors: A. One (Affiliation), B. Two and C. Three
    Categories: hep-ph hep-th
    Comments: …   Journal-ref: …   DOI: …
    \\\\
      The abstract.
    \\\\

A version whose size carries the flag ``I`` (``(0kb,I)``) is a withdrawal notice; a paper
whose latest version is one is withdrawn. Accents are TeX (``Bal\\'azs``).
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.loaders.parse.arxiv_fields import (
    authorships_from_string,
    identity,
    split_categories,
    version_dates,
)
from scholargraph.graph.loaders.parse.raw import Fault, read_bytes, undecodable
from scholargraph.graph.loaders.parse.text import clean_title, parse_date
from scholargraph.graph.loaders.parse.values import (
    EXCERPT_CHARS,
    excerpt,
    optional_doi,
    retrieved_or_today,
)
from scholargraph.graph.records import Batch, PaperRecord, Rejection, Version

_SECTION_BREAK = re.compile(r"^\\\\[ \t]*$", re.MULTILINE)
_FIELD = re.compile(r"^([A-Za-z][\w-]*(?: \(revised v(\d+)\))?):\s*(.*)$")
_DATE_VALUE = re.compile(r"^(.*?)\s*\((\d+(?:\.\d+)?[kKmM]?b)(?:,\s*([A-Za-z]+))?\)\s*$")
_WITHDRAWN_FLAG = "I"


def _header_fields(header: str) -> list[tuple[str, str]]:
    """(key, value) pairs in order; indented lines continue the previous value."""
    fields: list[tuple[str, str]] = []
    for line in header.splitlines():
        if not line.strip():
            continue
        match = _FIELD.match(line)
        if match and not line[0].isspace():
            fields.append((match.group(1), match.group(3).strip()))
        elif fields:
            key, value = fields[-1]
            fields[-1] = (key, f"{value} {line.strip()}")
    return fields


def _versions(fields: list[tuple[str, str]]) -> tuple[tuple[Version, ...], bool]:
    """The version history of the Date lines and whether the latest one is a withdrawal."""
    versions: list[Version] = []
    flags: list[str] = []
    for key, value in fields:
        if key != "Date" and not key.startswith("Date (revised v"):
            continue
        number = int(key.rsplit("v", 1)[1].rstrip(")")) if key != "Date" else 1
        match = _DATE_VALUE.match(value)
        when, size, flag = match.groups() if match else (value, None, None)
        versions.append(Version(version=number, date=parse_date(when), size=size))
        flags.append(flag or "")
    ordered = sorted(zip(versions, flags, strict=True), key=lambda pair: pair[0].version)
    withdrawn = bool(ordered) and _WITHDRAWN_FLAG in ordered[-1][1].upper()
    return tuple(v for v, _ in ordered), withdrawn


def parse_abs(text: str, *, retrieved: date | None = None) -> PaperRecord:
    """One ``.abs`` record. Raises :class:`RecordRejected` when it is not usable."""
    sections = _SECTION_BREAK.split(text)
    if len(sections) < 2 or not sections[1].strip():
        raise RecordRejected("empty or not an .abs record (no header section)", source="arxiv")
    fields = _header_fields(sections[1])
    values = dict(reversed(fields))  # the first occurrence wins
    arxiv_id, title = identity(
        values.get("arXiv") or values.get("Paper"),
        values.get("Title"),
        missing="no arXiv: line with the paper's id",
    )
    when = retrieved_or_today(retrieved)
    authorships, et_al = authorships_from_string(values.get("Authors", ""), retrieved=when)
    if not authorships:
        raise RecordRejected("no authors", source="arxiv", ref=arxiv_id)
    versions, withdrawn = _versions(fields)
    primary, categories = split_categories(values.get("Categories"))
    published, updated, year = version_dates(versions)
    return PaperRecord(
        source="arxiv",
        title=title,
        arxiv_id=arxiv_id,
        doi=optional_doi(values.get("DOI")),
        abstract=clean_title(sections[2], tex=True) if len(sections) > 2 else None,
        published=published,
        updated=updated,
        year=year,
        versions=versions,
        primary_category=primary,
        categories=categories,
        journal_ref=clean_title(values.get("Journal-ref"), tex=True),
        comments=clean_title(values.get("Comments"), tex=True),
        withdrawn=withdrawn,
        authorships=authorships,
        authors_truncated=et_al,
        retrieved=when,
    )


# A multi-byte UTF-8 sequence: a file holding one is UTF-8, not Latin-1, however damaged.
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)


def _decode(data: bytes) -> str:
    """UTF-8, or Latin-1 for old records; :class:`UnicodeDecodeError` for UTF-8 with invalid
    bytes in it, which read as Latin-1 would turn every accent to mojibake."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if _UTF8_SEQUENCE.search(data):
            raise
        return data.decode("latin-1")


def parse_abs_file(path: Path, *, retrieved: date | None = None) -> Batch:
    """The paper of one ``.abs`` file (or ``.abs.gz``), or its rejection with the reason and
    an excerpt. A gzip file that ends early is rejected: its record is not whole."""
    faults: list[Fault] = []
    data = read_bytes(path, faults)
    if faults:
        tail = data[-EXCERPT_CHARS:].decode("utf-8", "backslashreplace")
        return Batch(rejected=[Rejection("arxiv", str(path), faults[0].reason, tail)])
    try:
        text = _decode(data)
    except UnicodeDecodeError as error:
        reason, raw = undecodable(error, "file")
        return Batch(rejected=[Rejection("arxiv", str(path), reason, raw)])
    try:
        return Batch(papers=[parse_abs(text, retrieved=retrieved)])
    except RecordRejected as exc:
        return Batch(rejected=[Rejection("arxiv", exc.ref or str(path), exc.reason, excerpt(text))])
