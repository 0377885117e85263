"""Semantic Scholar parsers: Graph API papers and authors, Datasets lines, bulk files."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.identity.names import normalize_part, parse_name
from scholargraph.graph.loaders.parse.files import iter_bulk_files
from scholargraph.graph.loaders.parse.s2 import (
    parse_s2_author,
    parse_s2_dataset_line,
    parse_s2_paper,
    parse_s2_payload,
    parse_s2orc_metadata,
)
from scholargraph.graph.records import InstitutionRef

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
DAY = date(2026, 1, 15)
SHA = "0123456789abcdef0123456789abcdef01234567"

PAPER: dict[str, Any] = {
    "paperId": SHA,
    "corpusId": 255999,
    "externalIds": {"ArXiv": "2301.08658", "DOI": "10.48550/arXiv.2301.08658", "DBLP": "x/y"},
    "title": "ATP: Adaptive Tensor Parallelism for Foundation&#160;Models",
    "abstract": None,
    "year": 2023,
    "publicationDate": "2023-01-20",
    "citationCount": 5,
    "authors": [
        {"authorId": "2110000001", "name": "Shenggan Cheng"},
        {
            "authorId": "2004394",
            "name": "Ziming Liu",
            "externalIds": {"ORCID": "0009-0009-3355-6770", "DBLP": ["Ziming Liu 0001"]},
            "affiliations": ["National University of Singapore", " "],
            "hIndex": 17,
            "paperCount": 42,
            "citationCount": 900,
        },
        {"authorId": "55", "name": None},
        {"authorId": None, "name": "Jiangsu\u2010Du"},
        {"authorId": "2110000004", "name": "Yang You"},
    ],
}


def test_parse_s2_paper() -> None:
    paper = parse_s2_paper(PAPER, retrieved=DAY)
    assert (paper.source, paper.retrieved) == ("s2", DAY)
    assert paper.key == "2301.08658"
    assert (paper.s2_id, paper.s2_corpus_id) == (SHA, 255999)
    assert paper.doi == "10.48550/arxiv.2301.08658"
    assert paper.title == "ATP: Adaptive Tensor Parallelism for Foundation Models"
    assert (paper.year, paper.published, paper.citation_count) == (2023, date(2023, 1, 20), 5)
    assert paper.abstract is None
    # The nameless third slot is left out; everyone keeps their printed position.
    assert [(a.position, a.raw_name, a.author.s2_ids) for a in paper.authorships] == [
        (1, "Shenggan Cheng", ("2110000001",)),
        (2, "Ziming Liu", ("2004394",)),
        (4, "Jiangsu-Du", ()),
        (5, "Yang You", ("2110000004",)),
    ]
    ziming = paper.authorships[1].author
    assert ziming.orcid == "0009-0009-3355-6770"
    assert ziming.dblp == ("Ziming Liu 0001",)
    assert ziming.affiliations == (InstitutionRef(name="National University of Singapore"),)
    assert (ziming.h_index, ziming.paper_count, ziming.citation_count) == (17, 42, 900)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"title": None, "authors": []}, "no title"),
        ({"title": "   ", "authors": None}, "no title"),
        ({"paperId": None, "externalIds": {"CorpusId": 7}}, "no paperId, DOI or arXiv id"),
    ],
)
def test_parse_s2_paper_rejects(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecordRejected, match=reason):
        parse_s2_paper({**PAPER, **change}, retrieved=DAY)


def test_an_untitled_s2_paper_with_authors_is_kept_with_its_ids() -> None:
    paper = parse_s2_paper(
        {**PAPER, "title": None, "externalIds": {"MAG": "2963341956", "CorpusId": 9}},
        retrieved=DAY,
    )
    assert (paper.title, paper.s2_id, paper.mag_id) == ("", SHA, "2963341956")
    assert len(paper.authorships) == 4


def test_a_name_printed_in_latin_and_greek_is_read_by_its_latin_form() -> None:
    """S2 prints some authors with the Latin and the Greek forms of both names."""
    printed = "Ioannis, Ιωάννης, Kakadiaris, Κακαδιάρης"
    paper = parse_s2_paper(
        {**PAPER, "authors": [{"authorId": "1700000", "name": printed}]}, retrieved=DAY
    )
    [slot] = paper.authorships
    assert slot.raw_name == printed  # the edge keeps it as printed
    assert slot.author.name == "Ioannis Kakadiaris"
    assert slot.author.alt_names == ("Ιωάννης Κακαδιάρης",)
    assert parse_name(slot.author.name) == parse_name(slot.raw_name)
    assert parse_name(slot.raw_name).last == "kakadiaris"


def test_parse_s2_paper_sparse_and_odd_fields() -> None:
    sparse = {
        "paperId": SHA,
        "title": "T",
        "year": "2019",
        "externalIds": {"ArXiv": "not an id", "DOI": "n/a"},
        "authors": None,
        "citationCount": "12",
    }
    paper = parse_s2_paper(sparse, retrieved=DAY)
    assert (paper.arxiv_id, paper.doi, paper.key) == (None, None, f"s2:{SHA}")
    assert (paper.year, paper.citation_count, paper.authorships) == (2019, 12, ())


def test_parse_s2_author_profile() -> None:
    author = parse_s2_author(
        {
            "authorId": "1688882",
            "name": "Yann LeCun",
            "aliases": ["Y. LeCun", "Yann LeCun", "Yann Le Cun"],
            "externalIds": {"ORCID": "not-an-orcid", "DBLP": "Yann LeCun"},
            "affiliations": [],
            "hIndex": None,
            "paperCount": 400,
        },
        retrieved=DAY,
    )
    assert (author.name, author.s2_ids, author.source) == ("Yann LeCun", ("1688882",), "s2")
    assert author.alt_names == ("Y. LeCun", "Yann Le Cun")
    assert (author.orcid, author.dblp) == (None, ("Yann LeCun",))
    assert (author.h_index, author.paper_count, author.affiliations) == (None, 400, ())
    with pytest.raises(RecordRejected, match="without a name"):
        parse_s2_author({"authorId": "1"})


def test_parse_s2_batch_response_keeps_order_and_reports_nulls() -> None:
    author = {"authorId": "3234559", "name": "E. Dijkstra", "papers": [PAPER]}
    page = parse_s2_payload([PAPER, None, author, "junk"], retrieved=DAY)
    assert [p.s2_id for p in page.batch.papers] == [SHA, SHA]  # the author's papers come too
    assert [a.name for a in page.batch.authors] == ["E. Dijkstra"]
    assert [(r.ref, r.reason) for r in page.batch.rejected] == [
        ("#1", "not found (null in the batch response)"),
        ("#3", "not found (null in the batch response)"),
    ]


def test_parse_s2_pages_and_errors() -> None:
    search = parse_s2_payload({"total": 40, "offset": 0, "next": 10, "data": [PAPER]})
    assert (search.total, search.offset, search.next_offset, search.token) == (40, 0, 10, None)
    bulk = parse_s2_payload({"total": 9, "token": "NEXT", "data": [{"paperId": SHA}]})
    assert bulk.token == "NEXT"
    assert [r.reason for r in bulk.batch.rejected] == ["no title"]
    citations = parse_s2_payload({"offset": 0, "data": [{"citingPaper": PAPER}]})
    assert citations.batch.papers[0].s2_id == SHA
    empty = parse_s2_payload({"total": 0, "offset": 0})
    assert (empty.total, len(empty.batch), empty.batch.rejected) == (0, 0, [])
    error = parse_s2_payload({"error": "Paper with id 0 not found"})
    assert error.batch.rejected[0].reason == "S2 API error: Paper with id 0 not found"
    throttled = parse_s2_payload({"message": "Too Many Requests"})
    assert "Too Many Requests" in throttled.batch.rejected[0].reason
    assert parse_s2_payload("oops").batch.rejected[0].reason == "not a JSON object or list"


def test_parse_s2_dataset_lines() -> None:
    papers_line = {
        "corpusid": 255999,
        "externalids": {"ArXiv": "2301.08658", "DOI": None, "CorpusId": "255999"},
        "url": f"https://www.semanticscholar.org/paper/{SHA}",
        "title": "ATP",
        "authors": [{"authorId": "2004394", "name": "Ziming Liu"}],
        "year": 2023,
        "citationcount": 7,
        "publicationdate": "2023-01-20",
    }
    [paper] = parse_s2_dataset_line(papers_line, retrieved=DAY).papers
    assert (paper.s2_id, paper.s2_corpus_id, paper.arxiv_id) == (SHA, 255999, "2301.08658")
    assert (paper.citation_count, paper.published) == (7, date(2023, 1, 20))
    authors_line = {
        "authorid": "2004394",
        "externalids": {"ORCID": ["0009-0009-3355-6770"], "DBLP": ["Ziming Liu 0001"]},
        "name": "Ziming Liu",
        "aliases": ["Z. Liu"],
        "hindex": 17,
        "papercount": 42,
        "citationcount": 900,
    }
    [author] = parse_s2_dataset_line(authors_line, retrieved=DAY).authors
    assert (author.s2_ids, author.orcid, author.h_index, author.paper_count) == (
        ("2004394",),
        "0009-0009-3355-6770",
        17,
        42,
    )
    unknown = parse_s2_dataset_line({"corpusid": 1, "abstract": "only an abstract"})
    assert [(r.ref, r.reason) for r in unknown.rejected] == [("CorpusId:1", "no title")]


def test_parse_s2orc_metadata() -> None:
    line = {
        "paper_id": "77490025",
        "title": "Strabismus &amp; muscles",
        "authors": [
            {"first": "Ana", "middle": ["M."], "last": "Sousa", "suffix": "Jr."},
            {"first": "", "middle": [], "last": "", "suffix": ""},
            {"first": "Bo", "middle": [], "last": "Li", "suffix": ""},
        ],
        "year": 1975,
        "arxiv_id": "hep-th/0110182",
        "doi": "10.1000/ABC",
        "abstract": None,
    }
    paper = parse_s2orc_metadata(line, retrieved=DAY)
    assert (paper.title, paper.s2_corpus_id, paper.arxiv_id, paper.doi) == (
        "Strabismus & muscles",
        77490025,
        "hep-th/0110182",
        "10.1000/abc",
    )
    assert [(a.position, a.raw_name) for a in paper.authorships] == [
        (1, "Ana M. Sousa Jr."),
        (3, "Bo Li"),
    ]
    with pytest.raises(RecordRejected, match="no DOI or arXiv id"):
        parse_s2orc_metadata({**line, "arxiv_id": None, "doi": None})


def test_s2orc_surnames_before_initials_are_read_as_such() -> None:
    """S2ORC splits PubMed names "Landau IaM", "Karpushin VP" into first/last wrongly."""
    line = {
        "paper_id": "77490084",
        "title": "Management of uterine fibromyoma",
        "doi": "10.1000/x",
        "mag_id": "2425602342",
        "authors": [
            {"first": "Landau", "middle": [], "last": "IaM", "suffix": ""},
            {"first": "Karpushin", "middle": [], "last": "Vp", "suffix": ""},
        ],
    }
    paper = parse_s2orc_metadata(line, retrieved=DAY)
    assert [a.raw_name for a in paper.authorships] == ["Ia. M. Landau", "V. P. Karpushin"]
    assert [parse_name(a.raw_name).last for a in paper.authorships] == ["landau", "karpushin"]
    assert paper.mag_id == "2425602342"
    # Real short surnames are left alone: "Wenjun Ma", "Andrew Ng", "Jun Lv".
    chinese = {
        **line,
        "authors": [
            {"first": "Wenjun", "middle": [], "last": "Ma", "suffix": ""},
            {"first": "Andrew", "middle": [], "last": "Ng", "suffix": ""},
            {"first": "Jun", "middle": [], "last": "Lv", "suffix": ""},
        ],
    }
    names = [a.raw_name for a in parse_s2orc_metadata(chinese, retrieved=DAY).authorships]
    assert names == ["Wenjun Ma", "Andrew Ng", "Jun Lv"]


def test_bulk_s2_jsonl_gz_in_chunks(tmp_path: Path) -> None:
    lines = [
        json.dumps({"paper_id": "1", "title": "One", "authors": [], "doi": "10.1000/one"}),
        "{broken json",
        "",
        json.dumps({"paper_id": "2", "title": "Two", "authors": [], "arxiv_id": "1501.00001"}),
        json.dumps([1, 2]),
    ]
    path = tmp_path / "s2orc-0.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    chunks = list(iter_bulk_files([path], retrieved=DAY, chunk_size=2))
    assert [len(batch.papers) for _, batch in chunks] == [1, 1]
    rejected = [r for _, batch in chunks for r in batch.rejected]
    assert [(r.source, r.ref.rsplit(":", 1)[1]) for r in rejected] == [("s2", "2"), ("s2", "5")]
    assert "malformed JSON" in rejected[0].reason


# --- recorded data ------------------------------------------------------------------

S2_API = SHARED / "semanticscholar" / "danielnsilva-semanticscholar"
EXPECTED_REASONS = (
    "no title",
    "not found (null in the batch response)",
    "S2 API error:",
    "no paperId, DOI or arXiv id",
    "neither a paper nor an author object",
)


def _recorded_payloads() -> Iterator[tuple[str, object]]:
    for path in sorted(S2_API.glob("*.json")):
        yield path.name, json.loads(path.read_text())
    for path in sorted(S2_API.glob("*.yaml")):
        for interaction in yaml.safe_load(path.read_text())["interactions"]:
            if "/graph/v1/" not in interaction["request"]["uri"]:
                continue
            response = interaction["response"]
            body = response["body"]["string"] if "body" in response else response["content"]
            yield path.name, json.loads(body)


def _usable_papers(payload: object) -> Iterator[Mapping[str, Any]]:
    """Paper objects that have an id and a title or named authors, found by walking the
    payload."""
    if isinstance(payload, list):
        for item in payload:
            yield from _usable_papers(item)
    elif isinstance(payload, Mapping):
        external = payload.get("externalIds") or {}
        keyed = payload.get("paperId") or external.get("DOI") or external.get("ArXiv")
        titled = (payload.get("title") or "").strip()
        named = any(
            isinstance(a, Mapping) and (a.get("name") or "").strip()
            for a in payload.get("authors") or []
        )
        if "paperId" in payload and (titled or named) and keyed:
            yield payload
        for key in ("data", "citingPaper", "citedPaper", "papers", "citations", "references"):
            yield from _usable_papers(payload.get(key))


@pytest.mark.shared
def test_shared_s2_api_recordings_parse() -> None:
    parsed = expected = 0
    lecun = []
    for name, payload in _recorded_payloads():
        page = parse_s2_payload(payload)
        parsed += len(page.batch.papers)
        expected += sum(1 for _ in _usable_papers(payload))
        for rejection in page.batch.rejected:
            assert rejection.reason.startswith(EXPECTED_REASONS), (name, rejection)
        lecun += [
            a for p in page.batch.papers for a in p.authorships if a.author.s2_ids == ("1688882",)
        ]
    assert parsed == expected > 5000
    assert lecun
    assert {a.raw_name for a in lecun} == {"Yann LeCun"}


@pytest.mark.shared
def test_shared_s2_author_and_paper_objects() -> None:
    author_page = parse_s2_payload(json.loads((S2_API / "Author.json").read_text()))
    [turing] = author_page.batch.authors
    assert (turing.s2_ids, turing.dblp) == (("2262347",), ("Alan M. Turing",))
    assert turing.h_index is not None
    assert turing.paper_count is not None
    assert len(author_page.batch.papers) > 0
    paper = parse_s2_payload(json.loads((S2_API / "Paper.json").read_text())).batch.papers[0]
    assert (paper.title, paper.year, paper.doi) == (
        "Computing Machinery and Intelligence",
        1950,
        "10.1093/mind/lix.236.433",
    )
    nulls = parse_s2_payload(json.loads((S2_API / "PaperWithNullValues.json").read_text()))
    assert [r.reason for r in nulls.batch.rejected] == ["no title"]


@pytest.mark.shared
def test_shared_s2orc_sample() -> None:
    path = SHARED / "semanticscholar" / "s2orc-sample" / "metadata" / "sample.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    keyed = [r for r in rows if r["doi"] or r["arxiv_id"]]
    batches = [batch for _, batch in iter_bulk_files([path])]
    papers = [p for b in batches for p in b.papers]
    rejected = [r for b in batches for r in b.rejected]
    assert len(papers) == len(keyed) == 601
    assert {r.reason for r in rejected} == {"no DOI or arXiv id to key the paper by"}
    assert sum(p.arxiv_id is not None for p in papers) == 36
    assert all(p.s2_corpus_id and p.source == "s2" and p.retrieved for p in papers)
    assert sum(p.mag_id is not None for p in papers) > 500
    # PubMed-style names that S2ORC split the wrong way round ("first": "Cline", "last":
    # "Wb") are read surname first: W. B. Cline, surname "cline".
    rows_by_id = {int(r["paper_id"]): r for r in rows}
    turned = 0
    for paper in papers:
        split = rows_by_id[paper.s2_corpus_id]["authors"]
        for slot in paper.authorships:
            author = split[slot.position - 1]
            if not author["first"].strip():
                continue
            first_word = author["first"].split()[0]
            if normalize_part(slot.raw_name.split()[0]) == normalize_part(first_word):
                continue
            turned += 1
            words = [normalize_part(w) for w in [author["first"], *author["middle"]]]
            assert parse_name(slot.raw_name).last.replace(" ", "") in words, slot
            assert len(author["last"]) <= 3
    assert turned >= 2  # most PubMed-style records of the sample have no DOI: set aside


@pytest.mark.shared
def test_shared_s2_bulk_search_token() -> None:
    folder = SHARED / "semanticscholar" / "peneira"
    with_token = parse_s2_payload(
        json.loads((folder / "semantic_paper_search_bulk.json").read_text())
    )
    last = parse_s2_payload(
        json.loads((folder / "semantic_paper_search_bulk_no_token.json").read_text())
    )
    assert with_token.token
    assert last.token is None
    assert with_token.total == last.total
    assert with_token.batch.papers
    assert not with_token.batch.rejected
