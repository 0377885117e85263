from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from scholargraph.graph import taxonomy
from scholargraph.graph.errors import BadInput

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "arxiv"
LEGACY = [
    "alg-geom",
    "solv-int",
    "cmp-lg",
    "funct-an",
    "q-alg",
    "dg-ga",
    "mtrl-th",
    "supr-con",
    "chem-ph",
    "ao-sci",
    "atom-ph",
    "bayes-an",
    "comp-gas",
    "patt-sol",
    "plasm-ph",
    "acc-phys",
    "adap-org",
    "chao-dyn",
]


@pytest.mark.parametrize(
    ("code", "archive", "archive_name", "group"),
    [
        ("cs.DC", "cs", "Computer Science", "Computer Science"),
        ("hep-th", "hep-th", "High Energy Physics - Theory", "Physics"),
        ("astro-ph.CO", "astro-ph", "Astrophysics", "Physics"),
        ("math.CO", "math", "Mathematics", "Mathematics"),
        ("physics.optics", "physics", "Physics", "Physics"),
        ("cond-mat.str-el", "cond-mat", "Condensed Matter", "Physics"),
        ("q-bio.NC", "q-bio", "Quantitative Biology", "Quantitative Biology"),
        ("q-fin.ST", "q-fin", "Quantitative Finance", "Quantitative Finance"),
        ("stat.ML", "stat", "Statistics", "Statistics"),
        ("eess.SP", "eess", "Electrical Engineering and Systems Science", taxonomy.EESS),
        ("econ.EM", "econ", "Economics", "Economics"),
        ("nlin.CD", "nlin", "Nonlinear Sciences", "Physics"),
    ],
)
def test_lookup_places_category_in_archive_and_group(
    code: str, archive: str, archive_name: str, group: str
) -> None:
    info = taxonomy.lookup(code)
    assert (info.code, info.archive, info.archive_name, info.group) == (
        code,
        archive,
        archive_name,
        group,
    )
    assert info.active


def test_names_of_some_categories() -> None:
    assert taxonomy.lookup("cs.DC").name == "Distributed, Parallel, and Cluster Computing"
    assert taxonomy.lookup("cs.LG").name == "Machine Learning"
    assert taxonomy.lookup("hep-ex").name == "High Energy Physics - Experiment"
    assert taxonomy.lookup("physics.data-an").name == "Data Analysis, Statistics and Probability"


def test_there_are_155_active_categories_in_eight_groups() -> None:
    active = [info for info in taxonomy.all_categories() if info.active]
    assert len(active) == 155
    assert {info.group for info in taxonomy.all_categories()} == set(taxonomy.GROUPS)
    assert len(taxonomy.GROUPS) == 8


@pytest.mark.parametrize("code", LEGACY)
def test_legacy_categories_are_known_inactive_archives_with_a_successor(code: str) -> None:
    info = taxonomy.lookup(code)
    assert not info.active
    assert info.archive == code
    assert taxonomy.lookup_archive(code).active is False
    successor = taxonomy.successor(code)
    assert successor is not None
    assert taxonomy.lookup(successor).active


def test_legacy_archives_sit_in_the_group_of_their_subject() -> None:
    assert taxonomy.lookup("alg-geom").group == "Mathematics"
    assert taxonomy.lookup("q-alg").group == "Mathematics"
    assert taxonomy.lookup("cmp-lg").group == "Computer Science"
    assert taxonomy.lookup("chao-dyn").group == "Physics"
    assert taxonomy.successor("cmp-lg") == "cs.CL"
    assert taxonomy.successor("cs.CL") is None


def test_unsplit_archive_codes_are_legacy_categories() -> None:
    assert not taxonomy.lookup("astro-ph").active
    assert taxonomy.lookup("astro-ph").archive == "astro-ph"
    assert not taxonomy.lookup("cond-mat").active


@pytest.mark.parametrize(
    ("alias", "listed_as"),
    [
        ("math.IT", "cs.IT"),
        ("math.MP", "math-ph"),
        ("stat.TH", "math.ST"),
        ("q-fin.EC", "econ.GN"),
        ("cs.SY", "eess.SY"),
        ("cs.NA", "math.NA"),
    ],
)
def test_aliases_map_to_the_code_arxiv_lists_under(alias: str, listed_as: str) -> None:
    assert taxonomy.canonical(alias) == listed_as
    assert taxonomy.canonical(listed_as) == listed_as
    assert taxonomy.aliases_of(listed_as) == (alias,)
    assert taxonomy.aliases_of(alias) == (listed_as,)


