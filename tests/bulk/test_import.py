"""The store read out into import files and written again by ``neo4j-admin database import``:
the same graph, value for value, with the same indexes; and ``neo4j compact`` doing it in place."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from scholargraph.graph import localserver
from scholargraph.graph.bulk.compact import OLD_SUFFIX, WORK_SUFFIX, check_disk, compact
from scholargraph.graph.bulk.export import export_store
from scholargraph.graph.bulk.files import ImportSet
from scholargraph.graph.bulk.finish import finish_store
from scholargraph.graph.bulk.tool import run_import
from scholargraph.graph.canonical import canonical_dump, differences
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BulkError
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.graph.schema.install import install_schema
from scholargraph.queries import Query
from tests.conftest import record_query
from tests.neo4j_spare import spare_neo4j_at

ROOT = Path(__file__).resolve().parents[2]

# Values the demo does not hold: text that needs quoting and spans lines, an empty text, a
# named zone, local date-times, arrays of each type, a node with no property, and a
# relationship with an empty array.
_PROBE = Query(
    "test.bulk_probe",
    """
    CREATE (a:BulkProbe {
      text: $text, empty_text: '', at: datetime('2026-03-01T12:00:00[Europe/Berlin]'),
      at_offset: datetime('2026-03-01T12:00:00.123456789+05:30'),
      local: localdatetime('2026-03-01T12:00:00'), ratio: 1.0 / 3, flags: [true, false],
      years: [2020, 2021], days: [date('2024-02-29')], none: []
    })
    CREATE (b:BulkProbe:Second {text: 'b'})
    CREATE (a)-[:PROBED {weight: 0.5, tags: [], names: ['x, "y"']}]->(b)
    CREATE (:Lonely)
    """,
    "write",
)
_POINT = Query("test.bulk_point", "CREATE (:BulkProbe {where: point({x: 1, y: 2})})", "write")
_NO_POINT = Query("test.bulk_no_point", "MATCH (n) WHERE n.where IS NOT NULL DELETE n", "write")
_NODES = Query(
    "test.bulk_nodes", "MATCH (n) RETURN collect({labels: labels(n), props: properties(n)}) AS rows"
)
_RELATIONSHIPS = Query(
    "test.bulk_relationships",
    """
    MATCH (a)-[r]->(b)
    RETURN collect({
      a: [labels(a), coalesce(a.key, a.code, a.id, a.name, a.text)], type: type(r),
      b: [labels(b), coalesce(b.key, b.code, b.id, b.name, b.text)], props: properties(r)
    }) AS rows
    """,
)
_INDEXES = Query(
    "test.bulk_indexes",
    """
    SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, options, state
    RETURN collect({name: name, type: type, entity: entityType, on: labelsOrTypes,
                    keys: properties, config: options.indexConfig, state: state}) AS rows
    """,
)
_CONSTRAINTS = Query(
    "test.bulk_constraints",
    "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties "
    "RETURN collect({name: name, type: type, on: labelsOrTypes, keys: properties}) AS rows",
)


def _sorted(rows: list[Any]) -> list[str]:
    return sorted(json.dumps(row, sort_keys=True, default=repr) for row in rows)


async def everything(db: Database) -> dict[str, list[str]]:
    """Every node and relationship with all its values, and the schema, comparable."""
    return {
        "nodes": _sorted(await db.run_rows(_NODES)),
        "relationships": _sorted(await db.run_rows(_RELATIONSHIPS)),
        "indexes": _sorted(await db.run_rows(_INDEXES)),
        "constraints": _sorted(await db.run_rows(_CONSTRAINTS)),
    }


def _spare_home(settings: Settings, home: Path) -> Settings:
    return settings.with_overrides(
        neo4j_uri=None,
        neo4j_data_dir=home,
        neo4j_bolt_port=localserver.free_port(),
        neo4j_heap="1g",
        neo4j_pagecache="128m",
    )


async def test_the_import_tool_writes_again_every_value_the_store_holds(
    db: Database, schema_ready: Settings, tmp_path: Path
) -> None:
    await load_demo(db, write_demo_files(tmp_path / "demo", papers=150, seed=5))
    await db.run(_PROBE, {"text": 'Ann "Q" Lee, Jr.\nsecond line; ünïcode'})
    before, canonical = await everything(db), await canonical_dump(db)
    assert len(before["nodes"]) > 1_000  # small pages below: the read crosses many of them
    home = tmp_path / "imported"
    exported = await export_store(db, home / "import", page=97)
    assert exported.files.multiline  # the probe's text spans two lines
    assert exported.files.node_count == len(before["nodes"])
    assert exported.files.relationship_count == len(before["relationships"])
    await asyncio.to_thread(run_import, schema_ready.neo4j_home, home, exported.files)
    spare = _spare_home(schema_ready, home)
    await asyncio.to_thread(localserver.start, spare)
    try:
        async with Database.connect(spare) as imported:
            imported.on_query = record_query
            await finish_store(spare, imported)
            after = await everything(imported)
            assert differences(canonical, await canonical_dump(imported)) == []
    finally:
        await asyncio.to_thread(localserver.stop, home)
    for part in before:
        assert after[part] == before[part], part


async def test_a_value_the_files_cannot_carry_stops_the_export(
    db: Database, tmp_path: Path
) -> None:
    await db.run(_POINT)
    with pytest.raises(BulkError, match="cannot carry a POINT"):
        await export_store(db, tmp_path / "import")


async def test_compact_rewrites_the_running_store_in_place(tmp_path: Path) -> None:
    with spare_neo4j_at(tmp_path) as settings:
        async with Database.connect(settings) as db:
            await install_schema(settings, db)
            await load_demo(db, write_demo_files(tmp_path / "demo", papers=60, seed=3))
            await db.run(_POINT)
            before = await everything(db)
        with pytest.raises(BulkError, match="cannot carry a POINT"):
            await compact(settings)
        work = Path(str(settings.neo4j_data_dir.resolve()) + WORK_SUFFIX)
        assert not await asyncio.to_thread(work.exists)  # the files begun are not left
        # refused before the server was stopped: it still serves the store as it was
        async with Database.connect(settings) as db:
            db.on_query = record_query
            assert await everything(db) == before
            await db.run(_NO_POINT)
            before = await everything(db)
        done = await compact(settings)
        async with Database.connect(settings) as db:  # the same port, the same graph
            assert await everything(db) == before
        assert done.nodes == len(before["nodes"])
        assert done.relationships == len(before["relationships"])
        assert done.old_store == str(settings.neo4j_data_dir.resolve()) + OLD_SUFFIX
        old_graph = Path(done.old_store, "data", "databases", "neo4j")
        assert await asyncio.to_thread(old_graph.is_dir)
        assert done.store_bytes_after > 0
        with pytest.raises(BulkError, match="left from a compaction before"):
            await compact(settings)


def test_compact_refuses_without_room_for_the_files_and_the_new_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "data" / "data" / "databases" / "neo4j"
    store.mkdir(parents=True)
    (store / "neostore").write_bytes(b"x" * 1_000_000)
    check_disk(tmp_path / "data")  # the machine has the room
    monkeypatch.setattr(shutil, "disk_usage", lambda _: SimpleNamespace(free=1_999_999))
    with pytest.raises(BulkError, match="compact needs about"):
        check_disk(tmp_path / "data")


def test_compact_refuses_a_server_it_does_not_run(tmp_path: Path) -> None:
    for env, said in (
        ({"NEO4J_URI": "bolt://127.0.0.1:1"}, "NEO4J_URI names another server"),
        ({"SCHOLARGRAPH_HOME": str(tmp_path)}, "the local server is not running"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "scholargraph", "neo4j", "compact"],
            cwd=ROOT,
            env={**{k: v for k, v in os.environ.items() if k != "NEO4J_URI"}, **env},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert said in done.stderr, done.stderr


def test_a_bad_entry_stops_the_tool_and_says_where(tmp_path: Path) -> None:
    files = tmp_path / "files"
    files.mkdir()
    (files / "nodes.csv").write_text(':ID,name:string,:LABEL\n1,"a",Probe\n', encoding="utf-8")
    (files / "knows.csv").write_text(":START_ID,:END_ID\n1,2\n", encoding="utf-8")  # no node 2
    broken = ImportSet(
        nodes=(files / "nodes.csv",),
        relationships=(("KNOWS", files / "knows.csv"),),
        multiline=(),
        node_count=1,
        relationship_count=1,
        empty_arrays=0,
    )
    with pytest.raises(BulkError, match="neo4j-admin database import failed") as failed:
        run_import(Settings.from_mapping(os.environ).neo4j_home, tmp_path / "home", broken)
    assert str(tmp_path / "home" / "import.log") in str(failed.value)
    assert "knows.csv" in str(failed.value)
    assert "referring to missing node 2" in str(failed.value)
