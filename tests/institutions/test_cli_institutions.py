"""``scholargraph institutions match`` and ``scholargraph eval affiliations`` as a user runs
them: a real process, against ROR files and against the test session's Neo4j."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.pipeline import Loader
from tests.institutions import records as r
from tests.test_cli import scholargraph

# Matching against files never reaches for a database: nothing listens here.
OFFLINE = Settings.from_mapping({"NEO4J_URI": "bolt://127.0.0.1:9"})


def test_match_one_string_against_files(ror_dir: Path) -> None:
    done = scholargraph(
        OFFLINE,
        "institutions",
        "match",
        "Dept. of Physics, Univ. of Tokyo",
        "--json",
        "--ror-files",
        str(ror_dir),
    )
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    result = json.loads(line)
    assert result["ror_id"] == r.TOKYO
    assert result["name"] == "University of Tokyo"
    assert result["method"] == "exact_name"
    assert 0.7 <= result["score"] <= 1.0


def test_match_a_file_one_json_line_each(ror_dir: Path, tmp_path: Path) -> None:
    strings = tmp_path / "strings.txt"
    strings.write_text("Univ. of Tokyo, Japan\n\nPA\nLeipzig University\n", encoding="utf-8")
    done = scholargraph(
        OFFLINE, "institutions", "match", "--file", str(strings), "--json",
        "--ror-files", str(ror_dir),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [x["ror_id"] for x in results] == [r.TOKYO, None, r.LEIPZIG]
    assert results[1]["method"] == "none"


def test_match_says_what_is_wrong(ror_dir: Path) -> None:
    neither = scholargraph(OFFLINE, "institutions", "match", "--ror-files", str(ror_dir))
    assert neither.returncode == 2
    assert "one affiliation string or --file" in neither.stderr
    missing = scholargraph(
        OFFLINE, "institutions", "match", "x", "--ror-files", str(ror_dir / "nope")
    )
    assert missing.returncode == 2
    assert "neither a file nor a folder" in missing.stderr


@pytest.mark.usefixtures("db")
def test_an_empty_graph_is_no_index(schema_ready: Settings) -> None:
    done = scholargraph(schema_ready, "institutions", "match", "University of Tokyo")
    assert done.returncode == 1
    assert "load ror" in done.stderr


async def test_match_and_eval_against_the_graph(
    db: Database, schema_ready: Settings, ror_dir: Path, tmp_path: Path
) -> None:
    await Loader(db).run(file_chunks([ror_dir / "ror-records.jsonl"], format="ror"))
    table = scholargraph(schema_ready, "institutions", "match", "Universität Leipzig")
    assert table.returncode == 0, table.stderr
    assert r.LEIPZIG in table.stdout and "alias" in table.stdout
    gold = tmp_path / "gold.json"
    gold.write_text(
        json.dumps(
            [
                {"affiliation": "University of Tokyo, Japan", "ror_ids": [f"https://ror.org/{r.TOKYO}"]},
                {"affiliation": "Phenomics Australia", "ror_ids": [f"https://ror.org/{r.PHENOMICS}"]},
                {"affiliation": "PA", "ror_ids": [f"https://ror.org/{r.PHENOMICS}"]},
                {"affiliation": "Elsewhere University", "ror_ids": ["https://ror.org/0zzzzzz99"]},
                {"affiliation": "Loyola University of Tokyo", "ror_ids": []},
            ]
        )
    )  # fmt: skip
    from_graph = scholargraph(schema_ready, "eval", "affiliations", "--gold", str(gold), "--json")
    assert from_graph.returncode == 0, from_graph.stderr
    figures = json.loads(from_graph.stdout)
    assert figures["index"] == len(r.RECORDS)
    assert figures["in_index"]["strings"] == 3
    assert figures["in_index"]["correct"] == 2
    assert figures["in_index"]["precision"] == 1.0
    assert figures["overall"]["with_gold"] == 4
    from_files = scholargraph(
        schema_ready, "eval", "affiliations", "--gold", str(gold), "--json",
        "--ror-files", str(ror_dir),
    )  # fmt: skip
    assert json.loads(from_files.stdout) == figures
    shown = scholargraph(schema_ready, "eval", "affiliations", "--gold", str(gold))
    assert shown.returncode == 0, shown.stderr
    assert "gold in index" in shown.stdout


async def test_rematch_links_the_strings_papers_kept(
    db: Database, schema_ready: Settings, ror_dir: Path
) -> None:
    from dataclasses import replace

    from scholargraph.graph.loaders.profiles import write_institutions
    from scholargraph.graph.records import Batch
    from tests.loaders.records_factory import paper

    record = paper("2301.00001", ["Ana Lima"])
    strings = ("Department of Physics, University of Tokyo, Tokyo, Japan",)
    record = replace(
        record, authorships=(replace(record.authorships[0], raw_affiliations=strings),)
    )

    async def chunks():  # type: ignore[no-untyped-def]
        yield "papers", Batch(papers=[record])

    await Loader(db, embed=False).run(chunks())
    # institutions written without the load's pass: the strings wait for a rematch
    institutions = [i for _, b in [x async for x in file_chunks([ror_dir])] for i in b.institutions]
    await write_institutions(db, institutions)
    done = scholargraph(schema_ready, "institutions", "rematch", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"strings_linked": 1}
    again = scholargraph(schema_ready, "institutions", "rematch")
    assert again.returncode == 0, again.stderr
    assert "1 slot affiliation strings linked" in again.stdout
