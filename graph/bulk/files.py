"""The import files: one CSV per node label set and per relationship type, header first.

A group's columns are the union of its entities' property keys, each with the one type its
values hold in the store (:func:`groups`); an entity without a key leaves the field empty.
Node ids are the store's internal ids, in one id space, so the relationships name their
ends by them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from scholargraph.graph.bulk.fields import (
    EMPTY_ARRAYS_KEY,
    EMPTY_ARRAYS_LABEL,
    column_type,
    encode,
    has_newline,
)
from scholargraph.graph.errors import BulkError
from scholargraph.graph.semantic.store import VECTOR_PROPERTIES
from scholargraph.queries.bulk import ColumnRow, NodeRow, RelationshipRow

# valueType() names of the stored scalar types, and their import column types
VALUE_TYPES = {
    "STRING": "string",
    "INTEGER": "long",
    "FLOAT": "double",
    "BOOLEAN": "boolean",
    "DATE": "date",
    "ZONED DATETIME": "datetime",
    "LOCAL DATETIME": "localdatetime",
}
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

Group = tuple[str, ...]
Columns = dict[str, str]


def import_type(key: str, value_type: str) -> str | None:
    """The column type of a valueType(); None for no value or an empty list."""
    base = value_type.removesuffix(" NOT NULL")
    if base in ("NULL", "LIST<NOTHING>"):
        return None
    if base.startswith("LIST<") and base.endswith(">"):
        inner = base[5:-1].removesuffix(" NOT NULL")
        if inner not in VALUE_TYPES:
            raise BulkError(f"{key}: the import files cannot carry a {value_type}")
        return "float[]" if key in VECTOR_PROPERTIES else f"{VALUE_TYPES[inner]}[]"
    if base not in VALUE_TYPES:
        raise BulkError(f"{key}: the import files cannot carry a {value_type}")
    return VALUE_TYPES[base]


def groups(rows: Iterable[ColumnRow]) -> dict[Group, Columns]:
    """Each group's columns, from the scan of its keys' value types."""
    found: dict[Group, Columns] = {}
    for row in rows:
        columns = found.setdefault(tuple(sorted(row["group"])), {})
        key = row["key"]
        kind = None if key is None else import_type(key, row["type"])
        if key is None or kind is None:
            continue
        if not _KEY.fullmatch(key):
            raise BulkError(f"a property key the import header cannot name: {key!r}")
        if columns.setdefault(key, kind) != kind:
            raise BulkError(
                f"{':'.join(row['group'])}.{key} holds both {columns[key]} and {kind} values"
            )
    return {group: dict(sorted(columns.items())) for group, columns in sorted(found.items())}


@dataclass(slots=True)
class _File:
    path: Path
    handle: IO[str]
    rows: int = 0
    multiline: bool = False


@dataclass(frozen=True, slots=True)
class ImportSet:
    """What ``neo4j-admin database import full`` is given."""

    nodes: tuple[Path, ...]
    relationships: tuple[tuple[str, Path], ...]  # (type, file)
    multiline: tuple[Path, ...]  # the files with a field that spans lines
    node_count: int
    relationship_count: int
    empty_arrays: int  # entities with an empty array, set after the import


@dataclass(slots=True)
class ImportFiles:
    """Writes pages of nodes and relationships into their groups' files."""

    folder: Path
    node_groups: Mapping[Group, Columns]
    relationship_groups: Mapping[Group, Columns]
    _files: dict[tuple[str, Group], _File] = field(default_factory=dict)
    _empty: int = 0

    def write_nodes(self, rows: Sequence[NodeRow]) -> None:
        for row in rows:
            group = tuple(sorted(row["labels"]))
            values, empty = self._values(self.node_groups, group, row["props"])
            labels = [*group, EMPTY_ARRAYS_LABEL] if empty else list(group)
            self._write("nodes", group, [str(row["id"]), *values, encode(labels)])

    def write_relationships(self, rows: Sequence[RelationshipRow]) -> None:
        for row in rows:
            group = (row["type"],)
            values, _ = self._values(self.relationship_groups, group, row["props"])
            self._write("relationships", group, [str(row["start"]), str(row["end"]), *values])

    def close(self) -> ImportSet:
        for file in self._files.values():
            file.handle.close()
        made = sorted(self._files.items())
        return ImportSet(
            nodes=tuple(f.path for (kind, _), f in made if kind == "nodes"),
            relationships=tuple(
                (group[0], f.path) for (kind, group), f in made if kind == "relationships"
            ),
            multiline=tuple(f.path for _, f in made if f.multiline),
            node_count=sum(f.rows for (kind, _), f in made if kind == "nodes"),
            relationship_count=sum(f.rows for (kind, _), f in made if kind == "relationships"),
            empty_arrays=self._empty,
        )

    def _values(
        self, known: Mapping[Group, Columns], group: Group, props: Mapping[str, Any]
    ) -> tuple[list[str], list[str]]:
        columns = known.get(group)
        if columns is None:
            raise BulkError(f"{':'.join(group)} appeared after the store's columns were read")
        empty = sorted(k for k, v in props.items() if v == [])
        for key, value in props.items():
            kind = column_type(key, value)
            if kind is not None and columns.get(key) != kind:
                raise BulkError(f"{':'.join(group)}.{key} changed while the store was read")
        if empty:
            self._empty += 1
        values = ["" if props.get(k) is None else encode(props[k]) for k in columns]
        return [*values, encode(empty) if empty else ""], empty

    def _write(self, kind: str, group: Group, fields: list[str]) -> None:
        file = self._files.get((kind, group))
        if file is None:
            file = self._open(kind, group)
        file.multiline = file.multiline or has_newline(fields)
        file.handle.write(",".join(fields) + "\n")
        file.rows += 1

    def _open(self, kind: str, group: Group) -> _File:
        known = self.node_groups if kind == "nodes" else self.relationship_groups
        path = self.folder / f"{kind}-{'-'.join(group)}.csv"
        handle = path.open("w", encoding="utf-8", newline="")
        ends = [":ID"] if kind == "nodes" else [":START_ID", ":END_ID"]
        typed = [f"{k}:{t}" for k, t in known[group].items()]
        tail = [":LABEL"] if kind == "nodes" else []
        header = [*ends, *typed, f"{EMPTY_ARRAYS_KEY}:string[]", *tail]
        handle.write(",".join(header) + "\n")
        file = _File(path, handle)
        self._files[(kind, group)] = file
        return file
