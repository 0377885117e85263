"""Access to Neo4j: one async driver per process, handed around explicitly (no globals).

Every statement is a named :class:`queries.Query` run in a managed transaction
(``execute_read`` / ``execute_write``, so ``neo4j://`` routing sends reads to followers) with a
timeout. Driver errors become scholargraph errors here (:func:`as_database_error`): a server
that does not answer or a connection lost is :class:`DatabaseUnavailable`, refused
credentials :class:`DatabaseAuthFailed`, a statement stopped at its timeout
:class:`QueryTimedOut`.

A connection is given up on after ``SCHOLARGRAPH_NEO4J_CONNECT_TIMEOUT`` seconds, and the
first statement connects before it runs, so a server that is not there is said at once. Then
the driver retries a transaction lost to a dropped connection for 30 s, which lets a load ride
out a restart of Neo4j; the API server connects with ``fail_fast``, retrying for half a
second, so a request to a Neo4j that is down is answered at once (and the next one tries
again).

Every session of one :class:`Database` (and of its per-request views) shares one bookmark
manager: on a cluster (``neo4j://`` to Aura or an Enterprise cluster) a read that follows a
write of the same process is sent with the write's bookmark, so the follower it lands on
waits until it has that write — a process reads its own writes wherever its reads go. On a
single server the bookmarks are already committed and cost nothing.

``on_query`` hears of each statement before it runs (with its parameters); ``observer``, once
it is done, its query's name, seconds and whether it failed, and of each unit of work's
commit as :data:`COMMIT`: the API counts statements with it (``api.metrics``), and nothing
here knows of what it does.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import neo4j
from neo4j import AsyncGraphDatabase, AsyncManagedTransaction, unit_of_work
from neo4j.exceptions import (
    AuthError,
    ConstraintError,
    IncompleteCommit,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)
from neo4j.exceptions import DatabaseUnavailable as Neo4jDatabaseUnavailable

from scholargraph.graph.batch import StatementBatch
from scholargraph.graph.config import Settings
from scholargraph.graph.errors import (
    ConstraintViolation,
    DatabaseAuthFailed,
    DatabaseError,
    DatabaseUnavailable,
    QueryTimedOut,
)
from scholargraph.queries import Query

QueryHook = Callable[[Query, Mapping[str, Any]], None]
# Told of every statement once it is done: the names of the named queries it carried (one, or
# the parts of a composed statement), its seconds, whether it failed.
StatementObserver = Callable[[tuple[str, ...], float, bool], None]
# The name a unit of work's commit is told by (from its work's end to the driver's answer).
COMMIT = "db.commit"
# What the driver raises when the server does not answer or a connection drops.
CONNECTION_ERRORS = (ServiceUnavailable, SessionExpired, OSError)
_TIMED_OUT = "Neo.ClientError.Transaction.TransactionTimedOut"
_ERRNO = re.compile(r"\[Errno (\d+)\]")
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
        uri: str = "",
        user: str | None = None,
        observer: StatementObserver | None = None,
    ) -> None:
        self.driver = driver
        self.database = database
        self.timeout = timeout
        self.on_query = on_query
        self.observer = observer
        self.uri = uri
        self.user = user
        self.budget_s: float | None = None
        self._deadline: float | None = None
        self._owns_driver = True
        # Connect once before the first statement: a server that is not there is then said
        # at once, not after the driver's retries (meant for connections lost mid-work).
        self._unverified = True
        self._batch: StatementBatch | None = None
        self.bookmarks = AsyncGraphDatabase.bookmark_manager()

    @classmethod
    def connect(
        cls, settings: Settings, *, fail_fast: bool = False, **driver_options: Any
    ) -> Database:
        driver_options.setdefault("notifications_min_severity", "OFF")
        driver_options.setdefault("connection_timeout", settings.neo4j_connect_timeout)
        # Taking a connection may include making one, so this is the longer of the two.
        driver_options.setdefault(
            "connection_acquisition_timeout", 2 * settings.neo4j_connect_timeout
        )
        if fail_fast:
            # Attempts at about 0, 0.2 and 0.6 s: enough to get past the dead connections a
            # restarted server leaves in the pool, short enough to answer at once when it is down.
            driver_options.setdefault("max_transaction_retry_time", 0.5)
            driver_options.setdefault("initial_retry_delay", 0.2)
        driver = AsyncGraphDatabase.driver(settings.uri, auth=settings.auth, **driver_options)
        db = cls(
            driver,
            database=settings.neo4j_database,
            timeout=settings.query_timeout,
            uri=settings.uri,
            user=settings.neo4j_user if settings.neo4j_auth else None,
        )
        db._unverified = not fail_fast
        return db

    def within(self, budget_s: float) -> Database:
        """This database for one request: its statements share one time budget of
        ``budget_s`` seconds from now.

        Each statement runs with what is left of the budget as its transaction timeout (Neo4j
        stops a transaction past its timeout, looking about every two seconds); once the
        budget is spent, a statement raises :class:`QueryTimedOut` without running. The view
        shares this database's driver and never closes it.
        """
        view = Database(
            self.driver,
            database=self.database,
            timeout=self.timeout,
            on_query=self.on_query,
            uri=self.uri,
            user=self.user,
            observer=self.observer,
        )
        view.bookmarks = self.bookmarks
        view.budget_s = budget_s
        view._deadline = time.monotonic() + budget_s
        view._owns_driver = False
        view._unverified = False
        return view

    def batched(self) -> Database:
        """This view with its reads sent a nesting level at a time, each level's read queries
        as one statement (:mod:`graph.batch`): for the loaders of one request, so only on a
        view (:meth:`within`), never on the database every request shares."""
        if self._owns_driver:
            raise ValueError("batched() is for one request's view of the database: within()")
        self._batch = StatementBatch(self._run_now)
        return self

    async def close(self) -> None:
        if self._owns_driver:
            await self.driver.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def verify(self) -> None:
        """Connect and authenticate, or raise :class:`DatabaseUnavailable` /
        :class:`DatabaseAuthFailed` saying what to do."""
        try:
            await self.driver.verify_connectivity()
        except (Neo4jError, *CONNECTION_ERRORS) as error:
            raise self._error(error, "connecting") from error
        self._unverified = False

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
        if self._batch is not None and self._batch.wants(query):
            return await self._batch.run(query, bound, timeout_s)
        return await self._run_now(query, bound, timeout_s)

    async def _run_now(
        self, query: Query, bound: dict[str, Any], timeout_s: float | None
    ) -> tuple[list[Row], frozenset[str]]:
        timeout = self._timeout(query.name, timeout_s)
        if self._unverified:
            await self.verify()
        if self.on_query is not None:
            self.on_query(query, bound)

        @unit_of_work(timeout=timeout)
        async def work(tx: AsyncManagedTransaction) -> list[Row]:
            result = await tx.run(query.text, bound)
            return await _rows(query, result)

        started = time.perf_counter()
        failed = True
        try:
            async with self._session() as session:
                if query.mode == "read":
                    rows = await session.execute_read(work)
                elif query.mode == "auto":
                    result = await session.run(neo4j.Query(query.text, timeout=timeout), bound)
                    rows = await _rows(query, result)
                else:
                    rows = await session.execute_write(work)
                # the session's own record of the last transaction: no round trip
                seen = (await session.last_bookmarks()).raw_values
            failed = False
        except ConstraintError as error:
            raise ConstraintViolation(
                f"{query.name}: {error.message}. A node with that key already exists; look it "
                f"up by the key instead of creating it again"
            ) from error
        except (Neo4jError, *CONNECTION_ERRORS) as error:
            raise self._error(error, query.name, timeout) from error
        finally:
            if self.observer is not None:
                self.observer(query.parts or (query.name,), time.perf_counter() - started, failed)
        return rows, frozenset(seen)

    async def unit(
        self, work: Callable[[Tx], Awaitable[T]], *, timeout_s: float | None = None
    ) -> T:
        """Run ``work`` in one write transaction: everything it writes lands, or nothing does.

        The driver retries transient failures by calling ``work`` again from the start, so
        ``work`` must compute everything it writes inside the transaction.
        """
        timeout = self._timeout("a write transaction", timeout_s)
        if self._unverified:
            await self.verify()

        ended: list[float] = []

        @unit_of_work(timeout=timeout)
        async def body(tx: AsyncManagedTransaction) -> T:
            done = await work(Tx(tx, self.on_query, self.observer))
            ended.append(time.perf_counter())
            return done

        try:
            async with self._session() as session:
                result = await session.execute_write(body)
            if self.observer is not None:
                self.observer((COMMIT,), time.perf_counter() - ended[-1], False)
            return result
        except ConstraintError as error:
            raise ConstraintViolation(f"{error.message}") from error
        except (Neo4jError, *CONNECTION_ERRORS) as error:
            raise self._error(error, "a write transaction", timeout) from error

    def _session(self) -> neo4j.AsyncSession:
        return self.driver.session(database=self.database, bookmark_manager=self.bookmarks)

    def _timeout(self, what: str, timeout_s: float | None) -> float:
        timeout = timeout_s or self.timeout
        if self._deadline is None:
            return timeout
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise QueryTimedOut(
                f"{what} did not run: the request's {self.budget_s:g} s time budget in the "
                f"database is spent; ask for less"
            )
        return min(timeout, left)

    def _error(self, error: Exception, what: str, timeout: float | None = None) -> DatabaseError:
        limit = None
        if timeout is not None:
            limit = f"its {timeout:g} s timeout"
            if timeout == self.timeout:
                limit += " (SCHOLARGRAPH_QUERY_TIMEOUT)"
            elif self.budget_s is not None and timeout < self.timeout:
                limit = f"the request's {self.budget_s:g} s time budget"
        translated = as_database_error(error, self.uri, self.user, what=what, limit=limit)
        if translated is not None:
            return translated
        message = error.message if isinstance(error, Neo4jError) else str(error)
        return DatabaseError(f"{what} failed: {message}")


class Tx:
    """The queries of one unit of work, run in its transaction."""

    def __init__(
        self,
        tx: AsyncManagedTransaction,
        on_query: QueryHook | None,
        observer: StatementObserver | None = None,
    ) -> None:
        self._tx = tx
        self._on_query = on_query
        self._observer = observer

    async def run(self, query: Query, params: Mapping[str, Any] | None = None) -> list[Row]:
        bound = _bind(params)
        if self._on_query is not None:
            self._on_query(query, bound)
        started = time.perf_counter()
        failed = True
        try:
            result = await self._tx.run(query.text, bound)
            rows = await _rows(query, result)
            failed = False
        finally:
            if self._observer is not None:
                self._observer(query.parts or (query.name,), time.perf_counter() - started, failed)
        return rows


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


def as_database_error(
    error: BaseException,
    uri: str,
    user: str | None,
    *,
    what: str = "a statement",
    limit: str | None = None,
) -> DatabaseError | None:
    """The scholargraph error for a driver error that says Neo4j is unreachable, refused the
    credentials or stopped a statement at its timeout; None for any other error.

    Each message is one line that names the server and what to do.
    """
    if isinstance(error, AuthError):
        who = f"the password for user {user!r}" if user else "a connection without credentials"
        return DatabaseAuthFailed(
            f"Neo4j at {uri} refused {who}: set NEO4J_USER and NEO4J_PASSWORD to its credentials"
        )
    if isinstance(error, IncompleteCommit):
        return DatabaseUnavailable(
            f"Neo4j at {uri} is not reachable: the connection was lost while {what} committed, "
            f"so whether it landed is unknown; once Neo4j is back, run the command again (a "
            f"load resumes from its checkpoint, and loading the same input twice changes "
            f"nothing)"
        )
    if isinstance(error, (*CONNECTION_ERRORS, Neo4jDatabaseUnavailable)):
        return DatabaseUnavailable(
            f"Neo4j at {uri} is not reachable{_reason(error)}: start the local server with "
            f"`scholargraph neo4j start`, or check NEO4J_URI"
        )
    if isinstance(error, Neo4jError) and (error.code or "").startswith(_TIMED_OUT):
        return QueryTimedOut(f"Neo4j stopped {what} at {limit or 'its timeout'}; ask for less")
    return None


def _reason(error: BaseException) -> str:
    """Why a connection failed, in a few words (the driver's own message spans lines)."""
    found = _ERRNO.search(str(error))
    if found:
        return f" ({os.strerror(int(found.group(1)))})"
    if isinstance(error, SessionExpired):
        return " (the connection was lost)"
    if "timed out" in str(error).lower():
        return " (the connection timed out)"
    return ""
