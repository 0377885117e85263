"""The fault matrix: a load hit by a fault, then run again, ends with the graph of a clean load.

Each row of :data:`FAULTS` runs a load of the same corpus through the command line, hits
it with one fault, recovers the way an operator would (run the load again), and leaves
the result on the spare server; the test compares that graph with a clean load's by
:func:`tests.canonical.canonical_dump`. The rows:

* kill -9 of the loader mid-load, then the same load again (it resumes);
* kill -9 of Neo4j mid-load (a throw-away second server, never the session's), Neo4j
  started again, then the load again;
* a load into a store holding another store's checkpoint: it must start over, not resume.

A row for "a retryable error injected at each statement" joins :data:`FAULTS` with the
writer's retry handling: a row is any ``async (Matrix) -> None`` that leaves its graph on
``matrix.spare``.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scholargraph.cli.load_cmd import EXIT_REJECTED
from scholargraph.graph import localserver
from scholargraph.graph.canonical import canonical_dump, differences
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import write_demo_files
from scholargraph.queries.admin import CLEAR_DATA
from tests.conftest import record_query

ROOT = Path(__file__).resolve().parents[2]
PAPERS, SEED, CHUNK = 200, 8, 60
FINISHED = (0, EXIT_REJECTED)  # a load that ran to its end, with or without rejections
LOAD_TIMEOUT_S = 600
WAIT_S = 300


@dataclass(frozen=True)
class Matrix:
    files: Path
    session: Settings  # the test session's server
    spare: Settings  # a throw-away server this module may kill
    state: Path  # SCHOLARGRAPH_HOME of the loads: their checkpoints


def _env(settings: Settings, state: Path) -> dict[str, str]:
    return {
        **os.environ,
        "NEO4J_URI": settings.uri,
        "NEO4J_PASSWORD": settings.neo4j_password.reveal(),
        "SCHOLARGRAPH_HOME": str(state),
        # The rows test faults, not speed: a busy machine must not time a batch out.
        "SCHOLARGRAPH_QUERY_TIMEOUT": "300",
    }


def _command(files: Path) -> list[str]:
    load = ["load", "s2", "--files", str(files), "--chunk-size", str(CHUNK), "--json"]
    return [sys.executable, "-m", "scholargraph", *load]


def load(settings: Settings, matrix: Matrix) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _command(matrix.files),
        cwd=ROOT,
        env=_env(settings, matrix.state),
        capture_output=True,
        text=True,
        timeout=LOAD_TIMEOUT_S,
        check=False,
    )


def _summary(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode in FINISHED, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)["s2"]
    return summary


def start_load(settings: Settings, matrix: Matrix) -> subprocess.Popen[str]:
    """A load in the background, once its first chunk is checkpointed."""
    loading = subprocess.Popen(
        _command(matrix.files),
        cwd=ROOT,
        env=_env(settings, matrix.state),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + WAIT_S
    while not any((matrix.state / "loads").glob("*.checkpoint.json")):
        if loading.poll() is not None:
            out, err = loading.communicate()
            pytest.fail(f"the load ended before its first checkpoint: {out}\n{err}")
        if time.monotonic() > deadline:
            loading.kill()
            loading.communicate()
            pytest.fail(f"no checkpoint within {WAIT_S} s")
        time.sleep(0.05)
    return loading


def _kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)


def kill_neo4j(settings: Settings) -> None:
    """SIGKILL the server, and wait until its wrapper has recorded the death (a start right
    after would otherwise read that exit code as its own)."""
    info = localserver.read_state(settings.neo4j_data_dir)
    assert info is not None
    os.kill(info.pid, signal.SIGKILL)
    exit_file = (settings.neo4j_data_dir / localserver.process.LOG_FILE).with_suffix(".exit")
    deadline = time.monotonic() + 60
    while not exit_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


async def _clear(settings: Settings) -> None:
    async with Database.connect(settings) as db:
        db.on_query = record_query
        await db.run(CLEAR_DATA)


async def dump_of(settings: Settings) -> dict[str, Any]:
    async with Database.connect(settings) as db:
        db.on_query = record_query
        return await canonical_dump(db)


# --- the rows ----------------------------------------------------------------------------


async def loader_killed(matrix: Matrix) -> None:
    await _clear(matrix.spare)
    loading = await asyncio.to_thread(start_load, matrix.spare, matrix)
    await asyncio.to_thread(_kill, loading)
    resumed = _summary(await asyncio.to_thread(load, matrix.spare, matrix))
    assert resumed["resumed_from"] > 0
    assert resumed["started_over"] == ""


async def neo4j_killed(matrix: Matrix) -> None:
    await _clear(matrix.spare)
    loading = await asyncio.to_thread(start_load, matrix.spare, matrix)
    await asyncio.to_thread(kill_neo4j, matrix.spare)
    _, err = await asyncio.to_thread(loading.communicate, timeout=WAIT_S)
    assert loading.returncode not in FINISHED, err
    await asyncio.to_thread(localserver.start, matrix.spare)
    resumed = _summary(await asyncio.to_thread(load, matrix.spare, matrix))
    assert resumed["started_over"] == ""  # the same store: its checkpoint holds


async def foreign_checkpoint(matrix: Matrix) -> None:
    await _clear(matrix.session)
    loading = await asyncio.to_thread(start_load, matrix.session, matrix)
    await asyncio.to_thread(_kill, loading)
    await _clear(matrix.spare)
    done = await asyncio.to_thread(load, matrix.spare, matrix)
    summary = _summary(done)
    assert summary["resumed_from"] == 0
    assert "was taken on database" in summary["started_over"]
    assert f"{summary['started_over']}: starting the load over" in " ".join(done.stderr.split())


Fault = Callable[[Matrix], Awaitable[None]]
FAULTS = [
    pytest.param(loader_killed, id="kill -9 of the loader"),
    pytest.param(neo4j_killed, id="kill -9 of Neo4j"),
    pytest.param(foreign_checkpoint, id="another store's checkpoint"),
]


# --- fixtures and the test ----------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = write_demo_files(tmp_path_factory.mktemp("corpus"), papers=PAPERS, seed=SEED)
    return folder / "s2"


@pytest.fixture(scope="module")
def spare(neo4j_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    data_dir = tmp_path_factory.mktemp("spare-neo4j")
    settings = neo4j_settings.with_overrides(
        neo4j_uri=None,
        neo4j_data_dir=data_dir,
        neo4j_bolt_port=localserver.free_port(),
        neo4j_heap="512m",
        neo4j_pagecache="64m",
        neo4j_start_timeout=max(neo4j_settings.neo4j_start_timeout, 300.0),
    )
    localserver.start(settings)
    try:
        yield settings
    finally:
        localserver.stop(data_dir)


@pytest.fixture(scope="module")
async def clean(
    schema_ready: Settings, corpus: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """The canonical dump of the corpus loaded once, with no fault."""
    matrix = Matrix(corpus, schema_ready, schema_ready, tmp_path_factory.mktemp("clean"))
    await _clear(schema_ready)
    done = await asyncio.to_thread(load, schema_ready, matrix)
    assert _summary(done)["papers"]["created"] > 0
    dump = await dump_of(schema_ready)
    assert dump["papers"] and dump["slots"] and dump["researchers"] and dump["coauthors"]
    return dump


@pytest.mark.parametrize("fault", FAULTS)
async def test_a_fault_then_a_rerun_gives_the_graph_of_a_clean_load(
    fault: Fault,
    clean: dict[str, Any],
    corpus: Path,
    schema_ready: Settings,
    spare: Settings,
    tmp_path: Path,
) -> None:
    await fault(Matrix(corpus, schema_ready, spare, tmp_path))
    after = await dump_of(spare)
    assert after == clean, differences(clean, after)
