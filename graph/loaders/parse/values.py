"""Reading loosely typed source payloads (JSON objects, XML) into checked values.

Sources send ``null`` for any field, numbers as strings, and ids with or without their
resolver prefix. These helpers answer ``None`` for anything unusable instead of raising,
so a parser can decide which missing fields make a record unusable.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from scholargraph.graph import ids
from scholargraph.graph.errors import BadInput, RecordRejected
from scholargraph.graph.records import Source

JsonObject = Mapping[str, Any]

EXCERPT_CHARS = 500


def get_str(obj: JsonObject, key: str) -> str | None:
    value = obj.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    return value.strip() or None


def get_int(obj: JsonObject, key: str) -> int | None:
    value = obj.get(key)
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def get_obj(obj: JsonObject, key: str) -> JsonObject:
    value = obj.get(key)
    return value if isinstance(value, Mapping) else {}


def get_list(obj: JsonObject, key: str) -> list[Any]:
    """The list under ``key``; a single object stands for a list of one (XML-derived data)."""
    value = obj.get(key)
    if isinstance(value, list):
        return value
    if value is None:
        return []
    return [value]


def objects(values: list[Any]) -> list[JsonObject]:
    return [value for value in values if isinstance(value, Mapping)]


def strings(values: list[Any]) -> list[str]:
    return [value.strip() for value in values if isinstance(value, str) and value.strip()]


def _optional(normalize: Callable[[str], str], raw: object) -> str | None:
    if not isinstance(raw, str) or not raw.strip():
        return None
    try:
        return normalize(raw)
    except BadInput:
        return None


def optional_arxiv_id(raw: object) -> str | None:
    return _optional(ids.normalize_arxiv_id, raw)


def optional_orcid(raw: object) -> str | None:
    return _optional(ids.normalize_orcid, raw)


def optional_ror(raw: object) -> str | None:
    return _optional(ids.normalize_ror, raw)


def optional_openalex(raw: object) -> str | None:
    return _optional(ids.normalize_openalex, raw)


def optional_mag(raw: object) -> str | None:
    """A MAG id, given as digits or as a number."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    return _optional(ids.normalize_mag, raw)


def optional_s2_paper(raw: object) -> str | None:
    return _optional(ids.normalize_s2_paper, raw)


_DOI = re.compile(r"^10\.\d{4,9}/\S+$")


def optional_doi(raw: object) -> str | None:
    """The (first) DOI of a field in stored form; None for text that is not a DOI ("work:doi")."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    doi = ids.normalize_doi(raw.split()[0])
    return doi if _DOI.match(doi) else None


def excerpt(raw: object) -> str:
    """A short, printable excerpt of a raw record for a rejection report."""
    if isinstance(raw, str):
        text = raw
    else:
        try:
            text = json.dumps(raw, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = repr(raw)
    return text[:EXCERPT_CHARS]


def retrieved_or_today(*candidates: date | None) -> date:
    """The first known date among the candidates, else today."""
    for candidate in candidates:
        if candidate is not None:
            return candidate
    return date.today()


_ENTITY_DECLARATION = re.compile(rb"<!ENTITY", re.IGNORECASE)


def parse_xml(data: str | bytes, *, source: Source, ref: str) -> ET.Element:
    """The root element of an XML document from a source.

    Documents declaring entities are refused outright: the sources never send them, and
    expanding them is how a hostile document exhausts memory.
    """
    head = data[:4096].encode("utf-8") if isinstance(data, str) else data[:4096]
    if _ENTITY_DECLARATION.search(head):
        reason = "the XML declares entities; refusing to expand them"
        raise RecordRejected(reason, source=source, ref=ref)
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise RecordRejected(f"malformed XML ({exc})", source=source, ref=ref) from exc


def local_name(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def child_text(element: ET.Element, tag: str) -> str | None:
    child = element.find(tag)
    if child is None or child.text is None:
        return None
    return child.text.strip() or None
