"""The local server as a user meets it: start twice, stop, taken port, locked store, no Java."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError

from scholargraph.graph import localserver
from scholargraph.graph.config import Secret, Settings
from scholargraph.graph.errors import DataDirLocked, JavaNotFound, MavenUnavailable, PortInUse
from scholargraph.graph.localserver.process import STATE_FILE
from scholargraph.graph.memory import machine_memory, plan_memory, store_bytes


def _settings(base: Settings, data_dir: Path, port: int) -> Settings:
    return base.with_overrides(neo4j_data_dir=data_dir, neo4j_bolt_port=port)


def test_start_twice_then_stop_leaves_no_process(neo4j_settings: Settings, tmp_path: Path) -> None:
    settings = _settings(neo4j_settings, tmp_path / "data", localserver.free_port()).with_overrides(
        neo4j_password=Secret("another-pass-2")
    )
    info, started = localserver.start(settings)
    try:
        assert started
        again, started_again = localserver.start(settings)
        assert not started_again
        assert again.pid == info.pid
        state = localserver.status(settings.neo4j_data_dir)
        assert state.alive and state.bolt_answers
        assert state.rss_bytes is not None and state.rss_bytes > 50 * 2**20

        with GraphDatabase.driver(info.uri, auth=("neo4j", "another-pass-2")) as driver:
            assert driver.execute_query("RETURN 41 + 1 AS x").records[0]["x"] == 42
        with (
            GraphDatabase.driver(info.uri, auth=("neo4j", "wrong-password")) as driver,
            pytest.raises(AuthError),
        ):
            driver.verify_connectivity()

        # Data dir locked: a second server pointed at the same store on another port.
        saved = (settings.neo4j_data_dir / STATE_FILE).read_text()
        (settings.neo4j_data_dir / STATE_FILE).unlink()
        try:
            with pytest.raises(DataDirLocked, match="locked by another Neo4j"):
                localserver.start(settings.with_overrides(neo4j_bolt_port=localserver.free_port()))
        finally:
            (settings.neo4j_data_dir / STATE_FILE).write_text(saved)
    finally:
        stopped = localserver.stop(settings.neo4j_data_dir)
    assert stopped is not None and stopped.pid == info.pid
    assert (
        not Path(f"/proc/{info.pid}").exists()
        or b"Launcher" not in Path(f"/proc/{info.pid}/cmdline").read_bytes()
    )
    assert not localserver.status(settings.neo4j_data_dir).alive
    assert localserver.stop(settings.neo4j_data_dir) is None


def test_a_stopped_store_starts_again_with_its_data(
    neo4j_settings: Settings, tmp_path: Path
) -> None:
    settings = _settings(neo4j_settings, tmp_path / "data", localserver.free_port())
    auth = ("neo4j", settings.neo4j_password.reveal())
    for run in range(2):
        info, started = localserver.start(settings)
        try:
            assert started
            with GraphDatabase.driver(info.uri, auth=auth) as driver:
                if run == 0:
                    driver.execute_query("CREATE (:Marker {n: 1})")
                else:  # the same password is set again, and the data is there
                    found = driver.execute_query("MATCH (m:Marker) RETURN m.n AS n").records
                    assert [r["n"] for r in found] == [1]
        finally:
            localserver.stop(settings.neo4j_data_dir)


def test_port_taken_is_a_clear_error(neo4j_settings: Settings, tmp_path: Path) -> None:
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        with pytest.raises(PortInUse, match=f"port {port}.*--bolt-port"):
            localserver.start(_settings(neo4j_settings, tmp_path / "d", port))


def test_no_java_is_a_clear_error(
    neo4j_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(JavaNotFound, match="install a JDK"):
        localserver.start(_settings(neo4j_settings, tmp_path / "d", localserver.free_port()))


def test_no_maven_on_a_fresh_home_is_a_clear_error(
    neo4j_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    java = shutil.which("java")
    assert java is not None
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "java").symlink_to(java)
    monkeypatch.setenv("PATH", str(bin_dir))
    settings = _settings(neo4j_settings, tmp_path / "d", localserver.free_port())
    with pytest.raises(MavenUnavailable, match="install Maven"):
        localserver.start(settings.with_overrides(neo4j_home=tmp_path / "fresh-home"))


def test_status_of_a_dir_that_never_ran(tmp_path: Path) -> None:
    state = localserver.status(tmp_path)
    assert state.info is None and not state.alive


def test_state_file_records_where_the_server_is(neo4j_settings: Settings) -> None:
    state = json.loads((neo4j_settings.neo4j_data_dir / STATE_FILE).read_text())
    assert state["port"] == neo4j_settings.neo4j_bolt_port
    assert state["uri"] == neo4j_settings.local_uri
    assert os.path.samefile(state["data_dir"], neo4j_settings.neo4j_data_dir)


def test_a_server_started_without_sizes_gets_the_memory_plan(
    neo4j_settings: Settings, tmp_path: Path
) -> None:
    settings = _settings(neo4j_settings, tmp_path / "planned", localserver.free_port())
    settings = settings.with_overrides(neo4j_heap=None, neo4j_pagecache="64m")
    info, started = localserver.start(settings)
    try:
        assert started
        plan = plan_memory(machine_memory(), store_bytes(settings.neo4j_data_dir))
        assert (info.heap, info.pagecache) == (plan.heap_setting, "64m")
        command = Path(f"/proc/{info.pid}/cmdline").read_bytes().split(b"\0")
        assert f"-Xmx{plan.heap_setting}".encode() in command
        assert command[command.index(b"--pagecache") + 1] == b"64m"
        state = json.loads((settings.neo4j_data_dir / STATE_FILE).read_text())
        assert (state["heap"], state["pagecache"]) == (plan.heap_setting, "64m")
    finally:
        localserver.stop(settings.neo4j_data_dir)


def test_keep_alive_is_for_streamed_results_only(neo4j_settings: Settings) -> None:
    """With keep-alive on every request, the server hints drivers to time each read out, and
    the Python driver then wraps every socket read of a result's rows in a timer task."""
    auth = ("neo4j", neo4j_settings.neo4j_password.reveal())
    with GraphDatabase.driver(neo4j_settings.local_uri, auth=auth) as driver:
        records, _, _ = driver.execute_query(
            "SHOW SETTINGS YIELD name, value "
            "WHERE name = 'server.bolt.connection_keep_alive_for_requests' RETURN value"
        )
    assert [r["value"] for r in records] == ["STREAMING"]
