"""The analyst walk-through in docs/analysis.md runs, on a demo corpus, as written: its Python
examples as a script, and the whole page, commands included, as a notebook in a real kernel."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
from lxml import etree
from nbclient import NotebookClient

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from tests.analysis.test_gexf import SCHEMA_FILE

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "analysis.md"
BLOCK = re.compile(r"```(python|sh)\n(.*?)```", re.S)


def _environment(settings: Settings) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)  # the scholargraph command of this install
    return {
        **os.environ,
        "NEO4J_URI": settings.uri,
        "NEO4J_PASSWORD": settings.neo4j_password.reveal(),
        "SCHOLARGRAPH_HOME": str(ROOT / ".scholargraph"),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "200",
    }


def _notebook(blocks: list[tuple[str, str]]) -> nbformat.NotebookNode:
    cells = [
        nbformat.v4.new_code_cell(
            code if lang == "python" else f"%%bash\nset -euo pipefail\n{code}"
        )
        for lang, code in blocks
    ]
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.validate(notebook)
    return notebook


async def test_analysis_walkthrough_runs_as_a_script_and_as_a_notebook(
    db: Database, schema_ready: Settings, tmp_path: Path
) -> None:
    await load_demo(db, write_demo_files(tmp_path / "demo", papers=200, seed=21))
    blocks = BLOCK.findall(DOC.read_text(encoding="utf-8"))
    languages = [lang for lang, _ in blocks]
    assert languages.count("python") >= 3 and "sh" in languages
    env = _environment(schema_ready)

    script = tmp_path / "script"
    script.mkdir()
    python = "\n".join(code for lang, code in blocks if lang == "python")
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", python],
        cwd=script,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "coauthor ties" in done.stdout
    assert "collaboration distance from" in done.stdout
    assert "within two hops of" in done.stdout

    # In a kernel an event loop already runs: the page's examples must work there as written.
    folder = tmp_path / "notebook"
    folder.mkdir()
    notebook = _notebook(blocks)
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        allow_errors=False,
        resources={"metadata": {"path": str(folder)}},
    )
    await client.async_execute(env=env, cwd=str(folder))
    printed = "".join(
        output.get("text", "")
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream"
    )
    assert "coauthor ties" in printed and "within two hops of" in printed
    schema = etree.XMLSchema(etree.parse(str(SCHEMA_FILE)))
    for gexf in (folder / "ego.gexf", folder / "astro.gexf"):
        assert schema.validate(etree.parse(str(gexf))), schema.error_log
    assert sorted(p.name for p in (folder / "ego").iterdir()) == ["edges.csv", "nodes.csv"]
    assert not (folder / "egonodes.csv").exists()
    assert sorted(p.name for p in (folder / "vos").iterdir()) == ["map.txt", "network.txt"]
    assert (folder / "recent.graphml").read_text(encoding="utf-8").startswith("<?xml")
