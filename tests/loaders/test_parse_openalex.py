"""OpenAlex parsers: works, authors, institutions, list pages, snapshot files."""

from __future__ import annotations

import gzip
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.loaders.parse.files import detect_format, iter_bulk_files
from scholargraph.graph.loaders.parse.openalex import (
    abstract_from_inverted_index,
    parse_openalex_author,
    parse_openalex_institution,
    parse_openalex_payload,
    parse_openalex_work,
)
from scholargraph.graph.records import InstitutionRef

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
OPENALEX = SHARED / "openalex"
DAY = date(2026, 1, 15)

MIT = {
    "id": "https://openalex.org/I63966007",
    "display_name": "Massachusetts Institute of Technology",
    "ror": "https://ror.org/042nb2s44",
    "country_code": "US",
    "type": "education",
}


def authorship(
    position: str, author_id: str, name: str | None, raw: str | None, **extra: Any
) -> dict[str, Any]:
    return {
        "author_position": position,
        "author": {"id": f"https://openalex.org/{author_id}", "display_name": name, "orcid": None},
        "raw_author_name": raw,
        "institutions": [],
        "raw_affiliation_strings": [],
        **extra,
    }


WORK: dict[str, Any] = {
    "id": "https://openalex.org/W4318069245",
    "doi": "https://doi.org/10.48550/arxiv.2301.08658",
    "title": "ATP: Adaptive <i>Tensor</i> Parallelism",
    "display_name": "ATP: Adaptive Tensor Parallelism",
    "publication_year": 2023,
    "publication_date": "2023-01-20",
    "cited_by_count": 11,
    "updated_date": "2025-10-11T01:57:29.200816",
    "is_authors_truncated": False,
    "abstract_inverted_index": {"Tensor": [1], "parallelism": [2], "Adaptive": [0]},
    "locations": [],
    "authorships": [
        authorship(
            "first",
            "A5000000001",
            "Shenggan Cheng",
            "Shenggan Cheng",
            institutions=[MIT, {"id": None, "display_name": None, "ror": None}],
            raw_affiliation_strings=["MIT, Cambridge, MA", "MIT, Cambridge, MA"],
        ),
        authorship("middle", "A9999999999", "NULL AUTHOR_ID", None),
        authorship("middle", "A9999999999", "NULL AUTHOR_ID", "Jiangsu Du"),
        {
            **authorship("last", "A5000000004", "Ming\u2010Wei Chang", "Ming-Wei Chang"),
            "author": {
                "id": "https://openalex.org/A5000000004",
                "display_name": "Ming\u2010Wei Chang",
                "orcid": "https://orcid.org/0000-0002-1825-0097",
            },
        },
    ],
}


def test_parse_openalex_work() -> None:
    paper = parse_openalex_work(WORK)
    assert (paper.source, paper.retrieved) == ("openalex", date(2025, 10, 11))  # updated_date
    assert paper.openalex_id == "W4318069245"
    assert (paper.arxiv_id, paper.key) == ("2301.08658", "2301.08658")
    assert paper.doi == "10.48550/arxiv.2301.08658"
    assert paper.title == "ATP: Adaptive Tensor Parallelism"
    assert paper.abstract == "Adaptive Tensor parallelism"
    assert (paper.year, paper.published, paper.citation_count) == (2023, date(2023, 1, 20), 11)
    assert not paper.authors_truncated
    # The nameless null author is left out; the others keep their printed positions.
    assert [(a.position, a.raw_name, a.author.openalex_ids) for a in paper.authorships] == [
        (1, "Shenggan Cheng", ("A5000000001",)),
        (3, "Jiangsu Du", ()),
        (4, "Ming-Wei Chang", ("A5000000004",)),
    ]
    first = paper.authorships[0]
    assert first.institutions == (
        InstitutionRef("042nb2s44", "I63966007", "Massachusetts Institute of Technology", "US"),
    )
    assert first.raw_affiliations == ("MIT, Cambridge, MA",)
    chang = paper.authorships[2].author
    assert (chang.name, chang.orcid, chang.source) == (
        "Ming-Wei Chang",
        "0000-0002-1825-0097",
        "openalex",
    )


