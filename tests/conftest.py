"""The test session starts its own Neo4j (real, from the Maven Central jars) on a free port
with a throw-away data dir, and stops it at the end. Every query that runs is recorded so the
session can say which named queries no test exercised.

The tests marked ``shared`` read the recorded source data in ``../shared/data``. They are
selected when that folder exists and deselected (never skipped) when it does not, which the
header of every run says; under CI (``CI=true``) a missing folder is an error, so the group can
never silently stop running.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from scholargraph.graph import localserver
from scholargraph.graph.config import Secret, Settings
from scholargraph.graph.db import Database, QueryHook
from scholargraph.graph.schema.install import install_schema
from scholargraph.queries import Query
from tests.slow_transactions import TransactionWatch

SHARED_DATA = Path(
    os.environ.get("SCHOLARGRAPH_SHARED_DATA")
    or Path(__file__).resolve().parents[1].parent / "shared" / "data"
)
EXECUTED: set[str] = set()
SHARED_DESELECTED: list[pytest.Item] = []
PACKAGE_QUERIES: set[str] = set()
WATCHES: list[TransactionWatch] = []


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def pytest_configure(config: pytest.Config) -> None:
    from scholargraph.queries import load_all

    # the package's own queries, before test modules add theirs
    PACKAGE_QUERIES.update(load_all())
    if _in_ci() and not SHARED_DATA.is_dir():
        raise pytest.UsageError(
            f"CI=true but {SHARED_DATA} is missing: the 'shared' tests must run in CI "
            "(set SCHOLARGRAPH_SHARED_DATA to the recorded source data)"
        )


def pytest_report_header(config: pytest.Config) -> str:
    if SHARED_DATA.is_dir():
        return f"shared data: {SHARED_DATA} found, the 'shared' group is selected"
    return (
        f"shared data: {SHARED_DATA} not found, the 'shared' group is deselected "
        "(it needs the recorded source data; set SCHOLARGRAPH_SHARED_DATA to run it)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if SHARED_DATA.is_dir():
        return
    kept = [item for item in items if item.get_closest_marker("shared") is None]
    SHARED_DESELECTED[:] = [item for item in items if item.get_closest_marker("shared")]
    if SHARED_DESELECTED:
        config.hook.pytest_deselected(items=SHARED_DESELECTED)
        items[:] = kept


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for watch in WATCHES:
        for line in watch.report():
            terminalreporter.write_line(f"long transaction on the test server: {line}")
    if SHARED_DESELECTED:
        terminalreporter.write_line(
            f"{len(SHARED_DESELECTED)} 'shared' tests deselected: {SHARED_DATA} not found"
        )


def record_query(query: Query, params: Mapping[str, Any]) -> None:
    EXECUTED.update(query.parts or (query.name,))


def watching(hook: QueryHook | None, sink: Callable[[Query], None]) -> QueryHook:
    """A query hook that tells ``sink`` of each statement and passes it on to ``hook``, so
    that the session's record of the queries run stays on while a test watches."""

    def watch(query: Query, params: Mapping[str, Any]) -> None:
        sink(query)
        if hook is not None:
            hook(query, params)

    return watch


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(
            f"{SHARED_DATA} is missing: the 'shared' tests need the recorded source data; "
            "deselect them with -m 'not shared'"
        )
    return SHARED_DATA


@pytest.fixture(scope="session")
def neo4j_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    external = os.environ.get("SCHOLARGRAPH_TEST_NEO4J_URI")
    if external:
        # Only ever a server the caller dedicates to tests: the suite clears it between tests.
        with _watched(Settings.from_mapping(dict(os.environ, NEO4J_URI=external))) as settings:
            yield settings
        return
    data_dir = tmp_path_factory.mktemp("neo4j-data")
    settings = Settings.from_mapping(os.environ).with_overrides(
        neo4j_uri=None,
        neo4j_data_dir=data_dir,
        neo4j_bolt_port=localserver.free_port(),
        neo4j_password=Secret("test-password-1"),
        neo4j_auth=True,
        neo4j_heap=os.environ.get("SCHOLARGRAPH_TEST_NEO4J_HEAP", "1g"),
        neo4j_pagecache="256m",
    )
    localserver.start(settings)
    try:
        with _watched(settings):
            yield settings
    finally:
        localserver.stop(data_dir)


@contextmanager
def _watched(settings: Settings) -> Iterator[Settings]:
    watch = TransactionWatch(settings)
    WATCHES.append(watch)
    watch.start()
    try:
        yield settings
    finally:
        watch.stop()


@pytest.fixture(scope="session")
async def schema_ready(neo4j_settings: Settings) -> Settings:
    async with Database.connect(neo4j_settings) as db:
        db.on_query = record_query
        await install_schema(neo4j_settings, db)
    return neo4j_settings


@pytest.fixture
async def db(schema_ready: Settings) -> AsyncIterator[Database]:
    """A database emptied of everything but the taxonomy before the test."""
    from scholargraph.queries.admin import CLEAR_DATA

    database = Database.connect(schema_ready)
    database.on_query = record_query
    # A test before may have left a large graph (the 10k demo load): emptying it takes longer
    # than a query is otherwise allowed.
    await database.run(CLEAR_DATA, timeout_s=600)
    try:
        yield database
    finally:
        await database.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from scholargraph.queries import load_all

    config = session.config
    root = Path(config.rootpath).resolve()
    suite_roots = {root, root / "tests", root / "scholargraph" / "graph", root / "graph"}
    whole_suite = (
        not config.option.keyword
        and not config.option.markexpr
        and all(Path(arg).resolve() in suite_roots for arg in config.args)
    )
    if not whole_suite or exitstatus != 0 or config.option.collectonly:
        return
    # a deselected group's modules still define their queries when collected
    required = PACKAGE_QUERIES if SHARED_DESELECTED else set(load_all())
    # the benchmarks' own queries (imported by a test of the peer benchmark) run in make bench
    required = {name for name in required if not name.startswith("bench.")}
    missing = sorted(required - EXECUTED)
    if missing:
        session.config.get_terminal_writer().line(
            f"named queries no test ran against the database: {', '.join(missing)}", red=True
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
