"""Access to Neo4j: one async driver per process, handed around explicitly (no globals).

Every statement is a named :class:`queries.Query` run in a managed transaction
(``execute_read`` / ``execute_write``, so ``neo4j://`` routing sends reads to followers) with a
timeout. Driver errors become scholargraph errors here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import neo4j
from neo4j import AsyncGraphDatabase, AsyncManagedTransaction, unit_of_work
from neo4j.exceptions import ConstraintError, Neo4jError, ServiceUnavailable

from scholargraph.graph.config import Settings
from scholargraph.graph.errors import ConstraintViolation, DatabaseError
from scholargraph.queries import Query

QueryHook = Callable[[Query, Mapping[str, Any]], None]
T = TypeVar("T")
Row = dict[str, Any]


class Database:
    def __init__(
        self,
        driver: neo4j.AsyncDriver,
        *,
        database: str = "neo4j",
        timeout: float = 30.0,
        on_query: QueryHook | None = None,
    ) -> None:
        self.driver = driver
        self.database = database
        self.timeout = timeout
        self.on_query = on_query

    @classmethod
    def connect(cls, settings: Settings, **driver_options: Any) -> Database:
        driver_options.setdefault("notifications_min_severity", "OFF")
        driver = AsyncGraphDatabase.driver(settings.uri, auth=settings.auth, **driver_options)
        return cls(driver, database=settings.neo4j_database, timeout=settings.query_timeout)

    async def close(self) -> None:
        await self.driver.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def verify(self) -> None:
        try:
            await self.driver.verify_connectivity()
        except (ServiceUnavailable, OSError) as error:
            raise DatabaseError(
                f"Neo4j is not reachable: {error}. Start the local server with "
                f"`scholargraph neo4j start`, or check NEO4J_URI"
            ) from error

    async def run(
        self,
        query: Query,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
    ) -> list[Row]:
        """Run one named query in a managed transaction and return its rows as dicts."""
        rows, _ = await self.run_seen(query, params, timeout_s=timeout_s)
        return rows

    async def run_rows(self, query: Query, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Rows of a query that returns them collected as one list, ``RETURN collect(…) AS
        rows``: one record instead of thousands is far cheaper for the driver to decode."""
        result = await self.run(query, params)
        rows: list[Row] = result[0]["rows"] if result else []
        return rows

    async def run_seen(
        self,
        query: Query,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
    ) -> tuple[list[Row], frozenset[str]]:
        """:meth:`run`, and the bookmark of the graph state after it: two reads with the same
        bookmark saw the same committed graph (no write landed in between)."""
        bound = _bind(params)
        if self.on_query is not None:
            self.on_query(query, bound)

        @unit_of_work(timeout=timeout_s or self.timeout)
        async def work(tx: AsyncManagedTransaction) -> list[Row]:
            result = await tx.run(query.text, bound)
            return await _rows(query, result)

        try:
            async with self.driver.session(database=self.database) as session:
                if query.mode == "read":
                    rows = await session.execute_read(work)
                elif query.mode == "auto":
                    result = await session.run(
                        neo4j.Query(query.text, timeout=timeout_s or self.timeout), bound
                    )
                    rows = await _rows(query, result)
                else:
                    rows = await session.execute_write(work)
                # the session's own record of the last transaction: no round trip
                seen = (await session.last_bookmarks()).raw_values
        except ConstraintError as error:
            raise ConstraintViolation(
                f"{query.name}: {error.message}. A node with that key already exists; look it "
                f"up by the key instead of creating it again"
            ) from error
        except Neo4jError as error:
            raise DatabaseError(f"{query.name} failed: {error.message}") from error
        return rows, frozenset(seen)

    async def unit(
        self, work: Callable[[Tx], Awaitable[T]], *, timeout_s: float | None = None
    ) -> T:
        """Run ``work`` in one write transaction: everything it writes lands, or nothing does.

        The driver retries transient failures by calling ``work`` again from the start, so
        ``work`` must compute everything it writes inside the transaction.
        """

        @unit_of_work(timeout=timeout_s or self.timeout)
        async def body(tx: AsyncManagedTransaction) -> T:
            return await work(Tx(tx, self.on_query))

        try:
            async with self.driver.session(database=self.database) as session:
                return await session.execute_write(body)
        except ConstraintError as error:
            raise ConstraintViolation(f"{error.message}") from error
        except Neo4jError as error:
            raise DatabaseError(f"write transaction failed: {error.message}") from error


class Tx:
    """The queries of one unit of work, run in its transaction."""

    def __init__(self, tx: AsyncManagedTransaction, on_query: QueryHook | None) -> None:
        self._tx = tx
        self._on_query = on_query

    async def run(self, query: Query, params: Mapping[str, Any] | None = None) -> list[Row]:
        bound = _bind(params)
        if self._on_query is not None:
            self._on_query(query, bound)
        result = await self._tx.run(query.text, bound)
        return await _rows(query, result)


class _QuietList(list[Any]):
    """A list parameter with a short ``repr``. The driver formats each statement's
    parameters for its debug log before the log checks its level (neo4j 6.x), and the
    ``repr`` of a batch of thousands of rows costs about a third of packing it."""

    def __repr__(self) -> str:
        return f"<list of {len(self)}>"


def _bind(params: Mapping[str, Any] | None) -> dict[str, Any]:
    return {k: _QuietList(v) if isinstance(v, list) else v for k, v in (params or {}).items()}


_GRAPH_TYPES = (neo4j.graph.Node, neo4j.graph.Relationship, neo4j.graph.Path)


async def _rows(query: Query, result: neo4j.AsyncResult) -> list[Row]:
    """The records as dicts.

    Named queries return maps, lists and scalars, which the driver already decodes to dicts,
    lists and Python values; ``Result.data()`` would walk every value again looking for nodes
    to convert, which is about a third of a page's time in the driver.
    """
    keys = result.keys()
    rows = [dict(zip(keys, values, strict=True)) for values in await result.values()]
    if rows and any(isinstance(v, _GRAPH_TYPES) for v in rows[0].values()):
        raise DatabaseError(
            f"{query.name} returns a node, relationship or path: return a map projection"
        )
    return rows
