"""JSON Lines and JSON documents of the bulk formats, read record by record.

A damaged record costs only itself: a line with invalid UTF-8, malformed JSON or a lone
surrogate is rejected with its excerpt; a JSON document with invalid bytes keeps every
record of its record list (``results``, ``data``, ``items`` or a top-level array) but the
damaged ones; a JSON array that breaks off keeps the records closed before the break; a
gzip stream that ends early keeps every line before the cut. Damage to the whole file is
reported as one more rejection, whose ``ref`` is the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

from scholargraph.graph.loaders.parse.arxiv_snapshot import parse_snapshot_line
from scholargraph.graph.loaders.parse.openalex import parse_openalex_entity, parse_openalex_payload
from scholargraph.graph.loaders.parse.orcid import parse_orcid_record
from scholargraph.graph.loaders.parse.raw import (
    Fault,
    RawLine,
    lone_surrogate,
    may_hold_lone_surrogate,
    printable,
    read_bytes,
    read_lines,
    split_lines,
    surrogate_reason,
    undecodable,
)
from scholargraph.graph.loaders.parse.ror import parse_ror_payload
from scholargraph.graph.loaders.parse.s2 import parse_s2_dataset_line, parse_s2_payload
from scholargraph.graph.loaders.parse.values import EXCERPT_CHARS, JsonObject, excerpt
from scholargraph.graph.records import Batch, Rejection, Source

LINE_SUFFIXES = {".jsonl", ".ndjson", ".gz"}
# Formats that are JSON Lines whatever the name (arXiv names its snapshot ``….json``).
LINE_FORMATS = {"snapshot"}
_RECORD_LISTS = ("results", "data", "items")
_SOURCE_OF: dict[str, Source] = {
    "openalex": "openalex",
    "s2": "s2",
    "ror": "ror",
    "orcid": "orcid",
    "snapshot": "arxiv",
}


def inner_suffix(path: Path) -> str:
    """The telling suffix: ``.jsonl`` for ``x.jsonl.gz``, ``.gz`` for ``part_000.gz``."""
    if path.suffix == ".gz" and Path(path.stem).suffix:
        return Path(path.stem).suffix
    return path.suffix


def _line_parser(fmt: str, retrieved: date | None) -> Callable[[JsonObject], Batch]:
    if fmt == "openalex":
        return lambda obj: parse_openalex_entity(obj, retrieved=retrieved)
    if fmt == "s2":
        return lambda obj: parse_s2_dataset_line(obj, retrieved=retrieved)
    if fmt == "ror":
        return lambda obj: parse_ror_payload(obj, retrieved=retrieved)
    if fmt == "snapshot":
        return lambda obj: parse_snapshot_line(obj, retrieved=retrieved)
    return lambda obj: parse_orcid_record(obj, retrieved=retrieved)


def _file_damage(
    source: Source, path: Path, faults: list[Fault], read: str, tail: bytes = b""
) -> list[Rejection]:
    """One rejection for the damage to a whole file, saying what of it was read; the excerpt
    is the text at the damage, else ``tail``, the last bytes read."""
    if not faults:
        return []
    reason = "; ".join(fault.reason for fault in faults)
    shown = next((fault.excerpt for fault in reversed(faults) if fault.excerpt), "")
    shown = shown or tail[-EXCERPT_CHARS:].decode("utf-8", "backslashreplace")
    return [Rejection(source, str(path), f"{reason}; {read}", shown)]


def iter_lines(
    path: Path,
    lines: Iterable[RawLine],
    faults: list[Fault],
    fmt: str,
    retrieved: date | None,
    chunk_size: int,
) -> Iterator[Batch]:
    """Batches of about ``chunk_size`` lines; ``faults`` is filled while ``lines`` is read."""
    parse = _line_parser(fmt, retrieved)
    source = _SOURCE_OF[fmt]
    batch = Batch()
    pending = whole = 0
    tail = b""
    for line in lines:
        if not line.data.strip():
            continue
        whole += not line.cut
        tail = line.data
        ref = f"{path}:{line.number}"
        read = _read_line(line, source, ref)
        if isinstance(read, Rejection):
            batch.rejected.append(read)
        else:
            parsed = parse(read)
            # a record too broken to name itself (no id) is named by its line
            parsed.rejected = [r if r.ref else replace(r, ref=ref) for r in parsed.rejected]
            batch.extend(parsed)
        pending += 1
        if pending >= chunk_size:
            yield batch
            batch, pending = Batch(), 0
    kept = f"the {whole:,} lines before it were read"
    batch.rejected += _file_damage(source, path, faults, kept, tail)
    if pending or faults:
        yield batch


def _read_line(line: RawLine, source: Source, ref: str) -> JsonObject | Rejection:
    """The line's JSON object, or why it is rejected."""
    try:
        obj = json.loads(line.data.decode("utf-8-sig" if line.number == 1 else "utf-8"))
    except UnicodeDecodeError as error:
        return Rejection(source, ref, *undecodable(error, "line"))
    except json.JSONDecodeError as error:
        shown = excerpt(line.data.decode("utf-8", "backslashreplace"))
        if line.cut:
            return Rejection(source, ref, "the line is cut off where the file ends early", shown)
        reason = f"malformed JSON ({error.msg} at column {error.colno})"
        return Rejection(source, ref, reason, shown)
    if not isinstance(obj, dict):
        shown = excerpt(line.data.decode("utf-8", "backslashreplace"))
        return Rejection(source, ref, "a JSON line that is not an object", shown)
    if may_hold_lone_surrogate(line.data) and (found := lone_surrogate(obj)) is not None:
        return Rejection(source, ref, surrogate_reason(found), printable(excerpt(obj)))
    return obj


