"""The command line when Neo4j is not there, refuses the password, or dies in the middle of a
load: one line on stderr naming the server, no traceback, and an exit status for each."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scholargraph.cli.main import EXIT_AUTH, EXIT_UNAVAILABLE
from scholargraph.graph import localserver
from scholargraph.graph.config import Settings
from scholargraph.graph.loaders.demo import write_demo_files
from tests.neo4j_spare import kill_neo4j, spare_neo4j_at

ROOT = Path(__file__).resolve().parents[1]


def environment(home: Path, uri: str, **env: str) -> dict[str, str]:
    return {
        **os.environ,
        "NEO4J_URI": uri,
        "SCHOLARGRAPH_HOME": str(home),
        # a narrow terminal: a message that wrapped would show as several lines
        "COLUMNS": "60",
        **env,
    }


def scholargraph(home: Path, uri: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scholargraph", *args],
        cwd=ROOT,
        env=environment(home, uri, **env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def the_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    return errors[0]


def test_nothing_listening_is_one_line_and_its_own_status(tmp_path: Path) -> None:
    uri = f"bolt://127.0.0.1:{localserver.free_port()}"
    for args in (("db", "stats"), ("db", "init"), ("researchers", "why", "1000042")):
        done = scholargraph(tmp_path, uri, *args, NEO4J_PASSWORD="whatever")
        assert done.returncode == EXIT_UNAVAILABLE, done.stderr
        line = the_error_line(done.stderr)
        assert line.startswith(f"error: Neo4j at {uri} is not reachable (Connection refused)")
        assert "scholargraph neo4j start" in line


def test_a_refused_password_is_one_line_and_its_own_status(
    schema_ready: Settings, tmp_path: Path
) -> None:
    # a user of its own: failed logins of the session's user would lock it out for a while
    done = scholargraph(
        tmp_path, schema_ready.uri, "db", "stats", NEO4J_USER="nobody", NEO4J_PASSWORD="wrong"
    )
    assert done.returncode == EXIT_AUTH, done.stderr
    assert the_error_line(done.stderr) == (
        f"error: Neo4j at {schema_ready.uri} refused the password for user 'nobody': set "
        f"NEO4J_USER and NEO4J_PASSWORD to its credentials"
    )


@pytest.fixture
def spare_neo4j(tmp_path: Path) -> Iterator[Settings]:
    """A local Neo4j of this test's own, to kill."""
    with spare_neo4j_at(tmp_path) as settings:
        yield settings


def test_neo4j_killed_in_the_middle_of_a_load_is_one_line(
    spare_neo4j: Settings, tmp_path: Path
) -> None:
    files = write_demo_files(tmp_path / "corpus", papers=3000, seed=4) / "s2"
    home = tmp_path / "home"
    # small chunks: a checkpoint soon, and many chunks still to write when Neo4j dies
    args = ["load", "s2", "--files", str(files), "--chunk-size", "200", "--json"]
    load = subprocess.Popen(
        [sys.executable, "-m", "scholargraph", *args],
        cwd=ROOT,
        env=environment(home, spare_neo4j.uri, NEO4J_PASSWORD=spare_neo4j.neo4j_password.reveal()),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 600
        while not any((home / "loads").glob("*.checkpoint.json")):
            assert load.poll() is None, load.communicate()
            assert time.monotonic() < deadline, "the load made no checkpoint"
            time.sleep(0.05)
        kill_neo4j(spare_neo4j)
        # the driver retries a lost connection for 30 s before the load gives up
        _, stderr = load.communicate(timeout=180)
    finally:
        if load.poll() is None:
            load.kill()
            load.wait()
    assert load.returncode == EXIT_UNAVAILABLE, stderr
    line = the_error_line(stderr)
    assert line.startswith(f"error: Neo4j at {spare_neo4j.uri} is not reachable"), line
