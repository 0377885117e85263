"""The command line as a user runs it: a real process, the test session's Neo4j."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.stats import analyze, graph_stats

ROOT = Path(__file__).resolve().parents[1]


def scholargraph(settings: Settings, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    home = Path(env.pop("home", str(ROOT / ".scholargraph")))
    environment = {
        **os.environ,
        "NEO4J_URI": settings.uri,
        "NEO4J_PASSWORD": settings.neo4j_password.reveal(),
        "SCHOLARGRAPH_HOME": str(home),
        "COLUMNS": "200",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "scholargraph", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.usefixtures("db")
def test_db_stats_json_has_the_documented_shape(schema_ready: Settings) -> None:
    done = scholargraph(schema_ready, "db", "stats", "--json")
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert set(stats) == {"nodes", "relationships"}
    assert stats["nodes"]["Category"] >= 150


async def test_analyze_runs_on_the_database(db: Database) -> None:
    before = await graph_stats(db)
    await analyze(db, timeout_s=60)
    assert await graph_stats(db) == before


@pytest.mark.usefixtures("db")
def test_db_analyze_resamples_and_leaves_the_graph_as_it_was(schema_ready: Settings) -> None:
    before = json.loads(scholargraph(schema_ready, "db", "stats", "--json").stdout)
    done = scholargraph(schema_ready, "db", "analyze")
    assert done.returncode == 0, done.stderr
    assert "resampled" in done.stdout
    assert json.loads(scholargraph(schema_ready, "db", "stats", "--json").stdout) == before


@pytest.mark.usefixtures("db")
def test_demo_then_stats_then_idempotent_reload(schema_ready: Settings, tmp_path: Path) -> None:
    demo = scholargraph(schema_ready, "demo", "--papers", "150", "--seed", "5", home=str(tmp_path))
    assert demo.returncode == 0, demo.stderr
    assert "papers created" in demo.stdout
    first = json.loads(scholargraph(schema_ready, "db", "stats", "--json").stdout)
    assert first["nodes"]["Paper"] == 150
    assert first["relationships"]["AUTHORED"] > 150
    embedded = scholargraph(schema_ready, "db", "embed", "--reindex", "--json")
    assert embedded.returncode == 0, embedded.stderr
    report = json.loads(embedded.stdout)
    assert report["papers_seen"] == 150 and report["papers_embedded"] == 0  # the load did it
    assert report["reindexed"] is True
    assert report["coverage"]["embedded"] == report["coverage"]["current"] == 150
    assert report["coverage"]["with_topic"] > 0
    again = scholargraph(
        schema_ready, "demo", "--papers", "150", "--seed", "5", "--if-empty", home=str(tmp_path)
    )
    assert "already holds papers" in again.stdout
    reload = scholargraph(
        schema_ready, "demo", "--papers", "150", "--seed", "5", home=str(tmp_path)
    )
    assert reload.returncode == 0
    assert json.loads(scholargraph(schema_ready, "db", "stats", "--json").stdout) == first


@pytest.mark.usefixtures("db")
def test_load_files_reports_rejections_and_summary(schema_ready: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "oai"
    folder.mkdir()
    (folder / "page.xml").write_text(OAI_PAGE)
    report = tmp_path / "rejected.jsonl"
    done = scholargraph(
        schema_ready,
        "load",
        "arxiv",
        "--files",
        str(folder),
        "--report",
        str(report),
        "--json",
        home=str(tmp_path),
    )
    assert done.returncode == 65, done.stderr  # finished, with a record set aside
    summary = json.loads(done.stdout)["arxiv"]
    assert summary["papers"]["created"] == 1
    assert summary["rejected"] == 1
    assert "title" in report.read_text()


def test_neo4j_commands_defer_to_neo4j_uri(schema_ready: Settings) -> None:
    done = scholargraph(schema_ready, "neo4j", "start")
    assert done.returncode == 0, done.stderr
    assert "NEO4J_URI is set" in done.stdout


OAI_PAGE = """<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
<responseDate>2026-01-02T00:00:00Z</responseDate>
<request verb="ListRecords" metadataPrefix="arXiv">http://oaipmh.arxiv.org/oai</request>
<ListRecords>
<record><header><identifier>oai:arXiv.org:2301.08658</identifier>
<datestamp>2023-01-23</datestamp><setSpec>cs</setSpec></header>
<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/">
<id>2301.08658</id><created>2023-01-20</created>
<authors>
<author><keyname>Cheng</keyname><forenames>Shenggan</forenames></author>
<author><keyname>Liu</keyname><forenames>Ziming</forenames></author>
<author><keyname>Du</keyname><forenames>Jiangsu</forenames></author>
<author><keyname>You</keyname><forenames>Yang</forenames></author>
</authors>
<title>ATP: Adaptive Tensor Parallelism for Foundation Models</title>
<categories>cs.DC</categories>
<abstract>Foundation models have impressive performance.</abstract>
</arXiv></metadata></record>
<record><header><identifier>oai:arXiv.org:2301.99999</identifier>
<datestamp>2023-01-23</datestamp></header>
<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/">
<id>2301.99999</id><created>2023-01-20</created>
<authors><author><keyname>Nobody</keyname></author></authors>
<categories>cs.DC</categories>
</arXiv></metadata></record>
</ListRecords></OAI-PMH>
"""
