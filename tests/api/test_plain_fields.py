"""Plain fields completed directly (:mod:`api.execution`) answer exactly as graphql-core does.

Each case runs the same document through a schema with the shortcut and one without it and
compares data and errors, including the cases the shortcut must hand back: ``None`` for a
non-null field, a value a scalar cannot serialise, a resolver that raises.
"""

from __future__ import annotations

import enum
from datetime import date
from typing import Any

import pytest
import strawberry
from graphql import GraphQLObjectType
from strawberry.extensions import FieldExtension
from strawberry.types import Info

from benchmarks.bench_api import NETWORK_TYPED, PAGE
from scholargraph.api import execution
from scholargraph.api.execution import PlainFieldExecution
from tests.api.conftest import Api
from tests.api.graphdata import CHENG, DEMMEL, YOU, ZHANG_LIU, ZIMING


@strawberry.enum
class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Upper(FieldExtension):
    def resolve(self, next_: Any, source: Any, info: Info, **kwargs: Any) -> Any:
        return str(next_(source, info, **kwargs)).upper()


@strawberry.type
class Item:
    name: str
    colour: Colour
    born: date | None
    tags: list[str]
    maybe_tags: list[str | None] | None
    must: str
    count: int

    @strawberry.field
    def label(self) -> str:
        return f"<{self.name}>"

    @strawberry.field
    def broken(self) -> str:
        raise ValueError(f"no label for {self.name}")

    @strawberry.field
    def asks_info(self, info: Info) -> str:
        return info.field_name

    @strawberry.field
    def with_argument(self, times: int = 2) -> str:
        return self.name * times

    @strawberry.field
    async def later(self) -> str:
        return self.name

    @strawberry.field(extensions=[Upper()])
    def shouted(self) -> str:
        return self.name


def _items() -> list[Item]:
    good = Item(
        name="a",
        colour=Colour.RED,
        born=date(2020, 1, 2),
        tags=["x", "y"],
        maybe_tags=["x", None],
        must="m",
        count=3,
    )
    bad: Any = Item(
        name="b",
        colour=Colour.BLUE,
        born=None,
        tags=["z"],
        maybe_tags=None,
        must=None,  # non-null, yet None: a field error that nulls the item
        count="many",  # not an Int: a field error
    )
    return [good, bad]


@strawberry.type
class Root:
    @strawberry.field
    def items(self) -> list[Item | None]:
        return _items()

    @strawberry.field
    def strict_items(self) -> list[Item]:
        return _items()

    @strawberry.field
    def gappy_items(self) -> list[Item | None] | None:
        return [_items()[0], None]

    @strawberry.field
    def strict_gappy_items(self) -> list[Item]:
        return [_items()[0], None]  # type: ignore[list-item]  # a None where none may be


def _schemas() -> tuple[strawberry.Schema, strawberry.Schema]:
    return strawberry.Schema(query=Root), strawberry.Schema(
        query=Root, execution_context_class=PlainFieldExecution
    )


DOCUMENTS = [
    "{ items { name colour born tags maybeTags label count } }",
    "{ items { name must } }",
    "{ strictItems { name must } }",
    "{ items { name broken } }",
    "{ items { n: name n2: name label asksInfo withArgument again: withArgument(times: 3) } }",
    "{ items { later shouted name } }",
    "{ items { __typename name } }",
    # lists of objects whose selected fields are all plain, completed row by row
    "{ strictItems { name label tags born } }",
    "{ items { a: name b: label colour } }",
    "{ gappyItems { name count } }",
    "{ strictGappyItems { name } }",
    "{ strictItems { name name } }",
    "{ strictItems { name ... on Item { label } } }",
    "{ strictItems { name label @include(if: false) } }",
    "{ strictItems { name withArgument(times: 1) } }",
]


@pytest.mark.parametrize("document", DOCUMENTS)
async def test_the_shortcut_answers_as_graphql_core_does(document: str) -> None:
    general, shortcut = _schemas()
    expected = await general.execute(document)
    found = await shortcut.execute(document)
    assert found.data == expected.data
    assert [(e.message, e.path) for e in found.errors or ()] == [
        (e.message, e.path) for e in expected.errors or ()
    ]


def test_only_fields_it_can_prove_plain_take_the_shortcut() -> None:
    _, shortcut = _schemas()
    schema = shortcut._schema
    item = schema.type_map["Item"]
    assert isinstance(item, GraphQLObjectType)
    plain = {name for name in item.fields if execution._plan(schema, item, name) is not None}
    assert plain == {
        "name",
        "colour",
        "born",
        "tags",
        "maybeTags",
        "must",
        "count",
        "label",
        "broken",
    }


async def test_the_shortcut_is_taken_for_plain_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    _, shortcut = _schemas()
    general_calls: list[str] = []
    base = execution.StrawberryGraphQLCoreExecutionContext.execute_field

    def counting(self: Any, parent: Any, source: Any, fields: Any, *rest: Any) -> Any:
        general_calls.append(fields[0].node.name.value)
        return base(self, parent, source, fields, *rest)

    monkeypatch.setattr(execution.StrawberryGraphQLCoreExecutionContext, "execute_field", counting)
    result = await shortcut.execute("{ items { name label tags asksInfo } }")
    assert result.errors is None
    # the list and the field asking for info go the general way; the plain ones do not
    assert general_calls == ["items", "asksInfo", "asksInfo"]
    general_calls.clear()
    result = await shortcut.execute("{ strictItems { name label tags } }")
    assert result.errors is None
    # a list of plain rows is completed without the general way at all
    assert general_calls == []


@pytest.mark.parametrize(
    ("document", "researchers", "shows"),
    [
        (PAGE, (ZIMING, YOU, CHENG, DEMMEL, ZHANG_LIU), b'"sameName"'),
        (NETWORK_TYPED, (ZIMING, YOU, CHENG), b'"jointPapers"'),
    ],
    ids=["researcher page", "typed network"],
)
async def test_a_request_is_the_same_either_way(
    api: Api,
    monkeypatch: pytest.MonkeyPatch,
    document: str,
    researchers: tuple[int, ...],
    shows: bytes,
) -> None:
    keys = [str(researcher) for researcher in researchers]
    shortcut = [(await api.post(document, {"id": key})).content for key in keys]
    monkeypatch.setattr(
        PlainFieldExecution,
        "execute_field",
        execution.StrawberryGraphQLCoreExecutionContext.execute_field,
    )
    general = [(await api.post(document, {"id": key})).content for key in keys]
    assert shortcut == general
    assert all(b'"errors"' not in body and shows in body for body in shortcut)
