"""Access to Neo4j: one async driver per process, handed around explicitly (no globals).

Every statement is a named :class:`queries.Query` run in a managed transaction
(``execute_read`` / ``execute_write``, so ``neo4j://`` routing sends reads to followers) with a
timeout. Driver errors become scholargraph errors here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import neo4j
from neo4j import AsyncGraphDatabase, AsyncManagedTransaction, unit_of_work
from neo4j.exceptions import ConstraintError, Neo4jError, ServiceUnavailable

from graph.config import Settings
from graph.errors import ConstraintViolation, DatabaseError
from queries import Query

QueryHook = Callable[[Query, Mapping[str, Any]], None]
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
        bound = dict(params or {})
        if self.on_query is not None:
            self.on_query(query, bound)

        @unit_of_work(timeout=timeout_s or self.timeout)
        async def work(tx: AsyncManagedTransaction) -> list[Row]:
            result = await tx.run(query.text, bound)
            return await result.data()

        try:
            async with self.driver.session(database=self.database) as session:
                if query.mode == "read":
                    return await session.execute_read(work)
                if query.mode == "auto":
                    result = await session.run(
                        neo4j.Query(query.text, timeout=timeout_s or self.timeout), bound
                    )
                    return await result.data()
                return await session.execute_write(work)
        except ConstraintError as error:
            raise ConstraintViolation(
                f"{query.name}: {error.message}. A node with that key already exists; look it "
                f"up by the key instead of creating it again"
            ) from error
        except Neo4jError as error:
            raise DatabaseError(f"{query.name} failed: {error.message}") from error

    async def run_in_transaction(
        self, steps: list[tuple[Query, Mapping[str, Any]]], *, timeout_s: float | None = None
    ) -> list[list[Row]]:
        """Run several write queries in one transaction: all of them land, or none."""
        for query, params in steps:
            if self.on_query is not None:
                self.on_query(query, params)

        @unit_of_work(timeout=timeout_s or self.timeout)
        async def work(tx: AsyncManagedTransaction) -> list[list[Row]]:
            out: list[list[Row]] = []
            for query, params in steps:
                result = await tx.run(query.text, dict(params))
                out.append(await result.data())
            return out

        try:
            async with self.driver.session(database=self.database) as session:
                return await session.execute_write(work)
        except ConstraintError as error:
            raise ConstraintViolation(f"{steps[0][0].name}…: {error.message}") from error
        except Neo4jError as error:
            names = ", ".join(q.name for q, _ in steps)
            raise DatabaseError(f"transaction ({names}) failed: {error.message}") from error
