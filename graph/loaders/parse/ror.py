"""ROR v2 organisation records → :class:`InstitutionRecord`.

Read here: a single record (``/v2/organizations/{id}``), a ``?query=`` result page
(``items`` of records), the data dump (a JSON array, or JSON Lines one record a line), and
the ``?affiliation=`` matcher, whose items wrap the record with ``score``, ``matching_type``
and ``chosen``. From the matcher only the item ROR marked ``chosen: true`` is taken: the
scores of the others are not comparable enough to pick by.

Names carry types: ``ror_display`` (the name to show), ``label`` (official names, often
in several languages), ``alias`` and ``acronym``. ``retrieved`` defaults to the record's
``admin.last_modified.date``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.loaders.parse.text import clean_name, parse_date
from scholargraph.graph.loaders.parse.values import (
    JsonObject,
    excerpt,
    get_int,
    get_list,
    get_obj,
    get_str,
    objects,
    optional_ror,
    retrieved_or_today,
    strings,
)
from scholargraph.graph.records import Batch, InstitutionRecord, Rejection

_RELATIONSHIP_KINDS = ("parent", "child", "related")


def _names(obj: JsonObject) -> dict[str, list[str]]:
    """Name values by type, in record order, cleaned and without repeats."""
    by_type: dict[str, list[str]] = {}
    for entry in objects(get_list(obj, "names")):
        value = clean_name(get_str(entry, "value"))
        if value is None:
            continue
        for kind in strings(get_list(entry, "types")):
            if value not in by_type.setdefault(kind, []):
                by_type[kind].append(value)
    return by_type


def parse_ror_record(obj: JsonObject, *, retrieved: date | None = None) -> InstitutionRecord:
    """One v2 record. Raises :class:`RecordRejected` without a valid id or a name."""
    ror_id = optional_ror(obj.get("id"))
    if ror_id is None:
        raise RecordRejected("no valid ROR id", source="ror", ref=str(obj.get("id") or ""))
    if "names" not in obj and isinstance(obj.get("name"), str):
        reason = "a ROR v1 record; only the v2 schema is read"
        raise RecordRejected(reason, source="ror", ref=ror_id)
    names = _names(obj)
    candidates = names.get("ror_display") or names.get("label")
    if not candidates:
        raise RecordRejected("no ror_display or label name", source="ror", ref=ror_id)
    display = candidates[0]
    related: dict[str, list[str]] = {kind: [] for kind in _RELATIONSHIP_KINDS}
    for relationship in objects(get_list(obj, "relationships")):
        kind = get_str(relationship, "type")
        other = optional_ror(relationship.get("id"))
        if kind in related and other and other not in related[kind]:
            related[kind].append(other)
    place = get_obj((objects(get_list(obj, "locations")) or [{}])[0], "geonames_details")
    modified = get_obj(get_obj(obj, "admin"), "last_modified")
    return InstitutionRecord(
        name=display,
        source="ror",
        ror_id=ror_id,
        acronyms=tuple(names.get("acronym", [])),
        aliases=tuple(names.get("alias", [])),
        labels=tuple(label for label in names.get("label", []) if label != display),
        country_code=get_str(place, "country_code"),
        city=clean_name(get_str(place, "name")),
        types=tuple(strings(get_list(obj, "types"))),
        status=get_str(obj, "status"),
        established=get_int(obj, "established"),
        parent_ids=tuple(related["parent"]),
        child_ids=tuple(related["child"]),
        related_ids=tuple(related["related"]),
        retrieved=retrieved_or_today(retrieved, parse_date(get_str(modified, "date"))),
    )


def _add(batch: Batch, obj: JsonObject, retrieved: date | None, ref: str) -> None:
    try:
        batch.institutions.append(parse_ror_record(obj, retrieved=retrieved))
    except RecordRejected as exc:
        batch.rejected.append(Rejection("ror", exc.ref or ref, exc.reason, excerpt(obj)))


def chosen_organization(
    payload: JsonObject, *, retrieved: date | None = None
) -> InstitutionRecord | None:
    """The organisation the ``?affiliation=`` matcher chose, or None when it chose none."""
    for item in objects(get_list(payload, "items")):
        if item.get("chosen") is True:
            return parse_ror_record(get_obj(item, "organization"), retrieved=retrieved)
    return None


def _is_matcher_response(payload: JsonObject) -> bool:
    items = objects(get_list(payload, "items"))
    return bool(items) and all("organization" in item for item in items)


def parse_ror_payload(payload: object, *, retrieved: date | None = None) -> Batch:
    """Any ROR API response or dump document, decoded from JSON."""
    batch = Batch()
    if isinstance(payload, list):
        for index, item in enumerate(payload):
            if isinstance(item, Mapping):
                _add(batch, item, retrieved, f"#{index}")
            else:
                batch.rejected.append(Rejection("ror", f"#{index}", "not a JSON object"))
        return batch
    if not isinstance(payload, Mapping):
        batch.rejected.append(Rejection("ror", "", "not a JSON object or list", excerpt(payload)))
        return batch
    if _is_matcher_response(payload):
        try:
            chosen = chosen_organization(payload, retrieved=retrieved)
        except RecordRejected as exc:
            batch.rejected.append(Rejection("ror", exc.ref, exc.reason, excerpt(payload)))
        else:
            batch.institutions.extend([chosen] if chosen else [])
        return batch
    if "items" in payload or "number_of_results" in payload:
        for index, item in enumerate(objects(get_list(payload, "items"))):
            _add(batch, item, retrieved, f"#{index}")
        return batch
    hits = get_obj(payload, "hits").get("hits")
    if isinstance(hits, list):  # ROR's Elasticsearch index documents
        for index, hit in enumerate(objects(hits)):
            _add(batch, get_obj(hit, "_source"), retrieved, f"#{index}")
        return batch
    if "errors" in payload and "id" not in payload:
        reason = f"ROR API error: {'; '.join(strings(get_list(payload, 'errors')))}"
        batch.rejected.append(Rejection("ror", "", reason, excerpt(payload)))
        return batch
    _add(batch, payload, retrieved, "")
    return batch