def test_categories_without_alias() -> None:
    assert taxonomy.canonical("hep-th") == "hep-th"
    assert taxonomy.aliases_of("cs.DC") == ()


def test_codes_are_case_sensitive_and_the_error_suggests_the_right_case() -> None:
    assert taxonomy.is_known("cs.DC")
    assert not taxonomy.is_known("CS.DC")
    assert not taxonomy.is_known("cs.dc")
    with pytest.raises(BadInput, match=r"did you mean 'cs\.DC'"):
        taxonomy.lookup("cs.dc")


def test_unknown_code_error_suggests_close_codes() -> None:
    with pytest.raises(BadInput, match="'hep-th'"):
        taxonomy.lookup("hep_th")
    with pytest.raises(BadInput, match="not an arXiv category"):
        taxonomy.lookup("underwater-basket-weaving")
    with pytest.raises(BadInput):
        taxonomy.canonical("nope.XX")
    with pytest.raises(BadInput, match="not an arXiv archive"):
        taxonomy.lookup_archive("cs.DC")


def test_category_info_is_frozen() -> None:
    info = taxonomy.lookup("math.CO")
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.name = "Something else"  # type: ignore[misc]


def test_every_category_belongs_to_a_known_archive_with_the_same_group() -> None:
    for info in taxonomy.all_categories():
        archive = taxonomy.lookup_archive(info.archive)
        assert (archive.name, archive.group) == (info.archive_name, info.group)
        prefix = info.code.split(".", 1)[0]
        assert prefix == info.archive


def _rows_of(table: str, dump: str) -> list[tuple[str, ...]]:
    statement = re.search(rf"INSERT INTO `{table}` VALUES (.*?);\n", dump, re.S)
    assert statement, f"{table} not in the dump"
    return re.findall(
        r"\('((?:[^'\\]|\\.)*)','((?:[^'\\]|\\.)*)',(\d+),(\d+),'((?:[^'\\]|\\.)*)'",
        statement.group(1),
    )


@pytest.mark.shared
def test_every_category_of_arxivs_own_database_is_known() -> None:
    dump = (SHARED / "arxiv-browse" / "db" / "sql" / "listings_and_docs.sql").read_text("utf-8")
    rows = _rows_of("arXiv_categories", dump)
    assert len(rows) == 194
    jsonl = SHARED / "arxiv-oaipmh-testdb" / "arXiv_categories.jsonl"
    records = [json.loads(line) for line in jsonl.read_text("utf-8").splitlines()]
    from_jsonl = {(r["archive"], r["subject_class"], r["category_name"]) for r in records}
    assert from_jsonl == {(archive, subject, name) for archive, subject, _, _, name in rows}

    # arXiv renamed cs.LG from "Learning" to "Machine Learning"; the dump predates that.
    renamed = {("cs.LG", "Learning"): "Machine Learning"}
    for archive, subject, definitive, _active, name in rows:
        if archive == "test":  # arXiv's internal test archive, not a subject area
            continue
        code = f"{archive}.{subject}" if subject and subject != "none" else archive
        if definitive == "0":  # an archive-level row such as "cs" or "math"
            assert taxonomy.is_archive(code), code
            assert taxonomy.lookup_archive(code).name == name
            continue
        assert taxonomy.is_known(code), code
        assert taxonomy.lookup(code).name == renamed.get((code, name), name), code


@pytest.mark.shared
def test_archive_groups_match_arxivs_own_database() -> None:
    folder = SHARED / "arxiv-oaipmh-testdb"
    groups = {
        record["group_id"]: record["group_name"]
        for record in map(json.loads, (folder / "arXiv_groups.jsonl").read_text().splitlines())
    }
    for record in map(json.loads, (folder / "arXiv_archives.jsonl").read_text().splitlines()):
        if record["archive_id"] == "test":
            continue
        archive = taxonomy.lookup_archive(record["archive_id"])
        assert archive.name == record["archive_name"]
        assert archive.group == groups[record["in_group"]]
