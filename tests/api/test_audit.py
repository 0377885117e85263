"""The graphql-http package's GraphQL-over-HTTP server audit, against a live uvicorn server."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from scholargraph.api.app import create_app
from scholargraph.graph import localserver
from scholargraph.graph.config import Settings

ROOT = Path(__file__).resolve().parents[2]
AUDIT = Path(__file__).with_name("audit.mjs")


@pytest.fixture
def server(schema_ready: Settings) -> Iterator[str]:
    port = localserver.free_port()
    config = uvicorn.Config(
        create_app(schema_ready), host="127.0.0.1", port=port, log_level="warning"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/graphql"
    finally:
        running.should_exit = True
        thread.join(timeout=30)


async def test_graphql_over_http_audit_passes_clean(server: str) -> None:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "graphql-http").is_dir():
        pytest.fail("the audit needs Node and `npm ci` at the repository root")
    completed = await asyncio.to_thread(
        subprocess.run,
        [node, str(AUDIT), server],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    results = json.loads(completed.stdout)
    assert len(results) > 50
    failures = [r for r in results if r["status"] != "ok"]
    assert failures == []