def test_parse_openalex_work_arxiv_id_from_locations() -> None:
    merged = {
        **WORK,
        "doi": "https://doi.org/10.1162/99608F92.18DA72DB",
        "locations": [
            {"landing_page_url": "https://doi.org/10.1162/99608f92.18da72db"},
            {"landing_page_url": None, "pdf_url": "http://arxiv.org/pdf/2208.03461v2.pdf"},
        ],
    }
    paper = parse_openalex_work(merged, retrieved=DAY)
    assert (paper.arxiv_id, paper.doi, paper.retrieved) == (
        "2208.03461",
        "10.1162/99608f92.18da72db",
        DAY,
    )
    no_arxiv = parse_openalex_work({**merged, "locations": [], "is_authors_truncated": True})
    assert (no_arxiv.arxiv_id, no_arxiv.key) == (None, "doi:10.1162/99608f92.18da72db")
    assert no_arxiv.authors_truncated


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"title": None, "display_name": "", "authorships": []}, "no title"),
        ({"id": "https://openalex.org/A5000000001"}, "not a work id"),
        ({"id": None}, "not a work id"),
    ],
)
def test_parse_openalex_work_rejects(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecordRejected, match=reason):
        parse_openalex_work({**WORK, **change})


def test_an_untitled_work_keeps_its_authorships_and_ids() -> None:
    paper = parse_openalex_work(
        {**WORK, "title": "", "display_name": "", "ids": {"mag": "2963341956"}}
    )
    assert (paper.title, paper.openalex_id, paper.mag_id) == ("", "W4318069245", "2963341956")
    assert [a.author.openalex_ids for a in paper.authorships] == [
        ("A5000000001",),
        (),
        ("A5000000004",),
    ]
    assert paper.authorships[2].author.orcid == "0000-0002-1825-0097"


def test_last_first_names_are_shown_first_last_and_kept_as_printed() -> None:
    work = {
        **WORK,
        "authorships": [
            authorship("first", "A5032644449", "Hugo Touvron", "Touvron, Hugo"),
            authorship("last", "A5000000009", "Bond, Ivan", "Bond, Ivan"),
            authorship("last", "A9999999999", None, "Lovelace, Ada"),
        ],
    }
    touvron, bond, lovelace = parse_openalex_work(work).authorships
    assert (touvron.raw_name, touvron.author.name) == ("Touvron, Hugo", "Hugo Touvron")
    assert touvron.author.alt_names == ("Touvron, Hugo",)
    assert (bond.raw_name, bond.author.name) == ("Bond, Ivan", "Ivan Bond")
    assert (lovelace.raw_name, lovelace.author.name) == ("Lovelace, Ada", "Ada Lovelace")
    author, _ = parse_openalex_author({**AUTHOR, "display_name": "LECUN, Yann"})
    assert author.name == "Yann Lecun"
    assert "LECUN, Yann" in author.alt_names


def test_abstract_from_inverted_index_ignores_junk() -> None:
    assert abstract_from_inverted_index(None) is None
    assert abstract_from_inverted_index({}) is None
    assert abstract_from_inverted_index({"b": [1], "a": [0, "x"], "c": None}) == "a b"


AUTHOR: dict[str, Any] = {
    "id": "https://openalex.org/A5001226970",
    "orcid": None,
    "ids": {"orcid": "https://orcid.org/0000-0002-1825-0097"},
    "display_name": "Yann LeCun",
    "display_name_alternatives": ["Y. LeCun", "Yann LeCun", "Yann Le Cun"],
    "works_count": 400,
    "cited_by_count": 300000,
    "summary_stats": {"h_index": 130, "i10_index": 300},
    "last_known_institutions": [MIT],
    "affiliations": [
        {"institution": MIT, "years": [2023, 2019, 2021]},
        {
            "institution": {"id": "https://openalex.org/I57206974", "display_name": "NYU"},
            "years": [],
        },
        {"institution": {}, "years": [2001]},
    ],
    "updated_date": "2025-01-02T00:00:00",
}


