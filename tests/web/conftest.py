"""What the browser tests share: the bundle built from ``web/`` into a temporary folder (so a
test runs the sources as they are), a real server (uvicorn, the app over the test database
with the small graph of ``tests/api/graphdata.py`` and one paper with TeX in its title) on
127.0.0.1, and a runner for the Node scripts that drive Debian's Chromium.

Every response carries the app's strict Content-Security-Policy (everything from 'self',
nothing inline), so any script, style, font or request that the policy refuses shows up as a
console error, which the scripts fail on.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import threading
from collections.abc import AsyncIterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from scholargraph.api.app import create_app
from scholargraph.graph import localserver
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.queries import Query
from tests.api.graphdata import YOU, write_graph

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
TEX_PAPER: dict[str, Any] = {
    "key": "2401.01234",
    "arxiv_id": "2401.01234",
    "doi": "10.48550/arxiv.2401.01234",
    "title": r"Sharp bounds for $x<1$ and $\alpha^2$ in sparse attention",
    "abstract": r"We show that $x<1$ implies $\alpha^2 \le 1$ for every sparse pattern.",
    "published": date(2024, 1, 2),
    "year": 2024,
    "primary_category": "cs.LG",
    "citation_count": 1,
    "n_authors": 1,
    "hyperauthored": False,
    "alphabetical": False,
    "versions": 1,
}
_TEX_PAPER = Query(
    "test_web.tex_paper",
    """
    MATCH (r:Researcher {id: $researcher}), (c:Category {code: $paper.primary_category})
    CREATE (p:Paper)
    SET p = $paper
    CREATE (p)-[:IN_CATEGORY {primary: true}]->(c)
    CREATE (r)-[:AUTHORED {position: 1, kind: 'solo', raw_name: r.name, source: 's2',
                           method: 's2_id', confidence: 1.0, pinned: false}]->(p)
    SET r.paper_count = r.paper_count + 1,
        r.citation_count = r.citation_count + p.citation_count
    """,
    "write",
)


def require(condition: bool, what: str) -> None:
    if not condition:
        pytest.fail(f"{what}; `make install` sets it up")


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require(shutil.which("node") is not None, "node is not on PATH")
    require((ROOT / "node_modules" / "sigma").is_dir(), "the Node packages are not installed")
    out = tmp_path_factory.mktemp("web-dist")
    built = subprocess.run(
        ["node", str(ROOT / "web" / "build.mjs"), str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    for asset in ("index.html", "explorer.js", "graphiql/graphiql.html", "graphiql/graphiql.js"):
        assert (out / asset).is_file(), asset
    return out


@pytest.fixture
async def served(db: Database, schema_ready: Settings, bundle: Path) -> AsyncIterator[str]:
    await write_graph(db)
    await db.run(_TEX_PAPER, {"researcher": YOU, "paper": TEX_PAPER})
    port = localserver.free_port()
    config = uvicorn.Config(
        # A browser test asserts behaviour, not speed, on a machine that may be busy.
        create_app(
            schema_ready.with_overrides(request_budget_s=120.0, query_timeout=120.0),
            web_dist=bundle,
        ),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="none",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="site-server", daemon=True)
    thread.start()
    for _ in range(400):
        if server.started or not thread.is_alive():
            break
        await asyncio.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.to_thread(thread.join, 15)


@pytest.fixture
def artifacts() -> Path:
    require(CHROMIUM.is_file(), f"{CHROMIUM} is missing (the Debian package chromium)")
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


async def run_node(script: Path, env: Mapping[str, str], limit_s: float = 240) -> str:
    """Run a Node script to its end (or kill it after `limit_s` seconds); its output, which must say
    every step passed."""
    process = await asyncio.create_subprocess_exec(
        "node",
        str(script),
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=limit_s)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    report = out.decode() + err.decode()
    assert process.returncode == 0, report
    assert "every step passed" in out.decode(), report
    return report


def spec_env(base: str, artifacts: Path, expected: Mapping[str, Any]) -> dict[str, str]:
    return {"SITE_URL": base, "ARTIFACTS_DIR": str(artifacts), "SITE_EXPECT": json.dumps(expected)}


def clear_screenshots(folder: Path, prefix: str) -> None:
    for old in folder.glob(f"{prefix}-*.png"):
        old.unlink()


def assert_screenshots(folder: Path, names: list[str]) -> None:
    for name in names:
        shot = folder / f"{name}.png"
        assert shot.is_file(), f"{shot} was not taken"
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{shot} is not a PNG"
