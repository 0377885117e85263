"""The analyst walk-through in docs/analysis.md runs, on a demo corpus, as written."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, write_demo_files

ROOT = Path(__file__).resolve().parents[1]


async def test_analysis_walkthrough_runs(
    db: Database, schema_ready: Settings, tmp_path: Path
) -> None:
    await load_demo(db, write_demo_files(tmp_path, papers=400, seed=21))
    text = (ROOT / "docs" / "analysis.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", code.group(1)],
        cwd=ROOT,
        env={
            **os.environ,
            "NEO4J_URI": schema_ready.uri,
            "NEO4J_PASSWORD": schema_ready.neo4j_password.reveal(),
        },
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "coauthor ties" in done.stdout
    assert "collaboration distance from" in done.stdout
