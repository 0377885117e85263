"""arXiv OAI-PMH responses (``ListRecords`` / ``GetRecord``) → papers plus paging.

Two metadata formats are read:

* ``arXiv``: authors split into ``keyname`` / ``forenames`` / ``suffix`` / ``affiliation``
  (collaborations have only a keyname); ``created`` is the first version's date and
  ``updated`` the latest one's; there is no withdrawal flag, so the comments tell.
* ``arXivRaw``: the full version history (``<version version="v2"><date/><size/>
  <source_type/></version>``) and the flat author string of the ``.abs`` file; a latest
  version of source type ``I`` is a withdrawal.

OAI errors (``noRecordsMatch``, ``badResumptionToken`` …) are returned in
:attr:`OaiPage.error` rather than raised: ``noRecordsMatch`` is an ordinary empty result.
Records with ``status="deleted"`` headers are listed in :attr:`OaiPage.deleted`; the latest
header ``datestamp`` of the page, deleted records included, is :attr:`OaiPage.datestamp`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import date

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.loaders.parse.arxiv_fields import (
    authorship_from_parts,
    authorships_from_string,
    identity,
    split_categories,
    version_dates,
    version_number,
    withdrawn_by_comment,
)
from scholargraph.graph.loaders.parse.text import clean_title, parse_date
from scholargraph.graph.loaders.parse.values import (
    child_text,
    excerpt,
    local_name,
    optional_arxiv_id,
    optional_doi,
    parse_xml,
    retrieved_or_today,
)
from scholargraph.graph.records import Authorship, Batch, PaperRecord, Rejection, Version

_OAI = "{http://www.openarchives.org/OAI/2.0/}"
_ARXIV = "{http://arxiv.org/OAI/arXiv/}"
_RAW = "{http://arxiv.org/OAI/arXivRaw/}"
_WITHDRAWN_SOURCE_TYPE = "I"


@dataclass(frozen=True, slots=True)
class OaiError:
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class OaiPage:
    batch: Batch
    resumption_token: str | None = None  # None: this was the last page
    complete_list_size: int | None = None
    cursor: int | None = None
    deleted: tuple[str, ...] = ()
    error: OaiError | None = None
    datestamp: date | None = None  # the latest header datestamp of the page


RECORD_TAG = f"{_OAI}record"


def parse_oai_page(data: str | bytes, *, retrieved: date | None = None) -> OaiPage:
    """One OAI-PMH response. Raises :class:`RecordRejected` when it is not readable OAI-PMH."""
    return oai_page_from_root(parse_xml(data, source="arxiv", ref="OAI-PMH response"), retrieved)


def record_ref(record: ET.Element) -> str:
    """A record's OAI identifier, for a report."""
    return record.findtext(f"{_OAI}header/{_OAI}identifier", "").strip()


def oai_page_from_root(root: ET.Element, retrieved: date | None = None) -> OaiPage:
    """The page of a parsed OAI-PMH document (perhaps only the part of it that was whole)."""
    if root.tag != f"{_OAI}OAI-PMH":
        raise RecordRejected(f"not an OAI-PMH response (root element {root.tag})", source="arxiv")
    error = root.find(f"{_OAI}error")
    if error is not None:
        code = error.get("code") or "unknown"
        return OaiPage(Batch(), error=OaiError(code, (error.text or "").strip()))
    when = retrieved_or_today(retrieved, parse_date(child_text(root, f"{_OAI}responseDate")))
    batch = Batch()
    deleted: list[str] = []
    datestamps: list[date] = []
    for record in root.iter(RECORD_TAG):
        header = record.find(f"{_OAI}header")
        identifier = record_ref(record)
        stamp = parse_date(record.findtext(f"{_OAI}header/{_OAI}datestamp"))
        if stamp is not None:
            datestamps.append(stamp)
        if header is not None and header.get("status") == "deleted":
            deleted.append(optional_arxiv_id(identifier) or identifier)
            continue
        try:
            batch.papers.append(parse_oai_record(record, retrieved=when))
        except RecordRejected as exc:
            raw = excerpt(ET.tostring(record, encoding="unicode"))
            batch.rejected.append(Rejection("arxiv", exc.ref or identifier, exc.reason, raw))
    token = root.find(f".//{_OAI}resumptionToken")
    token_text = (token.text or "").strip() if token is not None else ""
    return OaiPage(
        batch=batch,
        resumption_token=token_text or None,
        complete_list_size=_int_attribute(token, "completeListSize"),
        cursor=_int_attribute(token, "cursor"),
        deleted=tuple(deleted),
        datestamp=max(datestamps, default=None),
    )


def _int_attribute(element: ET.Element | None, name: str) -> int | None:
    value = element.get(name) if element is not None else None
    return int(value) if value and value.isdigit() else None


