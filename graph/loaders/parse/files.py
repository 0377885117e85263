"""Reading bulk source files from disk into batches.

:func:`iter_bulk_files` walks files and folders (recursively, in name order) and yields
``(path, batch)`` pairs: one per ``.abs``/XML file or JSON document, and one per
``chunk_size`` lines of a JSON Lines file, so that a gigabyte OpenAlex snapshot part never
sits in memory whole. Gzipped files (``.gz``) are read transparently.

Formats, told from the name and content unless ``format`` says:

* ``abs``: arXiv ``.abs`` metadata files;
* ``oai``: arXiv OAI-PMH responses (``arXiv`` / ``arXivRaw``);
* ``atom``: arXiv Atom API feeds;
* ``orcid``: ORCID v3.0 records (XML, as in ORCID's public data file, or JSON);
* ``openalex``: OpenAlex snapshot JSON Lines or API responses;
* ``s2``: Semantic Scholar Datasets lines (papers, authors, S2ORC metadata);
* ``ror``: the ROR v2 data dump (a JSON array or JSON Lines) or API responses.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from pathlib import Path
from typing import IO, Literal, get_args

from scholargraph.graph.errors import BadInput, RecordRejected
from scholargraph.graph.loaders.parse.arxiv_abs import parse_abs_file
from scholargraph.graph.loaders.parse.arxiv_atom import parse_atom_feed
from scholargraph.graph.loaders.parse.arxiv_oai import parse_oai_page
from scholargraph.graph.loaders.parse.openalex import parse_openalex_entity, parse_openalex_payload
from scholargraph.graph.loaders.parse.orcid import parse_orcid_record
from scholargraph.graph.loaders.parse.ror import parse_ror_payload
from scholargraph.graph.loaders.parse.s2 import parse_s2_dataset_line, parse_s2_payload
from scholargraph.graph.loaders.parse.values import JsonObject, excerpt
from scholargraph.graph.records import Batch, Rejection, Source

BulkFormat = Literal["abs", "oai", "atom", "orcid", "openalex", "s2", "ror"]
BULK_FORMATS: tuple[BulkFormat, ...] = get_args(BulkFormat)
_SOURCE_OF: dict[BulkFormat, Source] = {
    "abs": "arxiv",
    "oai": "arxiv",
    "atom": "arxiv",
    "orcid": "orcid",
    "openalex": "openalex",
    "s2": "s2",
    "ror": "ror",
}
_READABLE_SUFFIXES = {".abs", ".xml", ".json", ".jsonl", ".ndjson", ".gz"}
_LINE_SUFFIXES = {".jsonl", ".ndjson", ".gz"}
_SNIFF_BYTES = 4096


def _open_text(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def _inner_suffix(path: Path) -> str:
    """The telling suffix: ``.jsonl`` for ``x.jsonl.gz``, ``.gz`` for ``part_000.gz``."""
    if path.suffix == ".gz" and Path(path.stem).suffix:
        return Path(path.stem).suffix
    return path.suffix


def _json_format(sample: object) -> BulkFormat | None:
    if isinstance(sample, list):
        sample = next((item for item in sample if isinstance(item, dict)), None)
    if not isinstance(sample, dict):
        return None
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


def _text_format(head: str) -> BulkFormat | None:
    """A guess from the first bytes of a JSON document too long to decode whole."""
    for marker, fmt in _JSON_MARKERS:
        if marker in head:
            return fmt
    return None


_JSON_MARKERS: tuple[tuple[str, BulkFormat], ...] = (
    ('"orcid-identifier"', "orcid"),
    ("openalex.org/", "openalex"),
    ("ror.org/", "ror"),
    ('"corpusid"', "s2"),
    ('"paperId"', "s2"),
    ('"authorId"', "s2"),
    ('"paper_id"', "s2"),
)


def detect_format(path: Path) -> BulkFormat:
    """The format of one file, told from its name and first line or bytes."""
    suffix = _inner_suffix(path)
    if suffix == ".abs":
        return "abs"
    with _open_text(path) as handle:
        first_line = handle.readline()
        head = first_line + handle.read(max(0, _SNIFF_BYTES - len(first_line)))
    found: BulkFormat | None
    if suffix == ".xml" or head.lstrip().startswith("<"):
        found = _xml_format(head)
    else:
        try:
            found = _json_format(json.loads(first_line))
        except json.JSONDecodeError:
            found = _text_format(head)
    if found is None:
        raise BadInput(f"cannot tell the format of {path}; pass format= one of {BULK_FORMATS}")
    return found


def _walk(paths: Iterable[Path | str], explicit_format: bool) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                hidden = any(part.startswith(".") for part in child.relative_to(path).parts)
                readable = explicit_format or _inner_suffix(child) in _READABLE_SUFFIXES
                if child.is_file() and not hidden and readable:
                    yield child
        elif path.is_file():
            yield path
        else:
            raise BadInput(f"{path} is neither a file nor a folder")


def _line_parser(fmt: BulkFormat, retrieved: date | None) -> Callable[[JsonObject], Batch]:
    if fmt == "openalex":
        return lambda obj: parse_openalex_entity(obj, retrieved=retrieved)
    if fmt == "s2":
        return lambda obj: parse_s2_dataset_line(obj, retrieved=retrieved)
    if fmt == "ror":
        return lambda obj: parse_ror_payload(obj, retrieved=retrieved)
    if fmt == "orcid":
        return lambda obj: parse_orcid_record(obj, retrieved=retrieved)
    raise BadInput(f"{fmt} files are not JSON Lines")


def _iter_lines(
    path: Path, lines: Iterable[str], fmt: BulkFormat, retrieved: date | None, chunk_size: int
) -> Iterator[Batch]:
    parse = _line_parser(fmt, retrieved)
    source = _SOURCE_OF[fmt]
    batch = Batch()
    pending = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            reason = f"malformed JSON ({exc.msg} at column {exc.colno})"
            batch.rejected.append(Rejection(source, f"{path}:{number}", reason, excerpt(line)))
        else:
            if isinstance(obj, dict):
                batch.extend(parse(obj))
            else:
                reason = "a JSON line that is not an object"
                batch.rejected.append(Rejection(source, f"{path}:{number}", reason, excerpt(line)))
        pending += 1
        if pending >= chunk_size:
            yield batch
            batch, pending = Batch(), 0
    if pending:
        yield batch


def _parse_xml_file(path: Path, fmt: BulkFormat, retrieved: date | None) -> Batch:
    with _open_text(path) as handle:
        text = handle.read()
    try:
        if fmt == "oai":
            return parse_oai_page(text, retrieved=retrieved).batch
        if fmt == "atom":
            return parse_atom_feed(text, retrieved=retrieved).batch
        return parse_orcid_record(text, retrieved=retrieved)
    except RecordRejected as exc:
        return Batch(rejected=[Rejection(_SOURCE_OF[fmt], str(path), exc.reason, excerpt(text))])


def _parse_json_document(document: object, fmt: BulkFormat, retrieved: date | None) -> Batch:
    if fmt == "openalex":
        return parse_openalex_payload(document, retrieved=retrieved).batch
    if fmt == "s2":
        return parse_s2_payload(document, retrieved=retrieved).batch
    if fmt == "ror":
        return parse_ror_payload(document, retrieved=retrieved)
    if fmt == "orcid" and isinstance(document, dict):
        return parse_orcid_record(document, retrieved=retrieved)
    raise BadInput(f"{fmt} files are not JSON documents")


def _iter_json_file(
    path: Path, fmt: BulkFormat, retrieved: date | None, chunk_size: int
) -> Iterator[Batch]:
    """A JSON document, or JSON Lines when the file holds more than one value."""
    if _inner_suffix(path) in _LINE_SUFFIXES:
        with _open_text(path) as handle:
            yield from _iter_lines(path, handle, fmt, retrieved, chunk_size)
        return
    with _open_text(path) as handle:
        text = handle.read()
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        yield from _iter_lines(path, text.splitlines(), fmt, retrieved, chunk_size)
    else:
        yield _parse_json_document(document, fmt, retrieved)


def iter_bulk_files(
    paths: Iterable[Path | str],
    *,
    format: BulkFormat | None = None,
    retrieved: date | None = None,
    chunk_size: int = 1000,
) -> Iterator[tuple[Path, Batch]]:
    """``(path, batch)`` for every readable file under ``paths``.

    Folders are read recursively in name order, skipping hidden entries and (unless
    ``format`` is given) files whose names do not look like source data. Malformed records
    become rejections in the batch; a file whose format cannot be told raises
    :class:`BadInput` naming the ``format`` values to choose from.
    """
    if format is not None and format not in BULK_FORMATS:
        raise BadInput(f"unknown format {format!r}; expected one of {BULK_FORMATS}")
    if chunk_size < 1:
        raise BadInput("chunk_size must be at least 1")
    for path in _walk(paths, explicit_format=format is not None):
        fmt = format or detect_format(path)
        if fmt == "abs":
            yield path, parse_abs_file(path, retrieved=retrieved)
        elif fmt in ("oai", "atom") or (fmt == "orcid" and _inner_suffix(path) == ".xml"):
            yield path, _parse_xml_file(path, fmt, retrieved)
        else:
            for batch in _iter_json_file(path, fmt, retrieved, chunk_size):
                yield path, batch
