"""arXiv's metadata snapshot (JSON Lines): parsed, told apart from the other JSON Lines
formats, streamed, and loaded through the file loaders into the real database."""

from __future__ import annotations

import gzip
import json
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from scholargraph.cli.load_cmd import EXIT_REJECTED
from scholargraph.graph.canonical import canonical_dump, differences
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.parse import json_files
from scholargraph.graph.loaders.parse.arxiv_snapshot import parse_snapshot_record
from scholargraph.graph.loaders.parse.files import (
    SkippedFile,
    count_bulk_records,
    iter_bulk_files,
    sniff_format,
)
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.records import PaperRecord, Version
from scholargraph.queries import Query
from tests.loaders.source_files import json_lines, openalex_work, ror_record, s2_line
from tests.test_cli import scholargraph

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "arxiv-snapshot"
SNAPSHOT = FIXTURE / "arxiv-metadata-oai-snapshot.json"
DAY = date(2026, 3, 1)
PAPERS = {"0801.0001", "hep-th/9901001", "2301.00042", "2302.01234"}

AUTHORS = Query(
    "test.snapshot_authors",
    """
    MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper)
    RETURN collect({paper: p.key, position: a.position, name: r.name}) AS rows
    """,
)
CATEGORIES = Query(
    "test.snapshot_categories",
    """
    MATCH (p:Paper)-[c:IN_CATEGORY]->(k:Category)
    RETURN collect({paper: p.key, code: k.code, primary: c.primary}) AS rows
    """,
)


def _papers(path: Path = SNAPSHOT, **options: Any) -> dict[str, PaperRecord]:
    return {
        p.arxiv_id or "": p
        for _, batch in iter_bulk_files([path], retrieved=DAY, **options)
        for p in batch.papers
    }


def _line(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "2303.00001",
        "title": "A title",
        "authors": "A. One and B. Two",
        "categories": "cs.DC",
        "versions": [{"version": "v1", "created": "Wed, 1 Mar 2023 09:00:00 GMT"}],
        "authors_parsed": [["One", "A.", ""], ["Two", "B.", ""]],
    }
    return {**base, **fields}


# --- parsing --------------------------------------------------------------------------


def test_a_snapshot_line_becomes_a_paper() -> None:
    paper = _papers()["0801.0001"]
    assert paper.title == "Prompt photon pairs at hadron colliders at next-to-leading order"
    assert paper.doi == "10.1103/physrevd.77.000001"
    assert (paper.primary_category, paper.categories) == ("hep-ph", ("hep-ph", "hep-ex"))
    assert paper.versions == (Version(1, date(2008, 1, 1)), Version(2, date(2008, 2, 15)))
    assert (paper.published, paper.updated, paper.year) == (
        date(2008, 1, 1),
        date(2008, 2, 15),
        2008,
    )
    assert paper.abstract == "We compute prompt photon pairs at next-to-leading order."
    assert paper.journal_ref == "Phys. Rev. D 77, 000001 (2008)"
    assert paper.retrieved == DAY
    assert not paper.withdrawn and not paper.authors_truncated
    names = [(a.position, a.raw_name, a.forenames, a.keyname) for a in paper.authorships]
    assert names == [
        (1, "C. Balázs", "C.", "Balázs"),
        (2, "E. L. Berger", "E. L.", "Berger"),
        (3, "C.-P. Yuan", "C.-P.", "Yuan"),  # arXiv's split prints "C. -P."
    ]


def test_old_style_ids_suffixes_affiliations_and_withdrawals() -> None:
    papers = _papers()
    assert set(papers) == PAPERS
    old = papers["hep-th/9901001"]
    assert [(a.raw_name, a.keyname, a.raw_affiliations) for a in old.authorships] == [
        ("John Smith Jr.", "Smith", ()),
        ("Ana Pérez", "Pérez", ("Univ. of Nowhere",)),
    ]
    assert old.doi is None and old.published == date(1999, 1, 1)
    revised = papers["2301.00042"]
    assert [v.version for v in revised.versions] == [1, 2, 3]
    assert revised.withdrawn  # the snapshot has no flag: the comments tell
    assert revised.categories == ("math.CO", "cs.DM")
    assert [a.raw_name for a in revised.authorships] == ["E. L. Berger", "M. Müller"]


