"""A checkpoint resumes only on the store and the input it was taken on; anywhere else the
load starts over and says why. (A load killed half-way and run again, compared with a
clean load, is a row of ``test_fault_matrix``.)"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.files import input_fingerprint
from scholargraph.graph.loaders.pipeline import Loader, StoreIdentity, store_identity
from scholargraph.graph.records import Batch
from scholargraph.queries.admin import CLEAR_DATA
from tests.loaders.records_factory import paper


async def _chunks(count: int) -> AsyncIterator[tuple[str, Batch]]:
    for i in range(count):
        yield f"chunk-{i}", Batch(papers=[paper(f"2102.{i:05d}", [f"Writer{i} Person"])])


def _checkpoint(path: Path, store: StoreIdentity | None, done: list[str], input: str = "") -> None:
    store_part = (
        None
        if store is None
        else {
            "store_id": store.store_id,
            "database": store.database,
            "address": store.address,
        }
    )
    path.write_text(json.dumps({"store": store_part, "input": input, "done": done}))


async def test_the_store_identity_names_the_database(db: Database) -> None:
    store = await store_identity(db)
    assert store.database == db.database
    assert len(store.store_id) >= 8
    assert "127.0.0.1:" in store.address
    assert store == await store_identity(db)  # stable: a store keeps its id


async def test_a_checkpoint_of_this_store_and_input_resumes(db: Database, tmp_path: Path) -> None:
    checkpoint = tmp_path / "load.checkpoint.json"
    _checkpoint(checkpoint, await store_identity(db), ["chunk-0", "chunk-1"], input="in")
    warnings: list[str] = []
    summary = await Loader(db, checkpoint=checkpoint, input="in", warn=warnings.append).run(
        _chunks(3)
    )
    assert (summary.resumed_from, summary.papers.created, summary.started_over) == (2, 1, "")
    assert warnings == []


async def test_a_checkpoint_of_another_store_starts_the_load_over(
    db: Database, tmp_path: Path
) -> None:
    here = await store_identity(db)
    elsewhere = StoreIdentity("0000-another-store", here.database, "127.0.0.1:7999")
    checkpoint = tmp_path / "load.checkpoint.json"
    _checkpoint(checkpoint, elsewhere, ["chunk-0", "chunk-1"])
    warnings: list[str] = []
    summary = await Loader(db, checkpoint=checkpoint, warn=warnings.append).run(_chunks(3))
    assert (summary.resumed_from, summary.papers.created) == (0, 3)
    [warning] = warnings
    assert "0000-another-store" in warning and here.store_id in warning
    assert warning.endswith("starting the load over")
    assert summary.started_over in warning
    assert not checkpoint.exists()


async def test_a_checkpoint_of_other_input_or_no_store_starts_over(
    db: Database, tmp_path: Path
) -> None:
    here = await store_identity(db)
    cases = {
        "changed-input": (here, "the input changed"),
        "no-store": (None, "does not say which store"),
    }
    for name, (store, reason) in cases.items():
        await db.run(CLEAR_DATA)
        checkpoint = tmp_path / f"{name}.checkpoint.json"
        _checkpoint(checkpoint, store, ["chunk-0"], input="before")
        summary = await Loader(db, checkpoint=checkpoint, input="after").run(_chunks(2))
        assert reason in summary.started_over, name
        assert (summary.resumed_from, summary.papers.created) == (0, 2), name


async def test_a_checkpoint_records_its_store_while_the_load_runs(
    db: Database, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "load.checkpoint.json"
    seen: list[dict[str, object]] = []

    def look(records: int, summary: object) -> None:
        seen.append(json.loads(checkpoint.read_text()))

    await Loader(db, checkpoint=checkpoint, input="in", progress=look).run(_chunks(2))
    here = await store_identity(db)
    assert seen[0]["store"] == {
        "store_id": here.store_id,
        "database": here.database,
        "address": here.address,
    }
    assert (seen[0]["input"], seen[-1]["done"]) == ("in", ["chunk-0", "chunk-1"])
    assert not checkpoint.exists()  # a finished load leaves none


def test_the_input_fingerprint_changes_with_the_files_only(tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "a.jsonl").write_text("{}\n")
    before = input_fingerprint([folder])
    (folder / ".partial").write_text("a download under way")
    assert input_fingerprint([folder]) == before  # hidden files are not read by a load
    (folder / "a.jsonl").write_text('{"id": 1}\n')
    changed = input_fingerprint([folder])
    assert changed != before
    (folder / "b.jsonl").write_text("{}\n")
    assert input_fingerprint([folder]) != changed
    assert input_fingerprint([folder / "a.jsonl"]) != input_fingerprint([folder / "b.jsonl"])