def _parse_document(document: object, fmt: str, retrieved: date | None, path: Path) -> Batch:
    if fmt == "openalex":
        return parse_openalex_payload(document, retrieved=retrieved).batch
    if fmt == "s2":
        return parse_s2_payload(document, retrieved=retrieved).batch
    if fmt == "ror":
        return parse_ror_payload(document, retrieved=retrieved)
    if isinstance(document, dict):
        return parse_orcid_record(document, retrieved=retrieved)
    reason = "an ORCID file must hold one record (a JSON object)"
    return Batch(rejected=[Rejection("orcid", str(path), reason, printable(excerpt(document)))])


def iter_json_file(
    path: Path, fmt: str, retrieved: date | None, chunk_size: int
) -> Iterator[Batch]:
    """A JSON document, or JSON Lines when the file holds more than one value; JSON Lines by
    name (``.jsonl``, ``.ndjson``, ``.gz``) and of the :data:`LINE_FORMATS` are streamed."""
    faults: list[Fault] = []
    if inner_suffix(path) in LINE_SUFFIXES or fmt in LINE_FORMATS:
        yield from iter_lines(path, read_lines(path, faults), faults, fmt, retrieved, chunk_size)
        return
    data = read_bytes(path, faults)
    try:
        text, escaped = data.decode("utf-8-sig"), False
    except UnicodeDecodeError:
        # Invalid bytes become lone surrogates, which the damaged records then show.
        text, escaped = data.decode("utf-8-sig", "surrogateescape"), True
    source = _SOURCE_OF[fmt]
    rejected: list[Rejection] = []
    try:
        document: object = json.loads(text)
    except json.JSONDecodeError as error:
        if not text.lstrip().startswith("["):
            lines = split_lines(data, cut=bool(faults))
            yield from iter_lines(path, lines, faults, fmt, retrieved, chunk_size)
            return
        document, broke = salvage_array(text, error)
        shown = printable(text[max(0, broke.pos - 300) : broke.pos + 100])
        faults.append(
            Fault(f"the JSON array breaks off ({broke.msg} at line {broke.lineno})", shown)
        )
    if isinstance(document, list):
        kept = f"the {len(document):,} whole records before it were read"
    else:
        kept = "nothing of it was read"
    if (escaped or may_hold_lone_surrogate(data)) and lone_surrogate(document) is not None:
        document, rejected = set_aside(document, path, source)
    batch = _parse_document(document, fmt, retrieved, path) if document is not None else Batch()
    batch.rejected += rejected + _file_damage(source, path, faults, kept)
    yield batch


def salvage_array(
    text: str, error: json.JSONDecodeError
) -> tuple[list[object], json.JSONDecodeError]:
    """The items of a JSON array up to where it breaks off, and the error it broke on."""
    decoder = json.JSONDecoder()
    items: list[object] = []
    index = text.index("[") + 1
    while True:
        index = _skip_space(text, index)
        try:
            item, index = decoder.raw_decode(text, index)
        except json.JSONDecodeError as broke:
            return items, broke
        items.append(item)
        index = _skip_space(text, index)
        if index >= len(text) or text[index] != ",":
            return items, error
        index += 1


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


def set_aside(
    document: object, path: Path, source: Source
) -> tuple[object | None, list[Rejection]]:
    """The document without the records holding a lone surrogate (invalid bytes), and their
    rejections; a document that is one record is set aside whole (None)."""
    if isinstance(document, list):
        return _split(document, path, source)
    if isinstance(document, dict):
        key = next((k for k in _RECORD_LISTS if isinstance(document.get(k), list)), None)
        rest = {k: v for k, v in document.items() if k != key}
        if key is not None and lone_surrogate(rest) is None:
            kept, rejected = _split(document[key], path, source)
            return {**rest, key: kept}, rejected
    found = lone_surrogate(document) or ""
    shown = printable(excerpt(document))
    return None, [Rejection(source, str(path), surrogate_reason(found), shown)]


def _split(
    records: list[object], path: Path, source: Source
) -> tuple[list[object], list[Rejection]]:
    kept: list[object] = []
    rejected: list[Rejection] = []
    for index, record in enumerate(records):
        found = lone_surrogate(record)
        if found is None:
            kept.append(record)
        else:
            shown = printable(excerpt(record))
            rejected.append(Rejection(source, f"{path}#{index}", surrogate_reason(found), shown))
    return kept, rejected
