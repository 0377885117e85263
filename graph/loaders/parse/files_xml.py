"""XML bulk files (arXiv OAI-PMH pages, Atom feeds, ORCID records) read record by record.

An OAI-PMH page or a feed holds many records: a record with invalid bytes is set aside
and the others load; a page that breaks off (a truncated download) keeps the records that
were closed before the break. An ORCID file is one record, kept or rejected whole.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.loaders.parse import arxiv_atom, arxiv_oai
from scholargraph.graph.loaders.parse.orcid import parse_orcid_record
from scholargraph.graph.loaders.parse.raw import Fault, read_bytes, undecodable
from scholargraph.graph.loaders.parse.values import parse_xml
from scholargraph.graph.loaders.parse.xml_salvage import (
    XmlText,
    bad_bytes_reason,
    mark_bad_bytes,
    near,
    salvage,
    spelt,
    tainted,
)
from scholargraph.graph.records import Batch, Rejection

PageOf = Callable[[ET.Element, date | None], Batch]


def _oai_batch(root: ET.Element, retrieved: date | None) -> Batch:
    return arxiv_oai.oai_page_from_root(root, retrieved).batch


def _atom_batch(root: ET.Element, retrieved: date | None) -> Batch:
    return arxiv_atom.atom_page_from_root(root, retrieved).batch


# format → (record element, its ref for a report, the page of a root)
_PAGES: dict[str, tuple[str, Callable[[ET.Element], str], PageOf]] = {
    "oai": (arxiv_oai.RECORD_TAG, arxiv_oai.record_ref, _oai_batch),
    "atom": (arxiv_atom.RECORD_TAG, arxiv_atom.entry_ref, _atom_batch),
}


def read_xml_file(path: Path, fmt: str, retrieved: date | None) -> Batch:
    faults: list[Fault] = []
    data = read_bytes(path, faults)
    if fmt == "orcid":
        return _orcid_file(path, data, faults, retrieved)
    record_tag, ref_of, page_of = _PAGES[fmt]
    text = mark_bad_bytes(data)
    try:
        root = parse_xml(text.text, source="arxiv", ref=str(path))
    except RecordRejected as exc:
        salvaged = _salvage(exc, text, record_tag, faults)
        if salvaged is None:
            reasons = "; ".join([*(f.reason for f in faults), exc.reason])
            return Batch(rejected=[Rejection("arxiv", str(path), reasons, _start(text))])
        root = salvaged
    whole = sum(1 for _ in root.iter(record_tag))
    rejected = _set_aside(root, record_tag, ref_of, text, path)
    try:
        batch = page_of(root, retrieved)
    except RecordRejected as exc:
        return Batch(rejected=[Rejection("arxiv", str(path), exc.reason, _start(text))])
    batch.rejected += rejected
    if faults:
        reason = "; ".join(f.reason for f in faults)
        read = f"the {whole:,} whole records before it were read"
        shown = next((f.excerpt for f in reversed(faults) if f.excerpt), "")
        batch.rejected.append(Rejection("arxiv", str(path), f"{reason}; {read}", shown))
    return batch


def _salvage(
    exc: RecordRejected, text: XmlText, record_tag: str, faults: list[Fault]
) -> ET.Element | None:
    """The complete records of a document that does not parse whole, its break added to
    ``faults``; None when it is not a document at all (or declares entities)."""
    if not exc.reason.startswith("malformed XML"):
        return None
    root, error = salvage(text.text, record_tag)
    if root is None or error is None:
        return None
    line, column = error.position
    reason = f"malformed XML ({error}): the file breaks off or is damaged there"
    faults.append(Fault(reason, near(text.text, line, column)))
    return root


def _set_aside(
    root: ET.Element,
    record_tag: str,
    ref_of: Callable[[ET.Element], str],
    text: XmlText,
    path: Path,
) -> list[Rejection]:
    """Rejections for the records holding invalid bytes, which leave the tree."""
    if not text.bad:
        return []
    rejected: list[Rejection] = []
    for parent in list(root.iter()):
        for index, child in enumerate(list(parent)):
            runs = tainted(child, text) if child.tag == record_tag else []
            if runs:
                parent.remove(child)
                ref = ref_of(child) or f"{path}#{index}"
                reason = bad_bytes_reason(runs, text)
                rejected.append(Rejection("arxiv", ref, reason, spelt(child, text)))
    return rejected


def _start(text: XmlText) -> str:
    head = text.text[:500]
    return head if isinstance(head, str) else head.decode("utf-8", "backslashreplace")


def _orcid_file(path: Path, data: bytes, faults: list[Fault], retrieved: date | None) -> Batch:
    shown = data[:500].decode("utf-8", "backslashreplace")
    if faults:
        return Batch(rejected=[Rejection("orcid", str(path), faults[0].reason, shown)])
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        if not mark_bad_bytes(data).bad:  # another declared encoding: expat reads it
            return parse_orcid_record(data, retrieved=retrieved)
        return Batch(rejected=[Rejection("orcid", str(path), *undecodable(error, "file"))])
    batch = parse_orcid_record(data, retrieved=retrieved)
    batch.rejected = [
        replace(r, ref=r.ref or str(path), raw=r.raw or shown) for r in batch.rejected
    ]
    return batch
