"""Every statement with a row type reads only keys of it, and the writer sends exactly those
keys: a statement can no longer read a key no row carries (``row.rank`` was read and never
sent, so every edge kept the last rule instead of the strongest)."""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.profiles import write_affiliations, write_authors
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import AffiliationRecord, InstitutionRef
from scholargraph.queries import Query, load_all
from scholargraph.queries import converge as cq
from scholargraph.queries import curation as kq
from scholargraph.queries import loads as lq
from scholargraph.queries import writer as wq
from tests.conftest import record_query
from tests.loaders.records_factory import author, paper

MODULES = (wq, lq, cq, kq)
ROW_TYPES: dict[Query, Any] = {q: t for m in MODULES for q, t in m.ROW_TYPES.items()}


def _fields(query: Query, variable: str) -> set[str]:
    return set(re.findall(rf"\b{variable}\.(\w+)", query.text))


def _is_typed_dict(value: object) -> bool:
    return isinstance(value, type) and typing.is_typeddict(value)


def _nested(row_type: type, field: str) -> type | None:
    """The row type of a list field (``categories: list[CategoryRow]``), if it has one."""
    hint = typing.get_type_hints(row_type)[field]
    for arg in (hint, *typing.get_args(hint)):
        for inner in (arg, *typing.get_args(arg)):
            if _is_typed_dict(inner):
                return inner  # type: ignore[no-any-return]
    return None


@pytest.mark.parametrize("query", sorted(ROW_TYPES, key=lambda q: q.name), ids=lambda q: q.name)
def test_a_statement_reads_only_keys_of_its_row_type(query: Query) -> None:
    row_type = ROW_TYPES[query]
    assert "UNWIND $rows AS row" in query.text
    if not _is_typed_dict(row_type):  # a list row, read by index
        read = {int(i) for i in re.findall(r"\brow\[(\d+)\]", query.text)}
        assert read == set(range(len(typing.get_args(row_type))))
        return
    keys = set(typing.get_type_hints(row_type))
    assert _fields(query, "row") <= keys, f"{query.name} reads keys its rows lack"
    for field, variable in re.findall(
        r"UNWIND (?:coalesce\()?row\.(\w+)[^A]* AS (\w+)", query.text
    ):
        inner = _nested(row_type, field)
        assert inner is not None, f"{query.name}: row.{field} has no row type"
        assert _fields(query, variable) <= set(typing.get_type_hints(inner))


def test_every_row_statement_of_the_writer_has_a_row_type() -> None:
    load_all()
    for module in MODULES:
        for query in vars(module).values():
            if isinstance(query, Query) and "UNWIND $rows AS row" in query.text:
                assert query in ROW_TYPES, f"{query.name} has no row type"


def _module_of(query: Query) -> ModuleType | None:
    return next((m for m in MODULES if query in m.ROW_TYPES), None)


async def test_the_writer_sends_exactly_the_keys_of_each_row_type(db: Database) -> None:
    sent: dict[str, list[Mapping[str, Any]]] = {}

    def capture(query: Query, params: Mapping[str, Any]) -> None:
        record_query(query, params)
        if query in ROW_TYPES:
            sent.setdefault(query.name, []).extend(params["rows"])

    db.on_query = capture
    writer = GraphWriter(db)
    nus = InstitutionRef(ror_id="01tgyzw49", openalex_id="I165932596", name="NUS")
    await writer.write_papers([paper("2301.08658", ["Ziming Liu", "Yang You"])])
    s2 = [author("Ziming Liu", "s2", s2="1"), author("Yang You", "s2", s2="2")]
    await writer.write_papers([paper("2301.08658", list(s2), source="s2", institutions={2: nus})])
    await write_authors(
        db, [author("Yang You", "openalex", openalex="A1", orcid="0000-0002-1825-0097")]
    )
    await write_affiliations(
        db, [AffiliationRecord(author("Yang You", "s2", s2="2"), nus, "openalex", 2020, 2024)]
    )
    for query, row_type in ROW_TYPES.items():
        if query.name not in sent or _module_of(query) is None:
            continue
        for row in sent[query.name]:
            if not _is_typed_dict(row_type):
                assert len(row) == len(typing.get_args(row_type))
                continue
            keys = set(typing.get_type_hints(row_type))
            assert set(row) == keys, f"{query.name} sent {sorted(set(row) ^ keys)}"
    written = {
        "writer.upsert_researchers",
        "writer.upsert_identifiers",
        "writer.upsert_papers",
        "writer.upsert_authorships",
        "writer.upsert_affiliations",
        "writer.upsert_institutions",
        "writer.create_coauthors",
        "loads.set_fingerprints",
    }
    assert written <= set(sent)
