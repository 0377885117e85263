"""Values as fields of the import tool's CSV, and the columns a store's values need."""

from __future__ import annotations

import pytest
import pytz
from neo4j.time import Date, DateTime

from scholargraph.graph.bulk.fields import (
    ARRAY_DELIMITER,
    EMPTY_ARRAYS_KEY,
    column_type,
    encode,
    shape,
)
from scholargraph.graph.bulk.files import groups, import_type
from scholargraph.graph.errors import BulkError


def test_text_is_quoted_with_inner_quotes_doubled() -> None:
    assert encode('Ann "Q" Lee, Jr.') == '"Ann ""Q"" Lee, Jr."'
    assert encode("") == '""'  # an empty text, where an empty field is no value
    assert encode("line one\nline two") == '"line one\nline two"'


def test_numbers_booleans_and_dates_are_bare_and_exact() -> None:
    assert encode(0.1) == "0.1"
    assert float(encode(1 / 3)) == 1 / 3
    assert encode(float("nan")) == "NaN"
    assert encode(float("-inf")) == "-Infinity"
    assert encode(2**62) == str(2**62)
    assert encode(True) == "true"
    assert encode(Date(2024, 2, 29)) == "2024-02-29"


def test_a_datetime_keeps_its_named_zone_or_its_offset() -> None:
    # as the driver gives them: a named zone from pytz, an offset as a fixed one
    utc = DateTime(2026, 3, 1, 11, 0, 0, tzinfo=pytz.UTC)
    zoned = utc.astimezone(pytz.timezone("Europe/Berlin"))
    assert encode(zoned) == "2026-03-01T12:00:00.000000000+01:00[Europe/Berlin]"
    assert encode(utc.astimezone(pytz.FixedOffset(330))) == "2026-03-01T16:30:00.000000000+05:30"
    assert encode(utc) == "2026-03-01T11:00:00.000000000+00:00"
    assert column_type("at", zoned) == "datetime"
    assert column_type("at", DateTime(2026, 3, 1, 12, 0, 0)) == "localdatetime"


def test_an_array_is_one_field_joined_by_the_unit_separator() -> None:
    assert encode(["a;b", 'c"d']) == f'"a;b{ARRAY_DELIMITER}c""d"'
    assert column_type("names", ["a"]) == "string[]"
    assert column_type("years", [2020, 2021]) == "long[]"


def test_arrays_of_floats_write_what_java_reads_for_every_float() -> None:
    assert encode([0.5, 1e-05, -2.0]) == f'"0.5{ARRAY_DELIMITER}1e-05{ARRAY_DELIMITER}-2.0"'
    assert encode([0.5, float("nan"), float("inf")]) == (
        f'"0.5{ARRAY_DELIMITER}NaN{ARRAY_DELIMITER}Infinity"'
    )


def test_a_text_holding_the_array_delimiter_is_refused_not_split() -> None:
    with pytest.raises(BulkError, match="array delimiter"):
        encode(["x", f"a{ARRAY_DELIMITER}b"])


def test_the_vector_properties_are_float32_arrays() -> None:
    assert column_type("embedding", [0.5, 0.25]) == "float[]"
    assert column_type("topic", [0.5]) == "float[]"
    assert column_type("weights", [0.5]) == "double[]"
    assert import_type("embedding", "LIST<FLOAT NOT NULL> NOT NULL") == "float[]"


def test_empty_arrays_are_set_after_the_import_not_written() -> None:
    columns, empty = shape({"name": "x", "dblp": [], "alt_names": ["y"]})
    assert columns == (("alt_names", "string[]"), ("name", "string"))
    assert empty == ("dblp",)
    with pytest.raises(BulkError, match="reserved"):
        shape({EMPTY_ARRAYS_KEY: ["dblp"]})


def test_value_types_of_the_store_map_to_columns() -> None:
    assert import_type("n", "INTEGER NOT NULL") == "long"
    assert import_type("at", "ZONED DATETIME NOT NULL") == "datetime"
    assert import_type("ids", "LIST<STRING NOT NULL> NOT NULL") == "string[]"
    assert import_type("ids", "LIST<NOTHING> NOT NULL") is None
    with pytest.raises(BulkError, match="cannot carry"):
        import_type("where", "POINT NOT NULL")


def test_a_group_whose_key_holds_two_types_is_refused() -> None:
    rows = [
        {"group": ["Paper"], "key": "year", "type": "INTEGER NOT NULL"},
        {"group": ["Paper"], "key": "year", "type": "STRING NOT NULL"},
    ]
    with pytest.raises(BulkError, match="both long and string"):
        groups(rows)  # type: ignore[arg-type]


def test_groups_take_the_union_of_their_keys_and_keep_propertyless_ones() -> None:
    rows = [
        {"group": ["Researcher"], "key": "name", "type": "STRING NOT NULL"},
        {"group": ["Researcher"], "key": "orcid", "type": "STRING NOT NULL"},
        {"group": ["Researcher"], "key": "dblp", "type": "LIST<NOTHING> NOT NULL"},
        {"group": ["Marker"], "key": None, "type": "NULL"},
    ]
    assert groups(rows) == {  # type: ignore[arg-type]
        ("Marker",): {},
        ("Researcher",): {"name": "string", "orcid": "string"},
    }
