"""The page's TypeScript is checked strictly (esbuild strips types without checking them)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_sources_type_check() -> None:
    compiler = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
    if not compiler.is_file():
        pytest.fail("the Node packages are not installed; `make install` sets them up")
    checked = subprocess.run(
        ["node", str(compiler), "-p", str(ROOT / "web")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
