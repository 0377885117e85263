"""ORCID v3.0 records, works and employments → an author, work ids and affiliations.

The public API answers JSON (``Accept: application/json``); ORCID's own samples are mostly
XML. Both are read: XML is first turned into the JSON shape (element names are the JSON
keys; a repeated element becomes a list; ``{"value": …}`` wrappers are optional).

Work external ids count when their relationship is ``self`` or ``version-of`` (the same
paper in another version, e.g. the arXiv preprint of a journal article); ``part-of``
(the book a chapter is in) and ``funded-by`` do not.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.loaders.parse.text import clean_name, parse_date, parse_year
from scholargraph.graph.loaders.parse.values import (
    JsonObject,
    excerpt,
    get_list,
    get_obj,
    local_name,
    objects,
    optional_arxiv_id,
    optional_doi,
    optional_orcid,
    optional_ror,
    parse_xml,
    retrieved_or_today,
)
from scholargraph.graph.records import (
    AffiliationRecord,
    AuthorRecord,
    Batch,
    ClaimRecord,
    InstitutionRef,
    Rejection,
)

_ORCID_IN_PATH = re.compile(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]")
_LINKING_RELATIONSHIPS = {"self", "version-of"}


@dataclass(frozen=True, slots=True)
class OrcidWorkIds:
    arxiv_ids: tuple[str, ...] = ()
    dois: tuple[str, ...] = ()
    rejected: tuple[Rejection, ...] = ()  # ids typed arxiv/doi whose value is neither


def _xml_to_json(element: ET.Element) -> Any:
    children = list(element)
    attributes = {k.rsplit("}", 1)[-1]: v for k, v in element.attrib.items()}
    if not children:
        text = (element.text or "").strip()
        return {**attributes, "value": text} if attributes else text
    result: dict[str, Any] = attributes
    for child in children:
        key, value = local_name(child), _xml_to_json(child)
        if key not in result:
            result[key] = value
        elif isinstance(result[key], list):
            result[key].append(value)
        else:
            result[key] = [result[key], value]
    return result


def orcid_payload(data: str | bytes | JsonObject) -> JsonObject:
    """A decoded JSON document as is, or an XML document in the JSON shape."""
    if isinstance(data, Mapping):
        return data
    root = parse_xml(data, source="orcid", ref="ORCID document")
    converted = _xml_to_json(root)
    if not isinstance(converted, Mapping):
        raise RecordRejected("empty ORCID document", source="orcid")
    return converted


def _text(value: object) -> str | None:
    if isinstance(value, Mapping):
        value = value.get("value")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    return value.strip() or None


def _orcid_of(payload: JsonObject) -> str | None:
    candidates = [
        _text(get_obj(payload, "orcid-identifier").get("path")),
        _text(payload.get("path")),
        _text(get_obj(payload, "person").get("path")),
        _text(get_obj(payload, "name").get("path")),
    ]
    for candidate in candidates:
        match = _ORCID_IN_PATH.search(candidate or "")
        if match and (orcid := optional_orcid(match.group(0))):
            return orcid
    return None


def _modified(payload: JsonObject) -> date | None:
    raw = get_obj(payload, "history").get("last-modified-date")
    value = raw.get("value") if isinstance(raw, Mapping) else raw
    if isinstance(value, int) and not isinstance(value, bool):
        return datetime.fromtimestamp(value / 1000, tz=UTC).date()
    return parse_date(_text(value))


def parse_orcid_person(payload: JsonObject, *, retrieved: date | None = None) -> AuthorRecord:
    """The person of a record (or of a ``/person`` document) with their public names."""
    person = get_obj(payload, "person") or payload
    orcid = _orcid_of(payload)
    if orcid is None:
        raise RecordRejected("no valid ORCID iD in the record", source="orcid")
    name_block = get_obj(person, "name")
    given = clean_name(_text(name_block.get("given-names")))
    family = clean_name(_text(name_block.get("family-name")))
    full = " ".join(part for part in (given, family) if part) or None
    credit = clean_name(_text(name_block.get("credit-name")))
    name = credit or full
    if name is None:
        raise RecordRejected("the record's name is not public", source="orcid", ref=orcid)
    others = [
        clean_name(_text(other.get("content")))
        for other in objects(get_list(get_obj(person, "other-names"), "other-name"))
    ]
    alternatives = [n for n in (full, *others) if n and n != name]
    return AuthorRecord(
        name=name,
        source="orcid",
        orcid=orcid,
        alt_names=tuple(dict.fromkeys(alternatives)),
        retrieved=retrieved_or_today(retrieved, _modified(payload)),
    )


def _works(payload: JsonObject) -> list[JsonObject]:
    """Every object that carries work external ids: groups, summaries, single or bulk works."""
    if "bulk" in payload:
        return [get_obj(item, "work") for item in objects(get_list(payload, "bulk"))]
    if "external-ids" in payload and "title" in payload:
        return [payload]
    works = get_obj(get_obj(payload, "activities-summary"), "works") or payload
    found: list[JsonObject] = []
    for group in objects(get_list(works, "group")):
        found.append(group)
        found.extend(objects(get_list(group, "work-summary")))
    return found


def orcid_work_ids(payload: JsonObject) -> OrcidWorkIds:
    """The arXiv ids and DOIs an ORCID record's works (or a works document) claim."""
    orcid = _orcid_of(payload) or ""
    arxiv_ids: list[str] = []
    dois: list[str] = []
    rejected: dict[tuple[str, str | None], Rejection] = {}
    for work in _works(payload):
        for external in objects(get_list(get_obj(work, "external-ids"), "external-id")):
            kind = (_text(external.get("external-id-type")) or "").lower()
            value = _text(external.get("external-id-value"))
            relationship = (_text(external.get("external-id-relationship")) or "self").lower()
            if kind not in ("arxiv", "doi") or relationship not in _LINKING_RELATIONSHIPS:
                continue
            parsed = optional_arxiv_id(value) if kind == "arxiv" else optional_doi(value)
            if parsed is None:
                reason = f"work {kind} id {value!r} is not a valid {kind} id"
                rejected[kind, value] = Rejection("orcid", orcid, reason, excerpt(external))
            else:
                (arxiv_ids if kind == "arxiv" else dois).append(parsed)
    return OrcidWorkIds(
        tuple(dict.fromkeys(arxiv_ids)), tuple(dict.fromkeys(dois)), tuple(rejected.values())
    )


