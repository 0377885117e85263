"""A local Neo4j of a test's own, to kill: started under the test's temporary folder, on a
free port, with a password of its own, so killing it leaves the session's server alone."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scholargraph.graph import localserver
from scholargraph.graph.config import Secret, Settings


@contextmanager
def spare_neo4j_at(folder: Path) -> Iterator[Settings]:
    settings = Settings.from_mapping(os.environ).with_overrides(
        neo4j_uri=None,
        neo4j_data_dir=folder / "spare-neo4j",
        neo4j_bolt_port=localserver.free_port(),
        neo4j_password=Secret("spare-password-1"),
        neo4j_auth=True,
        neo4j_heap="1g",
        neo4j_pagecache="128m",
    )
    localserver.start(settings)
    try:
        yield settings
    finally:
        localserver.stop(settings.neo4j_data_dir)


def kill_neo4j(settings: Settings) -> None:
    """SIGKILL the spare server, and wait until it is gone."""
    info = localserver.read_state(settings.neo4j_data_dir)
    assert info is not None
    os.kill(info.pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while localserver.status(settings.neo4j_data_dir).alive and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not localserver.status(settings.neo4j_data_dir).alive
