"""arXiv Atom API feeds (``export.arxiv.org/api/query``) → papers plus paging.

An id the API cannot read comes back as an ordinary ``<entry>`` whose ``<id>`` points into
``/api/errors``; such entries become rejections carrying the API's message. An id that is
well-formed but unknown simply yields no entry (``totalResults`` 0).

``<published>`` is the date of version 1 and ``<updated>`` the date of the version the
entry's id names, so an Atom record knows at most those two versions.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import date

from scholargraph.graph.errors import BadInput, RecordRejected
from scholargraph.graph.ids import parse_arxiv_id
from scholargraph.graph.loaders.parse.arxiv_fields import ordered_categories, withdrawn_by_comment
from scholargraph.graph.loaders.parse.text import clean_name, clean_title, parse_date
from scholargraph.graph.loaders.parse.values import (
    child_text,
    excerpt,
    optional_doi,
    parse_xml,
    retrieved_or_today,
)
from scholargraph.graph.records import (
    AuthorRecord,
    Authorship,
    Batch,
    PaperRecord,
    Rejection,
    Version,
)

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
_ERROR_MARK = "/api/errors"


@dataclass(frozen=True, slots=True)
class AtomPage:
    batch: Batch
    total_results: int | None
    start_index: int | None
    items_per_page: int | None

    @property
    def next_start(self) -> int | None:
        """The ``start`` of the following page, or None when this page is the last."""
        total, start, per_page = self.total_results, self.start_index, self.items_per_page
        if total is None or start is None or not per_page:
            return None
        following = start + per_page
        return following if following < total else None


def _int(element: ET.Element, tag: str) -> int | None:
    text = child_text(element, tag)
    return int(text) if text and text.isdigit() else None


RECORD_TAG = f"{_ATOM}entry"


def parse_atom_feed(data: str | bytes, *, retrieved: date | None = None) -> AtomPage:
    """Every entry of one feed. Raises :class:`RecordRejected` when the feed is unreadable."""
    return atom_page_from_root(parse_xml(data, source="arxiv", ref="atom feed"), retrieved)


def entry_ref(entry: ET.Element) -> str:
    """An entry's id, for a report."""
    return entry.findtext(f"{_ATOM}id", "").strip()


def atom_page_from_root(root: ET.Element, retrieved: date | None = None) -> AtomPage:
    """The page of a parsed feed (perhaps only the part of it that was whole)."""
    if root.tag != f"{_ATOM}feed":
        raise RecordRejected(f"not an Atom feed (root element {root.tag})", source="arxiv")
    when = retrieved_or_today(retrieved, parse_date(child_text(root, f"{_ATOM}updated")))
    batch = Batch()
    for entry in root.iterfind(RECORD_TAG):
        raw_id = entry_ref(entry)
        try:
            batch.papers.append(parse_atom_entry(entry, retrieved=when))
        except RecordRejected as exc:
            raw = excerpt(ET.tostring(entry, encoding="unicode"))
            batch.rejected.append(Rejection("arxiv", exc.ref or raw_id, exc.reason, raw))
    return AtomPage(
        batch=batch,
        total_results=_int(root, f"{_OPENSEARCH}totalResults"),
        start_index=_int(root, f"{_OPENSEARCH}startIndex"),
        items_per_page=_int(root, f"{_OPENSEARCH}itemsPerPage"),
    )


def _authorships(entry: ET.Element, retrieved: date) -> tuple[Authorship, ...]:
    authorships: list[Authorship] = []
    for element in entry.iterfind(f"{_ATOM}author"):
        name = clean_name(child_text(element, f"{_ATOM}name"), tex=True)
        if name is None:
            continue
        affiliations = tuple(
            text
            for a in element.iterfind(f"{_ARXIV}affiliation")
            if (text := clean_name(a.text)) is not None
        )
        authorships.append(
            Authorship(
                position=len(authorships) + 1,
                raw_name=name,
                author=AuthorRecord(name=name, source="arxiv", retrieved=retrieved),
                raw_affiliations=affiliations,
            )
        )
    return tuple(authorships)


def parse_atom_entry(entry: ET.Element, *, retrieved: date) -> PaperRecord:
    raw_id = child_text(entry, f"{_ATOM}id")
    if raw_id is None:
        raise RecordRejected("entry without an <id>", source="arxiv")
    if _ERROR_MARK in raw_id:
        message = child_text(entry, f"{_ATOM}summary") or "the API reported an error"
        raise RecordRejected(f"arXiv API error: {message}", source="arxiv", ref=raw_id)
    try:
        arxiv_id, version = parse_arxiv_id(raw_id)
    except BadInput as exc:
        raise RecordRejected(str(exc), source="arxiv", ref=raw_id) from exc
    title = clean_title(child_text(entry, f"{_ATOM}title"), tex=True)
    if title is None:
        raise RecordRejected("no title", source="arxiv", ref=arxiv_id)
    authorships = _authorships(entry, retrieved)
    if not authorships:
        raise RecordRejected("no authors", source="arxiv", ref=arxiv_id)
    published = parse_date(child_text(entry, f"{_ATOM}published"))
    updated = parse_date(child_text(entry, f"{_ATOM}updated"))
    versions = [Version(1, published)]
    if version and version > 1:
        versions.append(Version(version, updated))
    primary_element = entry.find(f"{_ARXIV}primary_category")
    primary = primary_element.get("term") if primary_element is not None else None
    others = [term for c in entry.iterfind(f"{_ATOM}category") if (term := c.get("term"))]
    comments = clean_title(child_text(entry, f"{_ARXIV}comment"), tex=True)
    return PaperRecord(
        source="arxiv",
        title=title,
        arxiv_id=arxiv_id,
        doi=optional_doi(child_text(entry, f"{_ARXIV}doi")),
        abstract=clean_title(child_text(entry, f"{_ATOM}summary"), tex=True),
        published=published,
        updated=updated,
        year=published.year if published else None,
        versions=tuple(versions),
        primary_category=primary or (others[0] if others else None),
        categories=ordered_categories(primary, others),
        journal_ref=clean_title(child_text(entry, f"{_ARXIV}journal_ref"), tex=True),
        comments=comments,
        withdrawn=withdrawn_by_comment(comments),
        authorships=authorships,
        retrieved=retrieved,
    )