def _employment_summaries(payload: JsonObject) -> list[JsonObject]:
    employments = get_obj(get_obj(payload, "activities-summary"), "employments") or payload
    summaries: list[JsonObject] = []
    for group in objects(get_list(employments, "affiliation-group")):
        summaries.extend(objects(get_list(group, "employment-summary")))
        for wrapper in objects(get_list(group, "summaries")):
            summaries.extend(objects(get_list(wrapper, "employment-summary")))
    return summaries


def _organization(summary: JsonObject) -> InstitutionRef | None:
    organization = get_obj(summary, "organization")
    disambiguated = get_obj(organization, "disambiguated-organization")
    source = (_text(disambiguated.get("disambiguation-source")) or "").upper()
    identifier = _text(disambiguated.get("disambiguated-organization-identifier"))
    ref = InstitutionRef(
        ror_id=optional_ror(identifier) if source == "ROR" else None,
        name=clean_name(_text(organization.get("name"))),
        country_code=_text(get_obj(organization, "address").get("country")),
    )
    return ref if (ref.ror_id or ref.name) else None


def _year(date_block: object) -> int | None:
    return parse_year(_text(date_block.get("year"))) if isinstance(date_block, Mapping) else None


def parse_orcid_employments(
    payload: JsonObject, author: AuthorRecord
) -> tuple[AffiliationRecord, ...]:
    """Employments of a full record or of an ``/employments`` document."""
    affiliations = []
    for summary in _employment_summaries(payload):
        institution = _organization(summary)
        if institution is None:
            continue
        affiliations.append(
            AffiliationRecord(
                author=author,
                institution=institution,
                source="orcid",
                first_year=_year(summary.get("start-date")),
                last_year=_year(summary.get("end-date")),
                role=clean_name(_text(summary.get("role-title"))),
            )
        )
    return tuple(affiliations)


def parse_orcid_record(data: str | bytes | JsonObject, *, retrieved: date | None = None) -> Batch:
    """A full record (JSON or XML) → its author and employments; problems become rejections."""
    try:
        payload = orcid_payload(data)
        if "response-code" in payload or "developer-message" in payload:
            message = _text(payload.get("developer-message")) or "ORCID reported an error"
            raise RecordRejected(f"ORCID API error: {message}", source="orcid")
        author = parse_orcid_person(payload, retrieved=retrieved)
    except RecordRejected as exc:
        return Batch(rejected=[Rejection("orcid", exc.ref, exc.reason, excerpt(data))])
    works = orcid_work_ids(payload)
    claims = (
        [ClaimRecord(author, "orcid", works.arxiv_ids, works.dois)]
        if works.arxiv_ids or works.dois
        else []
    )
    return Batch(
        authors=[author],
        affiliations=list(parse_orcid_employments(payload, author)),
        claims=claims,
        rejected=list(works.rejected),
    )
