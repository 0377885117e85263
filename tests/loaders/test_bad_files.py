"""Damaged and stray files cost only what they touch: every good record loads, every bad one
is reported with its reason and raw excerpt, and a load never aborts on a file."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scholargraph.cli.load_cmd import EXIT_REJECTED
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.parse.arxiv_atom import parse_atom_feed
from scholargraph.graph.loaders.parse.files import SkippedFile, iter_bulk_files
from scholargraph.graph.loaders.pipeline import Loader, LoadSummary
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA
from tests.loaders.source_files import (
    abs_record,
    arxiv_ids,
    atom_entry,
    atom_feed,
    json_lines,
    oai_page,
    oai_record,
    openalex_work,
    orcid_ids,
    orcid_json,
    orcid_xml,
    ror_ids,
    ror_record,
    s2_line,
)

PAPER_KEYS = Query("test.bad_files_papers", "MATCH (p:Paper) RETURN collect(p.key) AS rows")
INSTITUTIONS = Query(
    "test.bad_files_institutions", "MATCH (i:Institution) RETURN collect(i.ror_id) AS rows"
)
ORCIDS = Query(
    "test.bad_files_orcids",
    "MATCH (r:Researcher) WHERE r.orcid IS NOT NULL RETURN collect(r.orcid) AS rows",
)
BAD_BYTE = b"\xff"


@dataclass
class Loaded:
    summary: LoadSummary
    rejected: list[dict[str, Any]]
    skipped: list[SkippedFile]

    def reasons(self) -> list[str]:
        return [r["reason"] for r in self.rejected]


async def _load(db: Database, paths: list[Path], source: str, tmp_path: Path) -> Loaded:
    report = tmp_path.with_name(f"{tmp_path.name}-rejected.jsonl")  # not among the files
    skipped: list[SkippedFile] = []
    chunks = file_chunks(paths, source=source, on_skip=skipped.append)
    summary = await Loader(db, report=report).run(chunks)
    rejected = [json.loads(line) for line in report.read_text().splitlines()]
    assert summary.rejected == len(rejected)
    return Loaded(summary, rejected, skipped)


async def _papers(db: Database) -> set[str]:
    return set(await db.run_rows(PAPER_KEYS))


def _with_bad_byte(text: str, marker: str) -> bytes:
    """``text`` as UTF-8 with an invalid byte inside ``marker``."""
    data = text.encode()
    assert data.count(marker.encode()) == 1
    return data.replace(marker.encode(), marker.encode()[:3] + BAD_BYTE + marker.encode()[3:])


def _readable(data: bytes) -> bytes:
    """What a gzip stream cut short still decompresses to."""
    return zlib.decompressobj(wbits=31).decompress(data)


# --- JSON Lines: a bad byte or a lone surrogate rejects its line ----------------------


def _lines(source: str, ids: list[str]) -> tuple[list[dict[str, Any]], str]:
    if source == "openalex":
        return [openalex_work(i, n) for n, i in enumerate(ids)], "works.jsonl"
    if source == "s2":
        return [s2_line(i, n) for n, i in enumerate(ids)], "papers.jsonl"
    return [ror_record(i) for i in ids], "ror.jsonl"


@pytest.mark.parametrize("source", ["openalex", "s2", "ror"])
async def test_a_bad_byte_rejects_its_line(db: Database, tmp_path: Path, source: str) -> None:
    ids = ror_ids(5) if source == "ror" else arxiv_ids(5)
    objects, name = _lines(source, ids)
    lines = json_lines(objects).splitlines(keepends=True)
    marker = ids[1] if source == "ror" else f"Paper {ids[1]}"
    lines[1] = lines[1].replace(marker.encode(), marker.encode() + BAD_BYTE)
    lines[3] = lines[3].replace(b'"', b'"\\ud800', 1)  # a lone surrogate, escaped
    (tmp_path / name).write_bytes(b"".join(lines))

    loaded = await _load(db, [tmp_path / name], source, tmp_path)

    good = {ids[0], ids[2], ids[4]}
    if source == "ror":
        assert set(await db.run_rows(INSTITUTIONS)) == good
    else:
        assert await _papers(db) == good
    assert [r["ref"] for r in loaded.rejected] == [f"{tmp_path / name}:2", f"{tmp_path / name}:4"]
    bad_byte, surrogate = loaded.rejected
    assert bad_byte["reason"].startswith("invalid UTF-8 (0xff at byte")
    assert "\\xff" in bad_byte["raw"]
    assert "lone surrogate \\ud800" in surrogate["reason"]
    assert surrogate["source"] == bad_byte["source"] == source


async def test_a_truncated_jsonl_gz_keeps_every_complete_line(db: Database, tmp_path: Path) -> None:
    ids = arxiv_ids(60)
    whole = gzip.compress(json_lines([openalex_work(i, n) for n, i in enumerate(ids)]))
    part = tmp_path / "works-00001.jsonl.gz"
    part.write_bytes(whole[: len(whole) * 2 // 3])
    complete = _readable(part.read_bytes()).split(b"\n")[:-1]
    expected = {json.loads(line)["doi"].rsplit("arxiv.", 1)[1] for line in complete}
    assert 0 < len(expected) < len(ids)

    loaded = await _load(db, [part], "openalex", tmp_path)

    assert await _papers(db) == expected
    cut, truncated = loaded.rejected
    assert cut["ref"] == f"{part}:{len(complete) + 1}"
    assert cut["reason"] == "the line is cut off where the file ends early"
    assert truncated["ref"] == str(part)
    assert truncated["reason"].startswith("the gzip stream ends early")
    assert f"the {len(complete):,} lines before it were read" in truncated["reason"]
    assert truncated["raw"] and _readable(part.read_bytes()).decode().endswith(truncated["raw"])


# --- XML: a bad byte rejects its record; a truncated file keeps its records -----------


def _xml(fmt: str, ids: list[str]) -> str:
    if fmt == "oai":
        return oai_page([oai_record(i) for i in ids])
    return atom_feed([atom_entry(i) for i in ids])


@pytest.mark.parametrize("fmt", ["oai", "atom"])
async def test_a_bad_byte_rejects_its_xml_record(db: Database, tmp_path: Path, fmt: str) -> None:
    ids = arxiv_ids(4)
    page = tmp_path / "page.xml"
    page.write_bytes(_with_bad_byte(_xml(fmt, ids), f"Paper {ids[2]}<"))

    loaded = await _load(db, [tmp_path], "arxiv", tmp_path)

    assert await _papers(db) == {ids[0], ids[1], ids[3]}
    [rejection] = loaded.rejected
    assert ids[2] in rejection["ref"]
    assert rejection["reason"].startswith("invalid UTF-8 (0xff on line")
    assert "Pap\\xffer" in rejection["raw"]


@pytest.mark.parametrize("fmt", ["oai", "atom"])
async def test_a_truncated_xml_file_keeps_its_complete_records(
    db: Database, tmp_path: Path, fmt: str
) -> None:
    ids = arxiv_ids(5)
    text = _xml(fmt, ids)
    page = tmp_path / "page.xml"
    page.write_text(text[: text.index(f"An abstract of {ids[3]}")])

    loaded = await _load(db, [tmp_path], "arxiv", tmp_path)

    assert await _papers(db) == set(ids[:3])
    [rejection] = loaded.rejected
    assert rejection["ref"] == str(page)
    assert rejection["reason"].startswith("malformed XML (")
    assert "the 3 whole records before it were read" in rejection["reason"]
    assert rejection["raw"] and rejection["raw"] in page.read_text()


async def test_a_truncated_gzipped_oai_page_keeps_its_complete_records(
    db: Database, tmp_path: Path
) -> None:
    ids = arxiv_ids(200)
    whole = gzip.compress(oai_page([oai_record(i) for i in ids]).encode())
    page = tmp_path / "page.xml.gz"
    page.write_bytes(whole[: len(whole) // 2])
    readable = _readable(page.read_bytes()).decode()
    expected = {i for i in ids if oai_record(i) in readable}

    loaded = await _load(db, [tmp_path], "arxiv", tmp_path)

    assert await _papers(db) == expected
    [rejection] = loaded.rejected
    assert rejection["reason"].startswith("the gzip stream ends early")
    assert "malformed XML" in rejection["reason"]


# --- whole JSON documents --------------------------------------------------------------


async def test_a_bad_byte_rejects_its_record_in_a_json_document(
    db: Database, tmp_path: Path
) -> None:
    rors = ror_ids(4)
    dump = tmp_path / "v2-ror-data.json"
    dump.write_bytes(_with_bad_byte(json.dumps([ror_record(i) for i in rors]), f"y {rors[1]}"))
    ids = arxiv_ids(3)
    page = {"meta": {"count": 3}, "results": [openalex_work(i, n) for n, i in enumerate(ids)]}
    response = tmp_path / "works-page.json"
    response.write_bytes(_with_bad_byte(json.dumps(page), f'r {ids[0]}", "display'))

    loaded = await _load(db, [dump], "ror", tmp_path)
    assert set(await db.run_rows(INSTITUTIONS)) == {rors[0], rors[2], rors[3]}
    [rejection] = loaded.rejected
    assert (rejection["ref"], rejection["source"]) == (f"{dump}#1", "ror")
    assert rejection["reason"].startswith("invalid UTF-8 (byte 0xff")
    assert "\\xff" in rejection["raw"]

    loaded = await _load(db, [response], "openalex", tmp_path)
    assert await _papers(db) == {ids[1], ids[2]}
    assert [r["ref"] for r in loaded.rejected] == [f"{response}#0"]


async def test_a_truncated_json_array_keeps_its_complete_records(
    db: Database, tmp_path: Path
) -> None:
    rors = ror_ids(6)
    text = json.dumps([ror_record(i) for i in rors], indent=1)
    dump = tmp_path / "v2-ror-data.json"
    dump.write_text(text[: text.index(f"University {rors[4]}")])

    loaded = await _load(db, [dump], "ror", tmp_path)

    assert set(await db.run_rows(INSTITUTIONS)) == set(rors[:4])
    [rejection] = loaded.rejected
    assert rejection["ref"] == str(dump)
    assert rejection["reason"].startswith("the JSON array breaks off (")
    assert "the 4 whole records before it were read" in rejection["reason"]


# --- arXiv .abs and ORCID: one record a file --------------------------------------------


async def test_a_bad_byte_rejects_its_abs_file_and_latin1_still_reads(
    db: Database, tmp_path: Path
) -> None:
    ids = arxiv_ids(4)
    (tmp_path / f"{ids[0]}.abs").write_text(abs_record(ids[0], authors="José García"))
    latin = abs_record(ids[1], authors="Renée Géomètre and Ada Lovelace").encode("latin-1")
    (tmp_path / f"{ids[1]}.abs").write_bytes(latin)
    damaged = abs_record(ids[2], authors="Zoë Müller and Ada Lovelace")
    (tmp_path / f"{ids[2]}.abs").write_bytes(_with_bad_byte(damaged, "Müller"))
    (tmp_path / f"{ids[3]}.abs.gz").write_bytes(gzip.compress(abs_record(ids[3]).encode())[:-12])

    loaded = await _load(db, [tmp_path], "arxiv", tmp_path)

    assert await _papers(db) == {ids[0], ids[1]}
    refs = {Path(r["ref"]).name: r for r in loaded.rejected}
    assert set(refs) == {f"{ids[2]}.abs", f"{ids[3]}.abs.gz"}
    assert refs[f"{ids[2]}.abs"]["reason"].startswith("invalid UTF-8 (0xff at byte")
    assert "Zoë Mü\\xffller" in refs[f"{ids[2]}.abs"]["raw"]
    assert refs[f"{ids[3]}.abs.gz"]["reason"].startswith("the gzip stream ends early")


async def test_a_bad_byte_rejects_its_orcid_record(db: Database, tmp_path: Path) -> None:
    orcids = orcid_ids(4)
    (tmp_path / "a.json").write_text(json.dumps(orcid_json(orcids[0], "Ada", "Lovelace")))
    (tmp_path / "b.xml").write_text(orcid_xml(orcids[1], "Alan", "Turing"))
    xml = orcid_xml(orcids[2], "Grace", "Hopper")
    (tmp_path / "c.xml").write_bytes(_with_bad_byte(xml, "Hopper"))
    record = json.dumps(orcid_json(orcids[3], "Edsger", "Dijkstra"))
    (tmp_path / "d.json").write_bytes(_with_bad_byte(record, "Dijkstra"))

    loaded = await _load(db, [tmp_path], "orcid", tmp_path)

    assert set(await db.run_rows(ORCIDS)) == {orcids[0], orcids[1]}
    refs = {Path(r["ref"]).name: r["reason"] for r in loaded.rejected}
    assert set(refs) == {"c.xml", "d.json"}
    assert all(reason.startswith("invalid UTF-8") for reason in refs.values())


# --- files that hold no data, or another format's -------------------------------------


async def test_empty_and_html_xml_files_are_reported_and_skipped(
    db: Database, tmp_path: Path
) -> None:
    ids = arxiv_ids(2)
    (tmp_path / "page-1.xml").write_text(oai_page([oai_record(i) for i in ids]))
    (tmp_path / "page-2.xml").write_text("")
    (tmp_path / "page-3.xml").write_text("<!DOCTYPE html>\n<html><body>503 Service Unavailable")

    loaded = await _load(db, [tmp_path], "arxiv", tmp_path)

    assert await _papers(db) == set(ids)
    refs = {Path(r["ref"]).name: r["reason"] for r in loaded.rejected}
    formats = "arXiv .abs, arXiv OAI-PMH XML, arXiv Atom XML or arXiv metadata snapshot JSON"
    assert refs == {
        "page-2.xml": f"unrecognised file: empty, not {formats}",
        "page-3.xml": f"unrecognised file: an HTML page, not {formats} (an error page "
        "saved in its place?)",
    }
    assert "format=" not in " ".join(refs.values())


async def test_a_folder_is_read_only_for_files_of_its_format(db: Database, tmp_path: Path) -> None:
    rors = ror_ids(3)
    (tmp_path / "ror-records-01.jsonl").write_bytes(json_lines([ror_record(i) for i in rors]))
    (tmp_path / "README.txt").write_text("ROR records, one a line.\n")
    (tmp_path / "manifest.tsv").write_text(
        "ror_id\tpart_file\n" + "".join(f"{i}\t01\n" for i in rors)
    )
    works = json_lines([openalex_work(i, n) for n, i in enumerate(arxiv_ids(2))])
    (tmp_path / "works.jsonl").write_bytes(works)

    loaded = await _load(db, [tmp_path], "ror", tmp_path)

    assert set(await db.run_rows(INSTITUTIONS)) == set(rors)
    assert loaded.rejected == []
    assert await _papers(db) == set()
    skipped = {file.path.name: file.reason for file in loaded.skipped}
    assert skipped == {
        "README.txt": "its name does not end in .json, .jsonl, .ndjson",
        "manifest.tsv": "its name does not end in .json, .jsonl, .ndjson",
        "works.jsonl": "it holds OpenAlex JSON, not ROR JSON",
    }


# --- the command line: what was skipped, and an exit status that tells ------------------

ROOT = Path(__file__).resolve().parents[2]


def _cli(settings: Settings, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "NEO4J_URI": settings.uri,
        "NEO4J_PASSWORD": settings.neo4j_password.reveal(),
        "SCHOLARGRAPH_HOME": str(home),
        "COLUMNS": "200",
    }
    return subprocess.run(
        [sys.executable, "-m", "scholargraph", "load", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.usefixtures("db")
def test_the_exit_status_tells_clean_loads_rejections_and_failures(
    schema_ready: Settings, tmp_path: Path
) -> None:
    clean, damaged = tmp_path / "clean", tmp_path / "damaged"
    clean.mkdir()
    damaged.mkdir()
    ids = arxiv_ids(3)
    (clean / "page.xml").write_text(oai_page([oai_record(i) for i in ids[:2]]))
    (damaged / "page.xml").write_bytes(_with_bad_byte(oai_page([oai_record(ids[2])]), "Paper"))
    (damaged / "empty.xml").write_text("")
    report = tmp_path / "rejected.jsonl"

    done = _cli(schema_ready, tmp_path, "arxiv", "--files", str(clean), "--report", str(report))
    assert done.returncode == 0, done.stderr
    assert report.read_text() == ""

    done = _cli(schema_ready, tmp_path, "arxiv", "--files", str(damaged), "--report", str(report))
    assert done.returncode == EXIT_REJECTED, done.stderr
    assert "2 rejected records and files" in done.stdout
    assert [json.loads(line)["ref"] for line in report.read_text().splitlines()] == [
        str(damaged / "empty.xml"),
        f"oai:arXiv.org:{ids[2]}",
    ]
    assert "Traceback" not in done.stderr and "format=" not in done.stdout + done.stderr

    done = _cli(schema_ready, tmp_path, "arxiv", "--files", str(tmp_path / "missing"))
    assert done.returncode not in (0, EXIT_REJECTED)
    assert "neither a file nor a folder" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.usefixtures("db")
def test_load_ror_lists_the_files_beside_the_dump_as_skipped(
    schema_ready: Settings, tmp_path: Path
) -> None:
    dump = tmp_path / "ror-data"
    dump.mkdir()
    rors = ror_ids(3)
    (dump / "ror-v2-records-01.jsonl").write_bytes(json_lines([ror_record(i) for i in rors]))
    (dump / "README.txt").write_text("ROR records, one a line.\n")
    (dump / "manifest.tsv").write_text("ror_id\tpart_file\n")

    done = _cli(schema_ready, tmp_path, "ror", "--files", str(dump), "--json")

    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["ror"]
    assert (summary["institutions"], summary["rejected"]) == (3, 0)
    assert summary["skipped_files"] == [
        f"{dump / name}: its name does not end in .json, .jsonl, .ndjson"
        for name in ("README.txt", "manifest.tsv")
    ]


# --- recorded source files, cut or damaged here ------------------------------------------


@pytest.mark.shared
def test_shared_ror_dump_folder_reads_without_rejections(shared_data: Path) -> None:
    folder = shared_data / "ror" / "ror-records-v2-latest"
    skipped: list[SkippedFile] = []
    batches = [b for _, b in iter_bulk_files([folder], source="ror", on_skip=skipped.append)]
    assert [r for b in batches for r in b.rejected] == []
    assert sum(len(b.institutions) for b in batches) == 13503
    assert sorted(file.path.name for file in skipped) == ["README.txt", "manifest.tsv"]


@pytest.mark.shared
async def test_shared_truncated_ror_part_keeps_its_complete_records(
    db: Database, shared_data: Path, tmp_path: Path
) -> None:
    original = shared_data / "ror" / "ror-records-v2-latest" / "ror-v2-records-05.jsonl"
    whole = gzip.compress(original.read_bytes())
    part = tmp_path / "ror-v2-records-05.jsonl.gz"
    part.write_bytes(whole[: len(whole) // 3])
    complete = _readable(part.read_bytes()).split(b"\n")[:-1]
    expected = {json.loads(line)["id"].rsplit("/", 1)[1] for line in complete}
    assert 100 < len(expected) < 1181

    loaded = await _load(db, [part], "ror", tmp_path)

    assert set(await db.run_rows(INSTITUTIONS)) == expected
    assert [r["ref"] for r in loaded.rejected] == [f"{part}:{len(complete) + 1}", str(part)]
    assert loaded.rejected[1]["reason"].startswith("the gzip stream ends early")


@pytest.mark.shared
async def test_shared_atom_feed_with_a_bad_byte_and_cut_short(
    db: Database, shared_data: Path, tmp_path: Path
) -> None:
    original = (shared_data / "arxiv" / "arxiv-api-atom" / "atom-xml").glob("q_testing_s0_m15_*")
    data = next(original).read_bytes()
    keys = [p.arxiv_id for p in parse_atom_feed(data).batch.papers]
    titles = re.findall(rb"<entry>.*?<title>(.*?)</title>", data, re.DOTALL)
    assert len(keys) == len(titles) == 15
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "feed.xml").write_bytes(data.replace(titles[4], titles[4][:2] + BAD_BYTE, 1))

    loaded = await _load(db, [damaged], "arxiv", tmp_path)
    assert await _papers(db) == set(keys) - {keys[4]}
    [rejection] = loaded.rejected
    assert keys[4] in rejection["ref"] and rejection["reason"].startswith("invalid UTF-8")

    await db.run(CLEAR_DATA)
    cut = tmp_path / "cut"
    cut.mkdir()
    entries = [m.end() for m in re.finditer(rb"</entry>", data)]
    (cut / "feed.xml").write_bytes(data[: entries[9] + 40])
    loaded = await _load(db, [cut], "arxiv", tmp_path)
    assert await _papers(db) == set(keys[:10])
    assert "the 10 whole records before it were read" in loaded.reasons()[0]


@pytest.mark.shared
def test_shared_abs_and_s2orc_files_with_bad_bytes(shared_data: Path, tmp_path: Path) -> None:
    abs_file = shared_data / "arxiv" / "arxiv-browse" / "abs_files" / "ftp" / "arxiv"
    text = (abs_file / "papers" / "0704" / "0704.0001.abs").read_bytes()
    (tmp_path / "0704.0001.abs").write_bytes(text.replace(b"Bal\\'azs", b"Bal\xc3\xa1\xffzs", 1))
    [(_, batch)] = list(iter_bulk_files([tmp_path / "0704.0001.abs"], source="arxiv"))
    assert batch.papers == [] and batch.rejected[0].reason.startswith("invalid UTF-8 (0xff")

    sample = shared_data / "semanticscholar" / "s2orc-sample" / "metadata" / "sample.jsonl"
    lines = sample.read_bytes().splitlines(keepends=True)
    damaged = [10, 500, 999]
    for index in damaged:
        lines[index] = lines[index].replace(b'"title": "', b'"title": "\xc3', 1)
    (tmp_path / "sample.jsonl").write_bytes(b"".join(lines))
    clean = [b for _, b in iter_bulk_files([sample], source="s2")]
    read = [b for _, b in iter_bulk_files([tmp_path / "sample.jsonl"], source="s2")]
    refs = [r.ref for b in read for r in b.rejected if r.reason.startswith("invalid UTF-8")]
    assert refs == [f"{tmp_path / 'sample.jsonl'}:{index + 1}" for index in damaged]
    bad_corpus_ids = {json.loads(lines[i].decode("utf-8", "replace"))["paper_id"] for i in damaged}
    expected = {p.s2_corpus_id for b in clean for p in b.papers} - {int(i) for i in bad_corpus_ids}
    assert {p.s2_corpus_id for b in read for p in b.papers} == expected
