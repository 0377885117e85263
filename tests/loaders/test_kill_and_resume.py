"""A load killed half-way (SIGKILL, no clean-up) and started again ends with the same graph
as a load that was never interrupted."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import write_demo_files
from scholargraph.graph.stats import graph_stats
from scholargraph.queries.admin import CLEAR_DATA

ROOT = Path(__file__).resolve().parents[2]


def _env(settings: Settings, state: Path) -> dict[str, str]:
    return {
        **os.environ,
        "NEO4J_URI": settings.uri,
        "NEO4J_PASSWORD": settings.neo4j_password.reveal(),
        "SCHOLARGRAPH_HOME": str(state),
    }


def _command(files: Path) -> list[str]:
    return [sys.executable, "-m", "scholargraph", "load", "s2", "--files", str(files), "--json"]


def _load(settings: Settings, files: Path, state: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _command(files),
        cwd=ROOT,
        env=_env(settings, state),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def _kill_after_first_checkpoint(settings: Settings, files: Path, state: Path) -> None:
    victim = subprocess.Popen(
        _command(files),
        cwd=ROOT,
        env=_env(settings, state),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and not any((state / "loads").glob("*.checkpoint.json")):
        assert victim.poll() is None, "the load finished before it could be interrupted"
        time.sleep(0.05)
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=30)


async def test_killed_load_resumes_to_the_same_graph(
    db: Database, schema_ready: Settings, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path / "corpus", papers=3000, seed=4)
    files = folder / "s2"
    uninterrupted = await asyncio.to_thread(_load, schema_ready, files, tmp_path / "a")
    assert uninterrupted.returncode == 0, uninterrupted.stderr
    expected = await graph_stats(db)
    await db.run(CLEAR_DATA)

    state = tmp_path / "b"
    await asyncio.to_thread(_kill_after_first_checkpoint, schema_ready, files, state)
    partial = await graph_stats(db)
    assert partial["nodes"].get("Paper", 0) < expected["nodes"]["Paper"]

    resumed = await asyncio.to_thread(_load, schema_ready, files, state)
    assert resumed.returncode == 0, resumed.stderr
    assert '"resumed_from": 0' not in resumed.stdout
    assert await graph_stats(db) == expected
