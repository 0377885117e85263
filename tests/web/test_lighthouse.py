"""Lighthouse (npm ``lighthouse``, on Node 20, driving Debian's Chromium through
``CHROME_PATH`` with a new empty profile) scores a researcher, a paper and an institution
page at least 95 for SEO and for accessibility. Reports land in
``test-artifacts/lighthouse-*.json``; a failure names the audits that cost points."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import httpx
import pytest

from tests.api.graphdata import BERKELEY, YOU
from tests.web.conftest import ROOT, TEX_PAPER

pytestmark = pytest.mark.browser

LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME_FLAGS = (
    "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
    "--disable-background-networking --disable-component-update --disable-sync"
)
PAGES = {
    "researcher": f"/researchers/{YOU}",
    "paper": f"/papers/{TEX_PAPER['key']}",
    "institution": f"/institutions/{BERKELEY}",
}
MINIMUM = 0.95


async def canonical(base: str, address: str) -> str:
    """The page a bare id redirects to (Lighthouse then audits that page itself)."""
    async with httpx.AsyncClient(base_url=base, follow_redirects=True, timeout=120) as client:
        response = await client.get(address, headers={"accept": "text/html"})
    assert response.status_code == 200, address
    return str(response.url)


async def lighthouse(url: str, report: Path) -> dict[str, object]:
    process = await asyncio.create_subprocess_exec(
        "node",
        str(LIGHTHOUSE),
        url,
        "--only-categories=seo,accessibility",
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        f"--chrome-flags={CHROME_FLAGS}",
        "--max-wait-for-load=60000",
        cwd=ROOT,
        env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=240)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode == 0, (out + err).decode()
    result: dict[str, object] = json.loads(await asyncio.to_thread(report.read_text))
    return result


def shortfalls(result: dict[str, object]) -> list[str]:
    audits = result["audits"]
    assert isinstance(audits, dict)
    return [
        f"{audit['id']}: {audit['title']}"
        for audit in audits.values()
        if audit.get("scoreDisplayMode") in {"binary", "numeric"}
        and audit.get("score") is not None
        and audit["score"] < 1
    ]


async def test_lighthouse_scores_the_entity_pages(served: str, artifacts: Path) -> None:
    assert LIGHTHOUSE.is_file(), "the Node packages are not installed; `make install` sets them up"
    scores: dict[str, dict[str, float]] = {}
    missed: dict[str, list[str]] = {}
    for name, address in PAGES.items():
        report = artifacts / f"lighthouse-{name}.json"
        report.unlink(missing_ok=True)
        result = await lighthouse(await canonical(served, address), report)
        categories = result["categories"]
        assert isinstance(categories, dict)
        scores[name] = {key: categories[key]["score"] for key in ("seo", "accessibility")}
        missed[name] = shortfalls(result)
    low = {
        f"{name} {category}": score
        for name, by_category in scores.items()
        for category, score in by_category.items()
        if score < MINIMUM
    }
    assert not low, f"below {MINIMUM:.0%}: {low}; audits missed: {missed}"