def test_parse_openalex_author_and_affiliations() -> None:
    author, affiliations = parse_openalex_author(AUTHOR)
    assert (author.name, author.openalex_ids, author.orcid) == (
        "Yann LeCun",
        ("A5001226970",),
        "0000-0002-1825-0097",
    )
    assert author.alt_names == ("Y. LeCun", "Yann Le Cun")
    assert (author.h_index, author.paper_count, author.citation_count) == (130, 400, 300000)
    assert author.affiliations == (
        InstitutionRef("042nb2s44", "I63966007", "Massachusetts Institute of Technology", "US"),
    )
    assert author.retrieved == date(2025, 1, 2)
    assert [(a.institution.openalex_id, a.first_year, a.last_year) for a in affiliations] == [
        ("I63966007", 2019, 2023),
        ("I57206974", None, None),
    ]
    assert all(a.source == "openalex" and a.author == author for a in affiliations)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"id": "https://openalex.org/A9999999999"}, "null author"),
        ({"display_name": "Deleted Author", "works_count": 0}, "deleted author stub"),
        ({"display_name": None}, "no display_name"),
    ],
)
def test_parse_openalex_author_rejects(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecordRejected, match=reason):
        parse_openalex_author({**AUTHOR, **change})


def test_parse_openalex_institution() -> None:
    institution = parse_openalex_institution(
        {
            **MIT,
            "ror": None,
            "ids": {"ror": "https://ror.org/042nb2s44"},
            "country_code": None,
            "display_name_acronyms": ["MIT"],
            "display_name_alternatives": ["Massachusetts Institute of Technology", "Institut MIT"],
            "geo": {"city": "Cambridge", "country_code": "US"},
            "associated_institutions": [
                {"ror": "https://ror.org/01a4ae123", "relationship": "child"},
                {"ror": "https://ror.org/02b5bf456", "relationship": "parent"},
                {"ror": None, "relationship": "related"},
                {"ror": "https://ror.org/03c6cg789", "relationship": "successor"},
            ],
        },
        retrieved=DAY,
    )
    assert (institution.ror_id, institution.openalex_id, institution.source) == (
        "042nb2s44",
        "I63966007",
        "openalex",
    )
    assert (institution.acronyms, institution.aliases) == (("MIT",), ("Institut MIT",))
    assert (institution.country_code, institution.city, institution.types) == (
        "US",
        "Cambridge",
        ("education",),
    )
    assert (institution.parent_ids, institution.child_ids, institution.related_ids) == (
        ("02b5bf456",),
        ("01a4ae123",),
        (),
    )


def test_parse_openalex_payload_pages_and_errors() -> None:
    page = parse_openalex_payload(
        {
            "meta": {"count": 3, "page": None, "per_page": 2, "next_cursor": "IlsxNjA5"},
            "results": [WORK, AUTHOR, MIT, {"id": "https://openalex.org/S4306400194"}],
        }
    )
    assert (page.count, page.per_page, page.next_cursor) == (3, 2, "IlsxNjA5")
    assert (len(page.batch.papers), len(page.batch.authors), len(page.batch.institutions)) == (
        1,
        1,
        1,
    )
    assert [r.reason for r in page.batch.rejected] == ["not a work, author or institution"]
    trimmed = parse_openalex_payload(
        {"ids": {"openalex": "https://openalex.org/W1"}, "display_name": "T"}
    )
    assert trimmed.batch.papers[0].openalex_id == "W1"  # select= responses keep the id in ids
    error = parse_openalex_payload(
        {"error": "Invalid query parameters error.", "message": "xyz is not valid"}
    )
    assert error.batch.rejected[0].reason == "OpenAlex API error: xyz is not valid"
    assert parse_openalex_payload([1]).batch.rejected[0].reason == "not a JSON object"