def test_the_author_string_is_read_where_authors_parsed_disagrees_or_is_missing() -> None:
    cut_short = _papers()["2302.01234"]  # arXiv's split kept "et al" as a third author
    assert [a.raw_name for a in cut_short.authorships] == ["A. Author", "B. Writer"]
    assert cut_short.authors_truncated
    assert cut_short.authorships[0].keyname is None  # the string's reading, not the split
    string = ["Ada Lovelace", "Alan M. Turing"]
    cases = [
        _line(authors="Ada Lovelace and Alan M. Turing", authors_parsed=None),
        _line(authors="Ada Lovelace and Alan M. Turing", authors_parsed="Lovelace, Ada"),
        _line(
            authors="Ada Lovelace and Alan M. Turing",
            authors_parsed=[["Lovelace", "Ada", ""], ["Hopper", "Grace", ""]],
        ),
        _line(
            authors="Ada Lovelace and Alan M. Turing",
            authors_parsed=[["Lovelace", "Ada", ""], ["Turing", 7, ""]],
        ),
        _line(
            authors="Ada Lovelace and Alan M. Turing",
            authors_parsed=[["Lovelace", "Ada", ""], ["", "Alan M. Turing", ""]],
        ),
    ]
    for case in cases:
        paper = parse_snapshot_record(case, retrieved=DAY)
        assert [a.raw_name for a in paper.authorships] == string, case["authors_parsed"]
        assert all(a.keyname is None for a in paper.authorships)
    agreed = parse_snapshot_record(
        _line(
            authors="Ada Lovelace and Alan M. Turing",
            authors_parsed=[["Lovelace", "Ada", ""], ["Turing", "Alan M.", "", "NPL", "NPL"]],
        )
    )
    assert [(a.keyname, a.raw_affiliations) for a in agreed.authorships] == [
        ("Lovelace", ()),
        ("Turing", ("NPL",)),
    ]
    no_string = parse_snapshot_record(_line(authors=None))
    assert [(a.raw_name, a.keyname) for a in no_string.authorships] == [
        ("A. One", "One"),
        ("B. Two", "Two"),
    ]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"id": None}, "no id"),
        ({"id": 704.0001}, "the id 704.0001 is not text"),
        ({"id": "0704.00001"}, "is not an arXiv id"),
        ({"title": "  "}, "no title"),
        ({"authors": "", "authors_parsed": []}, "no authors"),
        ({"authors": None, "authors_parsed": [["", "", ""]]}, "no authors"),
    ],
)
def test_unusable_lines_are_rejected_with_the_reason(fields: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecordRejected, match=reason):
        parse_snapshot_record(_line(**fields))


def test_malformed_lines_are_rejected_and_the_rest_of_the_file_goes_on() -> None:
    batches = [batch for _, batch in iter_bulk_files([SNAPSHOT], source="arxiv")]
    rejected = [(r.ref, r.reason) for batch in batches for r in batch.rejected]
    assert rejected[0] == (f"{SNAPSHOT}:5", "malformed JSON (Expecting value at column 74)")
    assert rejected[1] == (f"{SNAPSHOT}:6", "no id")  # named by its line
    assert rejected[2][0] == "not-an-id" and "is not an arXiv id" in rejected[2][1]
    assert len(rejected) == 3
    assert sum(len(batch.papers) for batch in batches) == len(PAPERS)


# --- telling the format, streaming ------------------------------------------------------


def _gzipped(tmp_path: Path) -> Path:
    target = tmp_path / "arxiv-metadata-oai-snapshot.json.gz"
    target.write_bytes(gzip.compress(SNAPSHOT.read_bytes()))
    return target


def test_the_snapshot_is_told_apart_from_the_other_json_lines(tmp_path: Path) -> None:
    ids = ["2301.00001", "2301.00002"]
    (tmp_path / "works.jsonl").write_bytes(json_lines([openalex_work(i, 1) for i in ids]))
    (tmp_path / "papers.jsonl").write_bytes(json_lines([s2_line(i, 1) for i in ids]))
    (tmp_path / "ror.jsonl").write_bytes(json_lines([ror_record("012345678")]))
    shutil.copy(SNAPSHOT, tmp_path / "arxiv-metadata-oai-snapshot.json")
    (tmp_path / "gzipped").mkdir()
    gzipped = _gzipped(tmp_path / "gzipped")
    found = {path.name: sniff_format(path) for path in sorted(tmp_path.glob("*.json*"))}
    assert found == {
        "arxiv-metadata-oai-snapshot.json": "snapshot",
        "papers.jsonl": "s2",
        "ror.jsonl": "ror",
        "works.jsonl": "openalex",
    }
    assert sniff_format(gzipped) == "snapshot"

    skipped: list[SkippedFile] = []
    read = [p.name for p, _ in iter_bulk_files([tmp_path], source="arxiv", on_skip=skipped.append)]
    assert read == ["arxiv-metadata-oai-snapshot.json", "arxiv-metadata-oai-snapshot.json.gz"]
    assert {s.path.name: s.reason for s in skipped} == {
        "papers.jsonl": "it holds Semantic Scholar JSON, not "
        "arXiv .abs, arXiv OAI-PMH XML, arXiv Atom XML or arXiv metadata snapshot JSON",
        "ror.jsonl": "it holds ROR JSON, not "
        "arXiv .abs, arXiv OAI-PMH XML, arXiv Atom XML or arXiv metadata snapshot JSON",
        "works.jsonl": "it holds OpenAlex JSON, not "
        "arXiv .abs, arXiv OAI-PMH XML, arXiv Atom XML or arXiv metadata snapshot JSON",
    }
    skipped.clear()
    list(iter_bulk_files([tmp_path], source="openalex", on_skip=skipped.append))
    assert {s.path.name: s.reason for s in skipped}["arxiv-metadata-oai-snapshot.json"] == (
        "it holds arXiv metadata snapshot JSON, not OpenAlex JSON"
    )


