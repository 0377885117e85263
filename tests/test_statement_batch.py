"""Read queries composed into one statement answer as they do alone (graph.batch)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from scholargraph.graph.batch import MOST_PARTS
from scholargraph.graph.db import Database
from scholargraph.graph.errors import DatabaseError
from scholargraph.queries import Query, load_all
from scholargraph.queries._compose import columns, composable, compose, split
from tests.conftest import watching

NAMES = Query(
    "test_batch.names",
    """
    UNWIND $names AS name
    RETURN name, size(name) AS length  // a comment with $not_a_param
    ORDER BY name
    """,
)
TEXT = Query("test_batch.text", "RETURN 'a $dollar, AS x' AS text, $n + 1 AS next")
NOTHING = Query("test_batch.nothing", "UNWIND [] AS x RETURN x")
FAILS = Query("test_batch.fails", "RETURN toInteger($n) / 0 AS never")
SHOW = Query("test_batch.show", "SHOW INDEXES YIELD name RETURN name AS n ORDER BY n")


def test_columns_are_read_from_the_last_top_level_return() -> None:
    assert columns(NAMES.text) == ("name", "length")
    assert columns(TEXT.text) == ("text", "next")
    assert columns("MATCH (n) CALL (n) { RETURN 1 AS one } RETURN DISTINCT n.id AS id") == ("id",)
    assert columns("RETURN collect({a: 1, b: 2}) AS rows LIMIT 1") == ("rows",)
    # an expression without a name cannot be composed
    assert columns("MATCH (n) RETURN n.id") is None
    assert columns("SHOW INDEXES") is None
    assert not composable(SHOW)
    # writes never share a statement
    assert not any(composable(q) for q in load_all().values() if q.mode != "read")


async def test_every_registered_read_names_the_columns_neo4j_gives(db: Database) -> None:
    """Each composable query's columns, read from its text, are the keys of Neo4j's own
    EXPLAIN, and its composed form compiles."""
    reads = [query for query in load_all().values() if composable(query)]
    assert len(reads) > 100
    async with db.driver.session(database=db.database) as session:
        for query in reads:
            result = await session.run("EXPLAIN " + query.text)
            keys = tuple(result.keys())
            await result.consume()
            assert keys == columns(query.text), query.name
        for start in range(0, len(reads), MOST_PARTS):
            statement, _ = compose([(query, {}) for query in reads[start : start + MOST_PARTS]])
            await (await session.run("EXPLAIN " + statement.text)).consume()


async def test_a_composed_statement_answers_each_part_as_alone(db: Database) -> None:
    parts: list[tuple[Query, dict[str, Any]]] = [
        (NAMES, {"names": ["b", "a", "ccc"]}),
        (TEXT, {"n": 41}),
        (NOTHING, {}),
        (NAMES, {"names": []}),
    ]
    statement, params = compose(parts)
    assert statement.parts == (NAMES.name, TEXT.name, NOTHING.name, NAMES.name)
    [record] = await db.run(statement, params)
    composed = split([query for query, _ in parts], record)
    alone = [await db.run(query, bound) for query, bound in parts]
    assert composed == alone
    assert composed[0] == [
        {"name": "a", "length": 1},
        {"name": "b", "length": 1},
        {"name": "ccc", "length": 3},
    ]
    assert composed[1] == [{"text": "a $dollar, AS x", "next": 42}]


async def test_reads_asked_together_go_as_one_statement(db: Database) -> None:
    sent: list[Query] = []
    view = db.within(30).batched()
    view.on_query = lambda query, params: sent.append(query)

    async def later(query: Query, params: dict[str, Any], turns: int) -> list[dict[str, Any]]:
        for _ in range(turns):
            await asyncio.sleep(0)
        return await view.run(query, params)

    names, text, nothing = await asyncio.gather(
        later(NAMES, {"names": ["x"]}, 0),
        later(TEXT, {"n": 1}, 1),
        later(NOTHING, {}, 2),
    )
    assert names == [{"name": "x", "length": 1}]
    assert text == [{"text": "a $dollar, AS x", "next": 2}]
    assert nothing == []
    assert [query.parts for query in sent] == [(NAMES.name, NOTHING.name, TEXT.name)]
    # a lone read runs as itself; the next level is a statement of its own
    assert await view.run(TEXT, {"n": 2}) == [{"text": "a $dollar, AS x", "next": 3}]
    assert sent[-1] is TEXT


async def test_a_show_command_asked_with_reads_goes_alone(db: Database) -> None:
    sent: list[Query] = []
    view = db.within(30).batched()
    view.on_query = watching(db.on_query, sent.append)
    names, indexes = await asyncio.gather(view.run(NAMES, {"names": ["x"]}), view.run(SHOW, {}))
    assert names == [{"name": "x", "length": 1}]
    assert indexes and all(isinstance(row["n"], str) for row in indexes)
    assert SHOW in sent


async def test_a_failed_statement_fails_each_of_its_reads(db: Database) -> None:
    view = db.within(30).batched()
    answers = await asyncio.gather(
        view.run(NAMES, {"names": ["x"]}), view.run(FAILS, {"n": 1}), return_exceptions=True
    )
    assert all(isinstance(answer, DatabaseError) for answer in answers), answers
    # and the view goes on
    assert await view.run(NAMES, {"names": ["y"]}) == [{"name": "y", "length": 1}]


async def test_only_a_request_view_batches(db: Database) -> None:
    with pytest.raises(ValueError, match="within"):
        db.batched()
