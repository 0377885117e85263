"""Reading bulk source files from disk into batches.

:func:`iter_bulk_files` walks files and folders (recursively, in name order) and yields
``(path, batch)`` pairs: one per ``.abs``/XML file or JSON document, and one per
``chunk_size`` lines of a JSON Lines file, so that a gigabyte OpenAlex snapshot part never
sits in memory whole. Gzipped files (``.gz``) are read transparently.

Formats, told from the name and content unless ``format`` says:

* ``abs``: arXiv ``.abs`` metadata files;
* ``oai``: arXiv OAI-PMH responses (``arXiv`` / ``arXivRaw``);
* ``atom``: arXiv Atom API feeds;
* ``snapshot``: arXiv's metadata snapshot (``arxiv-metadata-oai-snapshot.json``, JSON Lines
  whatever its name: a line whose object has ``id`` and ``authors_parsed``);
* ``orcid``: ORCID v3.0 records (XML, as in ORCID's public data file, or JSON);
* ``openalex``: OpenAlex snapshot JSON Lines or API responses;
* ``s2``: Semantic Scholar Datasets lines (papers, authors, S2ORC metadata);
* ``ror``: the ROR v2 data dump (a JSON array or JSON Lines) or API responses.

Which files are read: in a folder, only those whose names fit the formats asked for (a
``README.txt`` or ``manifest.tsv`` beside a dump is skipped, and so is a file whose content
is another format's); a file named on its own is always looked at. Skipped files are handed
to ``on_skip``. A file that should hold data but holds nothing recognisable (empty, an HTML
page, unknown content) is not parsed: it becomes a rejection that names it.

Damage costs only what it touches (see :mod:`~graph.loaders.parse.raw`): a record with
invalid bytes is rejected, a truncated gzip or XML file keeps its complete records, and
the damage to the file is one more rejection whose ``ref`` is the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal, get_args

from scholargraph.graph.errors import BadInput
from scholargraph.graph.loaders.parse.arxiv_abs import parse_abs_file
from scholargraph.graph.loaders.parse.arxiv_snapshot import MARKER_KEYS
from scholargraph.graph.loaders.parse.files_xml import read_xml_file
from scholargraph.graph.loaders.parse.json_files import (
    LINE_FORMATS,
    LINE_SUFFIXES,
    inner_suffix,
    iter_json_file,
)
from scholargraph.graph.loaders.parse.raw import read_pieces
from scholargraph.graph.records import Batch, Rejection, Source

BulkFormat = Literal["abs", "oai", "atom", "snapshot", "orcid", "openalex", "s2", "ror"]
BULK_FORMATS: tuple[BulkFormat, ...] = get_args(BulkFormat)
SOURCE_OF: dict[BulkFormat, Source] = {
    "abs": "arxiv",
    "oai": "arxiv",
    "atom": "arxiv",
    "snapshot": "arxiv",
    "orcid": "orcid",
    "openalex": "openalex",
    "s2": "s2",
    "ror": "ror",
}
SOURCE_FORMATS: dict[str, tuple[BulkFormat, ...]] = {
    "arxiv": ("abs", "oai", "atom", "snapshot"),
    "s2": ("s2",),
    "openalex": ("openalex",),
    "orcid": ("orcid",),
    "ror": ("ror",),
}
# Names that may hold each format (the suffix inside a .gz counts; a bare .gz is JSON Lines).
_SUFFIXES: dict[BulkFormat, frozenset[str]] = {
    "abs": frozenset({".abs"}),
    "oai": frozenset({".xml"}),
    "atom": frozenset({".xml"}),
    "snapshot": frozenset({".json", ".jsonl", ".ndjson", ".gz"}),
    "orcid": frozenset({".xml", ".json"}),
    "openalex": frozenset({".json", ".jsonl", ".ndjson", ".gz"}),
    "s2": frozenset({".json", ".jsonl", ".ndjson", ".gz"}),
    "ror": frozenset({".json", ".jsonl", ".ndjson"}),
}
_NAMES: dict[BulkFormat, str] = {
    "abs": "arXiv .abs",
    "oai": "arXiv OAI-PMH XML",
    "atom": "arXiv Atom XML",
    "snapshot": "arXiv metadata snapshot JSON",
    "orcid": "ORCID records",
    "openalex": "OpenAlex JSON",
    "s2": "Semantic Scholar JSON",
    "ror": "ROR JSON",
}
_SNIFF_BYTES = 4096
_FIRST_LINE_CAP = 16 << 20

Sniffed = BulkFormat | Literal["empty", "html"] | None


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A file in a folder that was not read, and why."""

    path: Path
    reason: str


