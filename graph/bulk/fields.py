"""A stored value as a field of ``neo4j-admin database import`` CSV, and its column type.

The import tool reads RFC 4180 CSV: a field is quoted with ``"`` and an inner quote doubled;
an empty field is no value. Arrays are one field, their elements joined by
:data:`ARRAY_DELIMITER` (the ASCII unit separator, which no stored text holds; a value that
does is refused rather than split). An empty array cannot be written as a field at all, so
its key goes in the entity's :data:`EMPTY_ARRAYS_KEY` list and is set after the import.

Every value the store holds has a column type here that reads back as the same value: text,
booleans, 64-bit integers and floats (a float's ``repr`` is its shortest exact decimal),
dates and zoned or local date-times, and arrays of them. The vector properties are float32
arrays in the store and are declared ``float[]``, so they stay float32.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from neo4j.time import Date, DateTime

from scholargraph.graph.errors import BulkError
from scholargraph.graph.semantic.store import VECTOR_PROPERTIES

ARRAY_DELIMITER = "\x1f"
# The list of an entity's keys that hold an empty array, set after the import.
EMPTY_ARRAYS_KEY = "_bulk_empty_arrays"
# A node with an empty array also carries this label, so the fix-up finds it by label scan.
EMPTY_ARRAYS_LABEL = "_BulkEmptyArrays"
RESERVED = frozenset({EMPTY_ARRAYS_KEY, EMPTY_ARRAYS_LABEL})


def scalar_type(value: Any) -> str:
    """The import column type of one non-list value."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    if isinstance(value, DateTime):
        return "localdatetime" if value.tzinfo is None else "datetime"
    if isinstance(value, Date):
        return "date"
    raise BulkError(f"a stored {type(value).__name__} has no import column type here")


def column_type(key: str, value: Any) -> str | None:
    """The column type of ``key = value``; None for an empty array (set after the import)."""
    if not isinstance(value, list):
        return scalar_type(value)
    if not value:
        return None
    if key in VECTOR_PROPERTIES:
        return "float[]"
    types = {scalar_type(item) for item in value}
    if len(types) != 1:
        raise BulkError(f"{key}: an array of mixed types {sorted(types)}")
    return f"{types.pop()}[]"


def encode(value: Any) -> str:
    """One field: a quoted text, or a bare number, boolean or temporal value."""
    if isinstance(value, list):
        return _quoted(_array(value))
    if isinstance(value, str):
        return _quoted(value)
    return _element(value)


def _array(values: list[Any]) -> str:
    """The elements joined; a store's arrays hold one type, so the first says which. Texts
    and floats, most of what arrays hold (names, ids, the vectors), are joined at once."""
    first = type(values[0]) if values else None
    if first is str:
        text = ARRAY_DELIMITER.join(values)
        if text.count(ARRAY_DELIMITER) == len(values) - 1:
            return text
    elif first is float:
        text = ARRAY_DELIMITER.join(map(repr, values))
        if "n" not in text:  # no "nan" or "inf", which are written as Java reads them
            return text
    return ARRAY_DELIMITER.join(_element(item) for item in values)


def _element(value: Any) -> str:
    if isinstance(value, str):
        if ARRAY_DELIMITER in value:
            raise BulkError(f"a text holds the array delimiter U+001F: {value[:60]!r}")
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, DateTime):
        return _datetime(value)
    if isinstance(value, Date):
        return str(value.iso_format())
    raise BulkError(f"a stored {type(value).__name__} has no import field here")


def _datetime(value: DateTime) -> str:
    """ISO 8601 with the offset, and the zone's name when the value has one: the driver
    gives a named zone as a pytz zone, an offset as a fixed one (zone None). UTC is the one
    both can be, and reads back the same either way."""
    text = str(value.iso_format())
    zone = getattr(value.tzinfo, "zone", None)
    return f"{text}[{zone}]" if zone and zone != "UTC" else text


def _float(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def shape(props: Mapping[str, Any]) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The typed columns an entity's properties need, and its keys holding an empty array."""
    columns: list[tuple[str, str]] = []
    empty: list[str] = []
    for key in sorted(props):
        if key in RESERVED:
            raise BulkError(f"the store already uses the reserved key {key!r}")
        kind = column_type(key, props[key])
        if kind is None:
            empty.append(key)
        else:
            columns.append((key, kind))
    return tuple(columns), tuple(empty)


def has_newline(fields: Sequence[str]) -> bool:
    return any("\n" in f or "\r" in f for f in fields)
