"""The researcher-network page in Debian's Chromium, against a real server on a small graph.

The page is built from ``web/`` with esbuild into a temporary folder (so the test runs the
sources as they are), served by uvicorn with the app over the test database, and driven by
``page.spec.mjs`` with playwright-core; screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import threading
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

import pytest
import uvicorn

from scholargraph.api.app import create_app
from scholargraph.graph import localserver
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from tests.api.graphdata import (
    AUTHORSHIPS,
    BULUC,
    DEMMEL,
    GILBERT,
    HSIEH,
    KEUTZER,
    PAPERS,
    RESEARCHERS,
    YOU,
    ZIMING,
    ZIMING_MIT,
    ZIMING_ORCID,
    ZIMING_PKU,
    ZIMING_TJU,
    write_graph,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
SPEC = Path(__file__).with_name("page.spec.mjs")
NAMES = {row["id"]: row["name"] for row in RESEARCHERS}


def coauthors(researcher: int, max_authors: int | None = None) -> set[int]:
    """Everyone sharing a paper with ``researcher`` (with at most ``max_authors`` authors)."""
    sizes = {p["key"]: p["n_authors"] for p in PAPERS}
    papers = {
        paper
        for who, paper, *_ in AUTHORSHIPS
        if who == researcher and (max_authors is None or sizes[paper] <= max_authors)
    }
    return {who for who, paper, *_ in AUTHORSHIPS if paper in papers}


def person(researcher: int) -> dict[str, str]:
    return {"id": str(researcher), "name": NAMES[researcher]}


def ids(researchers: Iterable[int]) -> list[str]:
    return sorted(str(r) for r in researchers)


def expectations() -> dict[str, object]:
    return {
        "you": person(YOU),
        "hsieh": person(HSIEH),
        "demmel": person(DEMMEL),
        "keutzer": person(KEUTZER),
        "gilbert": person(GILBERT),
        "ziming": {**person(ZIMING), "orcid": ZIMING_ORCID},
        "youNetwork": ids(coauthors(YOU)),
        "smallPaperNetwork": ids(coauthors(YOU, max_authors=3)),
        "throughDemmel": [str(r) for r in (YOU, DEMMEL, BULUC, GILBERT)],
        "throughHsieh": [str(r) for r in (YOU, HSIEH, KEUTZER, GILBERT)],
        "sameNameRecords": ids([ZIMING_MIT, ZIMING_PKU, ZIMING_TJU]),
    }


def require(condition: bool, what: str) -> None:
    if not condition:
        pytest.fail(f"{what}; `make install` sets it up")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require(shutil.which("node") is not None, "node is not on PATH")
    require((ROOT / "node_modules" / "sigma").is_dir(), "the Node packages are not installed")
    out = tmp_path_factory.mktemp("web-dist")
    built = subprocess.run(
        ["node", str(ROOT / "web" / "build.mjs"), str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    assert (out / "index.html").is_file() and (out / "explorer.js").is_file()
    return out


@pytest.fixture
async def served(db: Database, schema_ready: Settings, bundle: Path) -> AsyncIterator[str]:
    await write_graph(db)
    port = localserver.free_port()
    config = uvicorn.Config(
        create_app(schema_ready, web_dist=bundle),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="none",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="explorer-server", daemon=True)
    thread.start()
    for _ in range(200):
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
    for old in ARTIFACTS.glob("explorer-*.png"):
        old.unlink()
    return ARTIFACTS


def assert_screenshots(folder: Path) -> None:
    for name in ("network", "path", "same-name", "year", "2000"):
        shot = folder / f"explorer-{name}.png"
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{shot} is not a PNG"


async def test_the_explorer_page_in_chromium(served: str, artifacts: Path) -> None:
    env = {
        **os.environ,
        "EXPLORER_URL": served,
        "ARTIFACTS_DIR": str(artifacts),
        "EXPLORER_EXPECT": json.dumps(expectations()),
    }
    process = await asyncio.create_subprocess_exec(
        "node",
        str(SPEC),
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=240)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    report = out.decode() + err.decode()
    assert process.returncode == 0, report
    assert "every step passed" in out.decode(), report
    assert_screenshots(artifacts)