def _json_format(sample: object) -> BulkFormat | None:
    if isinstance(sample, list):
        sample = next((item for item in sample if isinstance(item, dict)), None)
    if not isinstance(sample, dict):
        return None
    if sample.keys() >= MARKER_KEYS:
        return "snapshot"
    if isinstance(sample.get("results"), list) and "meta" in sample:
        return "openalex"
    identifier = str(sample.get("id") or "")
    if "openalex.org/" in identifier:
        return "openalex"
    if "ror.org/" in identifier or "items" in sample:
        return "ror"
    if {"corpusid", "authorid", "paper_id", "paperId", "authorId", "data"} & sample.keys():
        return "s2"
    if "orcid-identifier" in sample:
        return "orcid"
    return None


def _xml_format(head: str) -> BulkFormat | None:
    if "openarchives.org/OAI/2.0" in head:
        return "oai"
    if "www.w3.org/2005/Atom" in head:
        return "atom"
    if "www.orcid.org/ns/" in head:
        return "orcid"
    return None


_JSON_MARKERS: tuple[tuple[str, BulkFormat], ...] = (
    ('"orcid-identifier"', "orcid"),
    ("openalex.org/", "openalex"),
    ("ror.org/", "ror"),
    ('"corpusid"', "s2"),
    ('"paperId"', "s2"),
    ('"authorId"', "s2"),
    ('"paper_id"', "s2"),
    ('"authors_parsed"', "snapshot"),
)


def _text_format(head: str) -> BulkFormat | None:
    """A guess from the first bytes of a JSON document too long to decode whole."""
    for marker, fmt in _JSON_MARKERS:
        if marker in head:
            return fmt
    return None


def _head(path: Path) -> tuple[str, str]:
    """(first line, first few kilobytes) of the file's text, whatever damage it holds."""
    data = b""
    for piece in read_pieces(path, []):
        data += piece
        if len(data) >= _SNIFF_BYTES and (b"\n" in data or len(data) >= _FIRST_LINE_CAP):
            break
    text = data.decode("utf-8", "replace")
    return text.split("\n", 1)[0], text[:_SNIFF_BYTES]


def sniff_format(path: Path) -> Sniffed:
    """The format of one file told from its name and first bytes; ``"empty"`` or ``"html"``
    for a file that holds no data; None when nothing tells."""
    if inner_suffix(path) == ".abs":
        return "abs"
    first_line, head = _head(path)
    start = head.lstrip("\ufeff \t\r\n")
    if not start:
        return "empty"
    if start[:200].lower().startswith(("<!doctype html", "<html")):
        return "html"
    if inner_suffix(path) == ".xml" or start.startswith("<"):
        return _xml_format(head)
    try:
        return _json_format(json.loads(first_line))
    except json.JSONDecodeError:
        return _text_format(head)


def detect_format(path: Path) -> BulkFormat:
    """The format of one file, told from its name and first line or bytes."""
    found = sniff_format(path)
    if found is None or found == "empty" or found == "html":
        raise BadInput(f"cannot tell the format of {path}; pass format= one of {BULK_FORMATS}")
    return found


