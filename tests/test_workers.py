"""``scholargraph serve`` with two workers, as a real process on 127.0.0.1: both answer, the
coauthor projection is read once and mapped by both, a write is picked up after one rebuild,
and stopping the server removes the shared arrays."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import scholargraph
from scholargraph.cli.main import build_parser
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import ConfigError
from scholargraph.graph.repo.shared_projection import shared_root
from scholargraph.queries import Query

_WRITE = Query(
    "test.workers_graph",
    """
    UNWIND range(1, 30) AS i
    CREATE (x:Researcher {id: 900 + i, name: 'w' + i, slug: 'w' + i, paper_count: 1,
                          citation_count: 0})
    WITH collect(x) AS xs
    UNWIND range(1, size(xs) - 1) AS k
    WITH xs[0] AS hub, xs[k] AS other
    CREATE (hub)-[:COAUTHOR {joint_papers: 2, first_year: 2001, last_year: 2003}]->(other)
    """,
    mode="write",
)
_ADD = Query(
    "test.workers_add",
    """
    MATCH (hub:Researcher {id: 901})
    CREATE (hub)-[:COAUTHOR {joint_papers: 7, first_year: 2010, last_year: 2011}]->
           (:Researcher {id: 999, name: 'new', slug: 'new', paper_count: 1, citation_count: 0})
    """,
    mode="write",
)
NETWORK = '{ researcher(id: "901") { network(depth: 1, maxNodes: 100) { nodes { id } } } }'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def fresh(url: str, path: str, **options: Any) -> httpx.Response:
    """One request on a new connection, so that either worker may take it."""
    with httpx.Client(base_url=url, timeout=10) as client:
        return client.request("GET" if "json" not in options else "POST", path, **options)


def until(check: Any, timeout_s: float, what: str) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout_s} s: {what}")


def workers_seen(url: str, tries: int = 60) -> dict[int, dict[str, Any]]:
    """The projection each worker reports in /readyz, by process id."""
    seen: dict[int, dict[str, Any]] = {}
    for _ in range(tries):
        report = fresh(url, "/readyz").json()["projection"]
        seen[report["worker"]] = report
        if len(seen) == 2:
            break
    return seen


@pytest.fixture
def server(schema_ready: Settings, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    env = dict(
        os.environ,
        NEO4J_URI=schema_ready.uri,
        NEO4J_USER=schema_ready.neo4j_user,
        NEO4J_PASSWORD=schema_ready.neo4j_password.reveal(),
        SCHOLARGRAPH_HOME=str(tmp_path / "home"),
        SCHOLARGRAPH_PROJECTION_QUIET_S="0.5",
        # the checkout under test, whichever one the virtual environment was installed from
        PYTHONPATH=str(Path(scholargraph.__file__).resolve().parents[1]),
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scholargraph",
            "-q",
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
        ],
        env=env,
        cwd=tmp_path,
    )
    url = f"http://127.0.0.1:{port}"
    try:

        def ready() -> bool:
            try:
                return fresh(url, "/readyz").status_code == 200
            except httpx.TransportError:
                return False

        # a worker warms the embedding model and compiles kernels first: a minute on a busy machine
        until(ready, 150, "the server answers")
        yield url, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def test_two_workers_share_one_projection_built_once_and_rebuilt_once_after_a_write(
    db: Database, server: tuple[str, subprocess.Popen[bytes]]
) -> None:
    await db.run(_WRITE)
    url, process = server
    root = shared_root(str(process.pid))

    def both_map(version: int) -> dict[int, dict[str, Any]] | None:
        """Both workers' reports once each maps the store's current version, ``version`` or later.

        The version built at start, before the write, is current until a read sees it stale: a
        worker mapping it is not yet what the test waits for."""
        seen = workers_seen(url)
        mapping = all(
            r["state"] == "ready"
            and r["current"] is not None
            and r["mappedVersion"] == r["current"]["version"] >= version
            for r in seen.values()
        )
        return seen if len(seen) == 2 and mapping else None

    # The graph was written after the server started: whatever it read first is stale, and a
    # network read tells it so. Networks are walked until both workers map a version built
    # after the write.
    def network_ids() -> set[int]:
        data = fresh(url, "/graphql", json={"query": NETWORK}).json()["data"]
        return {int(n["id"]) for n in data["researcher"]["network"]["nodes"]}

    until(lambda: len(network_ids()) == 30 and both_map(1), 30, "both workers map a projection")
    seen = until(lambda: both_map(1), 10, "both workers report")
    current = next(iter(seen.values()))["current"]
    settled = current["version"]
    assert all(r["current"]["version"] == settled for r in seen.values())
    assert all(r["shared"] and r["ties"] == 29 for r in seen.values())
    # each version was read by one worker, the one the manifest names
    assert sum(r["readsByThisWorker"] for r in seen.values()) == settled
    assert current["builtBy"] in seen
    assert os.listdir(root).count(f"v{settled:06d}") == 1
    assert [p for p in os.listdir(root) if p.startswith("v")] == [f"v{settled:06d}"]

    await db.run(_ADD)
    until(lambda: 999 in network_ids(), 30, "a network shows the new tie")
    after = until(lambda: both_map(settled + 1), 30, "both workers map the rebuilt projection")
    rebuilt = next(iter(after.values()))["current"]
    assert rebuilt["version"] == settled + 1  # rebuilt once, not once per worker
    assert all(r["mappedVersion"] == rebuilt["version"] and r["ties"] == 30 for r in after.values())
    assert sum(r["readsByThisWorker"] for r in after.values()) == settled + 1
    assert [p for p in os.listdir(root) if p.startswith("v")] == [f"v{settled + 1:06d}"]

    process.send_signal(signal.SIGINT)
    assert process.wait(20) == 0
    assert not root.exists()


def test_workers_default_to_the_usable_cores_and_the_setting_or_option_overrides() -> None:
    assert Settings.from_mapping({}).workers == len(os.sched_getaffinity(0))
    assert Settings.from_mapping({"SCHOLARGRAPH_WORKERS": "3"}).workers == 3
    with pytest.raises(ConfigError, match="at least 1"):
        Settings.from_mapping({"SCHOLARGRAPH_WORKERS": "0"})
    assert build_parser().parse_args(["serve"]).workers is None  # then the setting decides
    assert build_parser().parse_args(["serve", "--workers", "2"]).workers == 2
