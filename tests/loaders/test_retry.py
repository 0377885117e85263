"""A batch the driver retries writes what it would have written the first time.

The driver calls a transaction function again from the start on a retryable error (a
deadlock, a leader switch). Here every write transaction of a load fails once at each of its
statements in turn — attempt *k* fails at statement *k*, each statement really running against
the database, the error raised just after it (``TransientError``) or just before it
(``SessionExpired``) — until an attempt gets through; the graph must equal a clean load's,
down to the researcher ids.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import pytest
from neo4j.exceptions import Neo4jError, SessionExpired, TransientError

from scholargraph.graph.canonical import canonical_dump, differences
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database, Row, Tx
from scholargraph.graph.loaders.profiles import write_authors
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import PaperRecord
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA
from tests.conftest import record_query
from tests.loaders.records_factory import author, paper

T = TypeVar("T")
HOLDERS = Query(
    "test.retry_holders",
    "MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper) "
    "RETURN p.key AS paper, a.position AS position, r.id AS id, r.name AS name "
    "ORDER BY paper, position",
)


class _FailingTx(Tx):
    """A transaction whose ``fail_at``-th statement fails once, before or after it runs."""

    def __init__(self, inner: Tx, fail_at: int, error: Callable[[], Exception], after: bool):
        self._inner, self._fail_at, self._error, self._after = inner, fail_at, error, after
        self.count = 0

    async def run(self, query: Query, params: Mapping[str, Any] | None = None) -> list[Row]:
        self.count += 1
        if self.count == self._fail_at and not self._after:
            raise self._error()
        rows = await self._inner.run(query, params)
        if self.count == self._fail_at and self._after:
            raise self._error()
        return rows


class FlakyDatabase(Database):
    """Every unit of work fails at its first statement, then at its second, … then passes."""

    error: Callable[[], Exception] = TransientError
    after = True
    failures = 0
    statements = 0  # of the attempts that got through

    async def unit(
        self, work: Callable[[Tx], Awaitable[T]], *, timeout_s: float | None = None
    ) -> T:
        attempt = 0

        async def flaky(tx: Tx) -> T:
            nonlocal attempt
            attempt += 1
            failing = _FailingTx(tx, attempt, self.error, self.after)
            try:
                result = await work(failing)
            except (Neo4jError, SessionExpired):
                self.failures += 1
                raise
            self.statements += failing.count
            return result

        return await super().unit(flaky, timeout_s=timeout_s)


def _batches() -> list[list[PaperRecord]]:
    ada = author("Ada Lovelace", "openalex", openalex="A1")
    charles = author("Charles Babbage", "openalex", openalex="A2")
    return [
        [
            paper("1843.00001", [ada, charles], source="openalex", year=1843),
            paper(
                "1936.00001", [author("Alan Turing", "openalex", openalex="A3")], source="openalex"
            ),
            paper(
                "1840.00001",
                [ada, author("Wei Zhang", "openalex", openalex="A9")],
                source="openalex",
            ),
        ],
        [
            paper(
                "1843.00001",
                [author("Ada Lovelace", "s2", s2="11"), author("Charles Babbage", "s2", s2="12")],
                source="s2",
                year=1843,
            )
        ],
        [
            paper("1843.00001", ["Ada Lovelace", "Charles Babbage"], year=1843),
            paper("1952.00001", ["Grace Hopper", "Edsger Dijkstra"], year=1952),
            paper("1840.00001", ["Ada Lovelace", "John Smith"]),
            paper("1950.00001", ["Alan Turing", "Grace Hopper"], year=1950),
        ],
    ]


async def _load(db: Database) -> None:
    writer = GraphWriter(db)
    batches = _batches()
    await writer.write_papers(batches[0])
    # An S2 profile on its own makes a second record of Ada, merged when her slot aligns.
    await write_authors(db, [author("Ada Lovelace", "s2", s2="11")])
    for batch in batches[1:]:
        await writer.write_papers(batch)


@pytest.mark.parametrize(
    ("error", "after"),
    [
        (lambda: TransientError("deadlock detected"), True),
        (lambda: SessionExpired("leader switched"), False),
    ],
    ids=["transient-after", "session-expired-before"],
)
async def test_a_load_retried_at_every_statement_equals_a_clean_load(
    db: Database, schema_ready: Settings, error: Callable[[], Exception], after: bool
) -> None:
    await _load(db)
    clean, clean_holders = await canonical_dump(db), await db.run(HOLDERS)
    names = {(h["paper"], h["position"]): h for h in clean_holders}
    assert names[("1952.00001", 1)]["id"] != names[("1843.00001", 1)]["id"]  # Grace is not Ada
    assert clean["counts"]["nodes"]["CurationEvent"] == 1  # the machine merge of Ada

    flaky = FlakyDatabase.connect(
        schema_ready, initial_retry_delay=0.001, retry_delay_multiplier=1.0
    )
    flaky.on_query, flaky.error, flaky.after = record_query, error, after
    try:
        await flaky.run(CLEAR_DATA)
        await _load(flaky)
        retried = await canonical_dump(flaky)
        assert differences(clean, retried) == []
        assert await flaky.run(HOLDERS) == clean_holders
        assert flaky.failures == flaky.statements > 40  # each statement failed once
    finally:
        await flaky.close()
