"""The index read from the graph is the index read from the same ROR files."""

from __future__ import annotations

from pathlib import Path

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.institutions import index_from_files, index_from_graph, match_affiliation
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from tests.institutions import records as r


async def test_the_graph_gives_the_index_the_files_give(db: Database, tmp_path: Path) -> None:
    folder = r.write_records(tmp_path / "dump")
    await Loader(db).run(file_chunks([folder / "ror-records.jsonl"], format="ror"))
    from_graph = await index_from_graph(db)
    from_files = index_from_files([folder])
    assert len(from_graph) == len(r.RECORDS)
    assert from_graph == from_files
    assert from_graph.by_key == from_files.by_key
    assert from_graph.children == from_files.children
    text = "Institute of Physics, Chinese Academy of Sciences, Beijing, China"
    assert match_affiliation(from_graph, text) == match_affiliation(from_files, text)


async def test_an_empty_graph_gives_an_empty_index(db: Database) -> None:
    assert len(await index_from_graph(db)) == 0


@pytest.mark.shared
async def test_a_real_dump_part_reads_back_the_same(db: Database, shared_data: Path) -> None:
    part = shared_data / "ror" / "ror-records-v2-latest" / "ror-v2-records-05.jsonl"
    await Loader(db).run(file_chunks([part], format="ror"))
    from_graph = await index_from_graph(db)
    from_files = index_from_files([part])
    assert len(from_graph) == 1181
    assert from_graph == from_files