def _describe(formats: tuple[BulkFormat, ...]) -> str:
    names = list(dict.fromkeys(_NAMES[f] for f in formats))
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _walk(paths: Iterable[Path | str]) -> Iterator[tuple[Path, bool]]:
    """``(path, named)``: every file under ``paths``, and whether it was named on its own."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                hidden = any(part.startswith(".") for part in child.relative_to(path).parts)
                if child.is_file() and not hidden:
                    yield child, False
        elif path.is_file():
            yield path, True
        else:
            raise BadInput(f"{path} is neither a file nor a folder")


def _choose(
    path: Path, named: bool, allowed: tuple[BulkFormat, ...], forced: bool
) -> BulkFormat | SkippedFile | Rejection:
    """The format to read ``path`` as, or why it is skipped (not data of ``allowed``), or
    why it is rejected (it should hold data and holds nothing recognisable)."""
    suffixes = frozenset().union(*(_SUFFIXES[f] for f in allowed))
    if not named and inner_suffix(path) not in suffixes:
        return SkippedFile(path, f"its name does not end in {', '.join(sorted(suffixes))}")
    found = sniff_format(path)
    what = _describe(allowed)
    source = SOURCE_OF[allowed[0]]
    if found == "empty":
        return Rejection(source, str(path), f"unrecognised file: empty, not {what}")
    if found == "html":
        reason = f"unrecognised file: an HTML page, not {what} (an error page saved in its place?)"
        return Rejection(source, str(path), reason, _shown(path))
    if forced:
        return allowed[0]
    if found is None:
        if len(allowed) == 1:  # nothing tells, and only one format may be meant
            return allowed[0]
        reason = f"unrecognised file: its first bytes are not {what}"
        return Rejection(source, str(path), reason, _shown(path))
    if found in allowed:
        return found
    return SkippedFile(path, f"it holds {_NAMES[found]}, not {what}")


def _shown(path: Path) -> str:
    return _head(path)[1][:500]


def iter_bulk_files(
    paths: Iterable[Path | str],
    *,
    format: BulkFormat | None = None,
    source: str | None = None,
    retrieved: date | None = None,
    chunk_size: int = 1000,
    on_skip: Callable[[SkippedFile], None] | None = None,
) -> Iterator[tuple[Path, Batch]]:
    """``(path, batch)`` for every readable file under ``paths``.

    ``format`` reads every file as that format; ``source`` reads only that source's formats
    (``arxiv``: .abs, OAI-PMH, Atom and the metadata snapshot), told apart by content;
    neither reads them all.
    Folders are read recursively in name order, skipping hidden entries and the files
    that are not of the formats asked for, which go to ``on_skip``. Malformed records,
    damaged and unrecognised files become rejections in the batches.
    """
    if format is not None and format not in BULK_FORMATS:
        raise BadInput(f"unknown format {format!r}; expected one of {BULK_FORMATS}")
    if source is not None and source not in SOURCE_FORMATS:
        raise BadInput(f"unknown source {source!r}; expected one of {tuple(SOURCE_FORMATS)}")
    if chunk_size < 1:
        raise BadInput("chunk_size must be at least 1")
    allowed = (format,) if format else SOURCE_FORMATS[source] if source else BULK_FORMATS
    for path, named in _walk(paths):
        chosen = _choose(path, named, allowed, forced=format is not None)
        if isinstance(chosen, SkippedFile):
            if on_skip is not None:
                on_skip(chosen)
        elif isinstance(chosen, Rejection):
            yield path, Batch(rejected=[chosen])
        elif chosen == "abs":
            yield path, parse_abs_file(path, retrieved=retrieved)
        elif chosen in ("oai", "atom") or (chosen == "orcid" and inner_suffix(path) == ".xml"):
            yield path, read_xml_file(path, chosen, retrieved)
        else:
            for batch in iter_json_file(path, chosen, retrieved, chunk_size):
                yield path, batch


def count_bulk_records(
    paths: Iterable[Path | str], *, format: BulkFormat | None = None, source: str | None = None
) -> int | None:
    """How many records :func:`iter_bulk_files` will hand out for ``paths``, counted without
    parsing them: papers, author profiles and institutions (an author's affiliations are
    part of its record), plus one for each file it rejects whole. None when a file is one
    JSON document (an array or an API answer), whose records only parsing can count.

    Damage found while parsing may add rejections this count cannot foresee.
    """
    allowed = (format,) if format else SOURCE_FORMATS[source] if source else BULK_FORMATS
    total = 0
    for path, named in _walk(paths):
        chosen = _choose(path, named, allowed, forced=format is not None)
        if isinstance(chosen, SkippedFile):
            continue
        if isinstance(chosen, Rejection) or chosen == "abs":
            total += 1
        elif chosen == "oai":
            total += _occurrences(path, b"<record>", b"<record ") - _occurrences(
                path, b'status="deleted"'
            )
        elif chosen == "atom":
            total += _occurrences(path, b"<entry>", b"<entry ")
        elif chosen == "orcid" and inner_suffix(path) == ".xml":
            total += 1
        elif inner_suffix(path) in LINE_SUFFIXES or chosen in LINE_FORMATS:
            total += _lines(path)
        else:
            return None
    return total


def _occurrences(path: Path, *tokens: bytes) -> int:
    """Occurrences of ``tokens`` in the file, also where one straddles two pieces."""
    overlap = max(len(t) for t in tokens) - 1
    found, tail = 0, b""
    for piece in read_pieces(path, []):
        window = tail + piece
        found += sum(window.count(t) for t in tokens)
        tail = window[-overlap:]
        found -= sum(tail.count(t) for t in tokens)
    return found + sum(tail.count(t) for t in tokens)


def _lines(path: Path) -> int:
    """Lines holding something, as JSON Lines are read."""
    lines, partial = 0, b""
    for piece in read_pieces(path, []):
        parts = (partial + piece).split(b"\n")
        partial = parts.pop()
        lines += sum(1 for part in parts if part.strip())
    return lines + (1 if partial.strip() else 0)