def parse_oai_record(record: ET.Element, *, retrieved: date) -> PaperRecord:
    metadata = record.find(f"{_OAI}metadata")
    payload = next(iter(metadata), None) if metadata is not None else None
    if payload is None:
        raise RecordRejected("record without metadata", source="arxiv")
    if payload.tag == f"{_ARXIV}arXiv":
        return _parse_arxiv_format(payload, retrieved)
    if payload.tag == f"{_RAW}arXivRaw":
        return _parse_raw_format(payload, retrieved)
    raise RecordRejected(
        f"unsupported metadata format {local_name(payload)}; use arXiv or arXivRaw", source="arxiv"
    )


def _common(payload: ET.Element, ns: str) -> dict[str, str | None]:
    return {
        tag: child_text(payload, f"{ns}{tag}")
        for tag in ("id", "title", "categories", "comments", "journal-ref", "doi", "abstract")
    }


def _identity(fields: dict[str, str | None]) -> tuple[str, str]:
    return identity(fields["id"], fields["title"], missing="no <id>")


def _structured_authorships(payload: ET.Element, retrieved: date) -> tuple[Authorship, ...]:
    authorships: list[Authorship] = []
    for author in payload.iterfind(f"{_ARXIV}authors/{_ARXIV}author"):
        authorship = authorship_from_parts(
            len(authorships) + 1,
            child_text(author, f"{_ARXIV}keyname"),
            child_text(author, f"{_ARXIV}forenames"),
            child_text(author, f"{_ARXIV}suffix"),
            [element.text for element in author.iterfind(f"{_ARXIV}affiliation")],
            retrieved=retrieved,
        )
        if authorship is not None:
            authorships.append(authorship)
    return tuple(authorships)


def _parse_arxiv_format(payload: ET.Element, retrieved: date) -> PaperRecord:
    fields = _common(payload, _ARXIV)
    arxiv_id, title = _identity(fields)
    authorships = _structured_authorships(payload, retrieved)
    if not authorships:
        raise RecordRejected("no authors", source="arxiv", ref=arxiv_id)
    created = parse_date(child_text(payload, f"{_ARXIV}created"))
    updated = parse_date(child_text(payload, f"{_ARXIV}updated"))
    primary, categories = split_categories(fields["categories"])
    comments = clean_title(fields["comments"], tex=True)
    return PaperRecord(
        source="arxiv",
        title=title,
        arxiv_id=arxiv_id,
        doi=optional_doi(fields["doi"]),
        abstract=clean_title(fields["abstract"], tex=True),
        published=created,
        updated=updated or created,
        year=created.year if created else None,
        versions=(Version(1, created),) if created else (),
        primary_category=primary,
        categories=categories,
        journal_ref=clean_title(fields["journal-ref"], tex=True),
        comments=comments,
        withdrawn=withdrawn_by_comment(comments),
        authorships=authorships,
        retrieved=retrieved,
    )


def _raw_versions(payload: ET.Element) -> tuple[tuple[Version, ...], bool]:
    versions: list[tuple[Version, str]] = []
    for element in payload.iterfind(f"{_RAW}version"):
        number = version_number(element.get("version"))
        if number is None:
            continue
        version = Version(
            number,
            parse_date(child_text(element, f"{_RAW}date")),
            child_text(element, f"{_RAW}size"),
        )
        versions.append((version, child_text(element, f"{_RAW}source_type") or ""))
    versions.sort(key=lambda pair: pair[0].version)
    withdrawn = bool(versions) and _WITHDRAWN_SOURCE_TYPE in versions[-1][1].upper()
    return tuple(v for v, _ in versions), withdrawn


def _parse_raw_format(payload: ET.Element, retrieved: date) -> PaperRecord:
    fields = _common(payload, _RAW)
    arxiv_id, title = _identity(fields)
    authorships, et_al = authorships_from_string(
        child_text(payload, f"{_RAW}authors") or "", retrieved=retrieved
    )
    if not authorships:
        raise RecordRejected("no authors", source="arxiv", ref=arxiv_id)
    versions, withdrawn = _raw_versions(payload)
    primary, categories = split_categories(fields["categories"])
    published, updated, year = version_dates(versions)
    return PaperRecord(
        source="arxiv",
        title=title,
        arxiv_id=arxiv_id,
        doi=optional_doi(fields["doi"]),
        abstract=clean_title(fields["abstract"], tex=True),
        published=published,
        updated=updated,
        year=year,
        versions=versions,
        primary_category=primary,
        categories=categories,
        journal_ref=clean_title(fields["journal-ref"], tex=True),
        comments=clean_title(fields["comments"], tex=True),
        withdrawn=withdrawn,
        authorships=authorships,
        authors_truncated=et_al,
        retrieved=retrieved,
    )