def test_a_snapshot_whose_first_line_is_damaged_is_told_by_its_first_bytes(
    tmp_path: Path,
) -> None:
    damaged = tmp_path / "part.jsonl"
    damaged.write_bytes(b'{"id": "0801.0000", "broken\n' + SNAPSHOT.read_bytes())
    assert sniff_format(damaged) == "snapshot"  # '"authors_parsed"' on the next line
    [(_, batch)] = list(iter_bulk_files([damaged], source="arxiv"))
    assert {p.arxiv_id for p in batch.papers} == PAPERS
    assert batch.rejected[0].ref == f"{damaged}:1"
    hidden = tmp_path / "hidden.jsonl"  # nothing in the first 4 kB says which format
    hidden.write_bytes(b'{"broken' + b"x" * 5000 + b"\n" + SNAPSHOT.read_bytes())
    [(_, batch)] = list(iter_bulk_files([hidden], source="arxiv"))
    assert batch.papers == []
    assert batch.rejected[0].reason.startswith("unrecognised file: its first bytes are not")
    [(_, batch)] = list(iter_bulk_files([hidden], format="snapshot"))
    assert {p.arxiv_id for p in batch.papers} == PAPERS


def test_the_snapshot_is_streamed_in_chunks_plain_or_gzipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def whole_file(*args: object) -> bytes:
        raise AssertionError("the snapshot was read whole")

    monkeypatch.setattr(json_files, "read_bytes", whole_file)
    for path in (SNAPSHOT, _gzipped(tmp_path)):
        batches = [b for _, b in iter_bulk_files([path], source="arxiv", chunk_size=2)]
        assert [len(b.papers) + len(b.rejected) for b in batches] == [2, 2, 2, 1]
        assert count_bulk_records([path], source="arxiv") == 7


# --- loading ---------------------------------------------------------------------------


async def _load(db: Database, paths: list[Path], report: Path) -> tuple[Any, list[Any]]:
    summary = await Loader(db, report=report).run(file_chunks(paths, source="arxiv"))
    return summary, _report(report)


def _report(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines()]


async def test_the_snapshot_loads_and_loading_it_again_changes_nothing(
    db: Database, tmp_path: Path
) -> None:
    folder = tmp_path / "kaggle"
    folder.mkdir()
    _gzipped(folder)
    (folder / "README.txt").write_text("arXiv metadata, one paper a line\n")

    summary, rejected = await _load(db, [folder], tmp_path / "first.jsonl")

    assert summary.papers.created == len(PAPERS)
    assert [r["reason"] for r in rejected][:2] == [
        "malformed JSON (Expecting value at column 74)",
        "no id",
    ]
    assert rejected[2]["ref"] == "not-an-id" and len(rejected) == summary.rejected == 3
    slots = sorted((s["paper"], s["position"], s["name"]) for s in await db.run_rows(AUTHORS))
    assert slots == [
        ("0801.0001", 1, "C. Balázs"),
        ("0801.0001", 2, "E. L. Berger"),
        ("0801.0001", 3, "C.-P. Yuan"),
        ("2301.00042", 1, "E. L. Berger"),
        ("2301.00042", 2, "M. Müller"),
        ("2302.01234", 1, "A. Author"),
        ("2302.01234", 2, "B. Writer"),
        ("hep-th/9901001", 1, "John Smith Jr."),
        ("hep-th/9901001", 2, "Ana Pérez"),
    ]
    categories = {(c["paper"], c["code"], c["primary"]) for c in await db.run_rows(CATEGORIES)}
    assert categories == {
        ("0801.0001", "hep-ph", True),
        ("0801.0001", "hep-ex", False),
        ("hep-th/9901001", "hep-th", True),
        ("2301.00042", "math.CO", True),
        ("2301.00042", "cs.DM", False),
        ("2302.01234", "cs.DC", True),
    }
    first = await canonical_dump(db)
    assert first["counts"]["nodes"]["Paper"] == len(PAPERS)
    assert first["papers"]["2301.00042"]["versions"] == 3
    assert first["papers"]["2301.00042"]["withdrawn"] is True

    again, _ = await _load(db, [folder], tmp_path / "second.jsonl")
    assert again.papers.unchanged == len(PAPERS)
    assert again.papers.created == again.papers.updated == 0
    second = await canonical_dump(db)
    assert second == first, differences(first, second)


@pytest.mark.usefixtures("db")
def test_load_arxiv_files_reads_the_snapshot(schema_ready: Settings, tmp_path: Path) -> None:
    report = tmp_path / "rejected.jsonl"
    done = scholargraph(
        schema_ready,
        "load",
        "arxiv",
        "--files",
        str(SNAPSHOT),
        "--report",
        str(report),
        "--json",
        home=str(tmp_path),
    )
    assert done.returncode == EXIT_REJECTED, done.stderr
    summary = json.loads(done.stdout)["arxiv"]
    assert (summary["papers"]["created"], summary["rejected"]) == (len(PAPERS), 3)
    assert [json.loads(line)["ref"] for line in report.read_text().splitlines()] == [
        f"{SNAPSHOT}:5",
        f"{SNAPSHOT}:6",
        "not-an-id",
    ]