def test_bulk_openalex_snapshot_part(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "works" / "updated_date=2025-10-11"
    folder.mkdir(parents=True)
    part = folder / "part_000.gz"
    with gzip.open(part, "wt", encoding="utf-8") as handle:
        for index in range(5):
            handle.write(json.dumps({**WORK, "id": f"https://openalex.org/W{index + 1}"}) + "\n")
        handle.write('{"id": "https://openalex.org/W9", "title": \n')
    (tmp_path / "data" / "works" / "manifest").write_text("{}")
    assert detect_format(part) == "openalex"
    chunks = list(iter_bulk_files([tmp_path / "data"], chunk_size=4))
    assert [(path.name, len(b.papers), len(b.rejected)) for path, b in chunks] == [
        ("part_000.gz", 4, 0),
        ("part_000.gz", 1, 1),
    ]
    assert chunks[1][1].rejected[0].ref.endswith("part_000.gz:6")


# --- recorded data ------------------------------------------------------------------

EXPECTED_REASONS = (
    "not a work, author or institution",  # sources, concepts, topics, cache indexes …
    "deleted author stub",
    "no title",  # select=ids responses: no title, no authorships
    "OpenAlex API error:",
)


def _recorded_payloads() -> list[tuple[str, object]]:
    payloads: list[tuple[str, object]] = [
        (str(path.relative_to(OPENALEX)), json.loads(path.read_text()))
        for path in sorted(OPENALEX.rglob("*.json"))
    ]
    for path in sorted(OPENALEX.rglob("*.yml")):
        for interaction in yaml.safe_load(path.read_text())["http_interactions"]:
            payloads.append((path.name, json.loads(interaction["response"]["body"]["string"])))
    return payloads


def _usable_works(payload: object) -> int:
    """Work objects with an id and a non-empty title or authorships, counted straight from
    the payload."""
    if not isinstance(payload, dict):
        return 0
    if "meta" in payload:
        return sum(_usable_works(item) for item in payload.get("results") or [])
    work_id = str(payload.get("id") or (payload.get("ids") or {}).get("openalex") or "")
    title = (payload.get("title") or payload.get("display_name") or "").strip()
    named = any(
        (a.get("author") or {}).get("display_name") or a.get("raw_author_name")
        for a in payload.get("authorships") or []
    )
    return int(work_id.rsplit("/", 1)[-1].startswith("W") and (bool(title) or named))


@pytest.mark.shared
def test_shared_openalex_files_parse_with_expected_rejections() -> None:
    papers = usable = untitled = authors = institutions = 0
    for name, payload in _recorded_payloads():
        batch = parse_openalex_payload(payload).batch
        papers += len(batch.papers)
        untitled += sum(not p.title for p in batch.papers)
        usable += _usable_works(payload)
        authors += len(batch.authors)
        institutions += len(batch.institutions)
        for rejection in batch.rejected:
            assert rejection.reason.startswith(EXPECTED_REASONS), (name, rejection)
    assert papers == usable > 600  # every work with a title or authors parses
    assert untitled >= 1  # BERT's NAACL record among them
    assert authors > 100
    assert institutions > 150


@pytest.mark.shared
def test_shared_yann_lecun_and_ming_wei_chang() -> None:
    page = json.loads(
        (
            OPENALEX
            / "mearman-academic-explorer-cache"
            / "works"
            / "queries"
            / "page__3D__1__26__per_page__3D__50.json"
        ).read_text()
    )
    works = parse_openalex_payload(page).batch.papers
    [deep_learning] = [w for w in works if w.openalex_id == "W2919115771"]
    lecun = deep_learning.authorships[0]
    assert (lecun.position, lecun.raw_name, lecun.author.openalex_ids) == (
        1,
        "Yann LeCun",
        ("A5001226970",),
    )
    assert {i.ror_id for i in lecun.institutions} == {"01zbnvs85", "0190ak572"}
    cassette = yaml.safe_load(
        (OPENALEX / "rkrug-openalexPro" / "fixtures" / "vcr" / "oa_snowball.yml").read_text()
    )
    bodies = [i["response"]["body"]["string"] for i in cassette["http_interactions"]]
    assert any("Ming\\u2010Wei Chang" in body for body in bodies)  # as OpenAlex sends it
    names = {
        a.author.name
        for body in bodies
        for paper in parse_openalex_payload(json.loads(body)).batch.papers
        for a in paper.authorships
    }
    assert len(names) > 100
    assert not [n for n in names if "\u2010" in n or "\u2011" in n]
    # Ming-Wei Chang is an author of BERT's NAACL record, whose title is empty: the record
    # keeps its authorships and ids (with the ASCII-hyphen name) and waits for a title.
    [bert] = [
        work
        for body in bodies
        for work in json.loads(body).get("results", [])
        if work["id"] == "https://openalex.org/W2963341956"
    ][:1]
    untitled = parse_openalex_work(bert)
    assert (untitled.title, untitled.doi, untitled.mag_id) == (
        "",
        "10.18653/v1/n19-1423",
        "2963341956",
    )
    assert [a.author.name for a in untitled.authorships] == [
        "Jacob Devlin",
        "Ming-Wei Chang",
        "Kenton Lee",
        "Kristina Toutanova",
    ]
    chang = [a.author for a in untitled.authorships if a.author.openalex_ids == ("A5076904467",)]
    assert [(c.name, c.orcid) for c in chang] == [("Ming-Wei Chang", "0000-0002-0137-8895")]


@pytest.mark.shared
def test_shared_null_author_deleted_stub_and_hyperauthor_work() -> None:
    works = parse_openalex_payload(
        json.loads((OPENALEX / "peneira" / "works.json").read_text())
    ).batch
    assert len(works.papers) == 49
    assert not works.rejected
    [with_nulls] = [w for w in works.papers if w.openalex_id == "W4206064211"]
    assert [a.position for a in with_nulls.authorships] == [1, 3, 4, 5]  # 2, 6, 7 are null authors
    assert "2304.04761" in {w.arxiv_id for w in works.papers}  # from the arXiv DataCite DOI
    merged = next(w for w in works.papers if w.openalex_id == "W4307407919")
    assert (merged.arxiv_id, merged.doi) == ("2208.03461", "10.1162/99608f92.18da72db")
    vitamins = OPENALEX / "b-vitamins-openalex-python"
    stub = parse_openalex_payload(json.loads((vitamins / "A5317838346.json").read_text())).batch
    assert [r.reason for r in stub.rejected] == ["deleted author stub"]
    assert not stub.authors
    [gw170104] = parse_openalex_payload(
        json.loads((vitamins / "W-api-response.json").read_text())
    ).batch.papers
    assert gw170104.title.startswith("GW170104")
    assert [(a.position, a.raw_name) for a in gw170104.authorships] == [(1, "B. P. Abbott")]
    assert gw170104.authorships[0].institutions[0].ror_id == "05dxps055"
    assert gw170104.doi == "10.1103/physrevlett.118.091101"


@pytest.mark.shared
def test_shared_author_and_institution_records() -> None:
    cache = OPENALEX / "mearman-academic-explorer-cache"
    priem_batch = parse_openalex_payload(
        json.loads((cache / "authors" / "A5023888391.json").read_text())
    ).batch
    [priem] = priem_batch.authors
    assert (priem.orcid, priem.h_index, priem.openalex_ids) == (
        "0000-0001-6187-6610",
        17,
        ("A5023888391",),
    )
    assert len(priem_batch.affiliations) == 8
    unc = next(a for a in priem_batch.affiliations if a.institution.ror_id == "0130frc33")
    assert (unc.first_year, unc.last_year) == (2010, 2014)
    [institution] = parse_openalex_payload(
        json.loads((cache / "institutions" / "I114027177.json").read_text())
    ).batch.institutions
    assert (institution.ror_id, institution.acronyms, institution.city) == (
        "0130frc33",
        ("UNC",),
        "Chapel Hill",
    )
    assert institution.parent_ids == ("0566a8c54",)
    assert len(institution.child_ids) == 4
    assert len(institution.related_ids) == 7


@pytest.mark.shared
def test_shared_last_first_names_become_first_last_names() -> None:
    """OpenAlex prints raw names "Touvron, Hugo" (LLaMA) and some display names "Bond, Ivan":
    the authorship keeps the printed name, the person is "Hugo Touvron", "Ivan Bond"."""
    printed: dict[str, str] = {}
    for _, payload in _recorded_payloads():
        for paper in parse_openalex_payload(payload).batch.papers:
            for a in paper.authorships:
                printed[a.raw_name] = a.author.name
    commas = {raw: name for raw, name in printed.items() if "," in raw}
    assert len(commas) > 50
    assert commas["Touvron, Hugo"] == "Hugo Touvron"
    assert commas["Bond, Ivan"] == "Ivan Bond"
    assert commas["De La Harpe, Derek"] == "Derek De La Harpe"
    assert not [name for name in printed.values() if "," in name]
