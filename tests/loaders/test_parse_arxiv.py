"""arXiv parsers: .abs files, Atom feeds, OAI-PMH pages, author strings, text helpers."""

from __future__ import annotations

import gzip
import json
import unicodedata
from collections import defaultdict
from datetime import date
from pathlib import Path

import pytest

from scholargraph.graph.errors import BadInput, RecordRejected
from scholargraph.graph.loaders.parse.arxiv_abs import parse_abs, parse_abs_file
from scholargraph.graph.loaders.parse.arxiv_atom import parse_atom_feed
from scholargraph.graph.loaders.parse.arxiv_fields import withdrawn_by_comment
from scholargraph.graph.loaders.parse.arxiv_oai import parse_oai_page
from scholargraph.graph.loaders.parse.authors import split_authors
from scholargraph.graph.loaders.parse.files import detect_format, iter_bulk_files
from scholargraph.graph.loaders.parse.text import clean_name, clean_title, decode_tex, parse_date
from scholargraph.graph.records import Version

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
DAY = date(2026, 1, 15)

ABS = r"""------------------------------------------------------------------------------
\\
arXiv:2301.00001
From: Ada Example <ada@example.org>
Date: Mon, 2 Jan 2023 10:00:00 GMT   (12kb)
Date (revised v2): Tue, 10 Jan 2023 11:30:00 GMT   (14kb,D)

Title: Fast &amp; exact inference for \"Uber-graphs:
  a study of caf\'e networks
Authors: Jos\'e M. Garc\'{\i}a (Univ. Example), Fran\c{c}ois M\"uller and
  Ming-Wei Chang
Categories: cs.DC cs.LG
Comments: 12 pages
Journal-ref: J. Example 1 (2023) 1-12
DOI: 10.1234/EXAMPLE.5678 10.9999/other
\\
  We study $\phi^{\pm}$ things on
several lines.
\\
"""


def abs_text(**replace: str) -> str:
    text = ABS
    for old, new in replace.items():
        text = text.replace(old.replace("_", " "), new)
    return text


# --- text helpers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Ming\u2010Wei Chang", "Ming-Wei Chang"),
        ("Ming\u2011Wei\u00a0 Chang ", "Ming-Wei Chang"),
        ("Zo\u0065\u0301 Smith", "Zoé Smith"),  # decomposed é becomes one code point
        ("A.&nbsp;B.&#233;z", "A. B.éz"),
        ("Soft\u00adhyphen\u200b", "Softhyphen"),
    ],
)
def test_clean_name_normalises_unicode_and_entities(raw: str, expected: str) -> None:
    assert clean_name(raw) == expected
    assert unicodedata.is_normalized("NFC", clean_name(raw) or "")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"Bal\'azs", "Balázs"),
        (r"Sch\"{u}rmann", "Schürmann"),
        (r"{\"o}", "ö"),
        (r"Garc\'{\i}a", "García"),
        (r"Fran\c{c}a", "França"),
        (r"Dvo\v{r}\'ak", "Dvořák"),
        (r"Erd\H{o}s", "Erdős"),
        (r"Gr\o nbech", "Grønbech"),
        (r"Stanis{\l}awa", "Stanisława"),
        (r"Sa{\ss}", "Saß"),
        (r"\AA ngstr\"om", "Ångström"),
        (r"Fr\\'ed\\'eric", "Frédéric"),  # a database export's escaped backslash
        (r"$\underline{x}\cdot y$", r"$\underline{x}\cdot y$"),  # not accents: untouched
        (r"AT\&T", "AT&T"),
    ],
)
def test_decode_tex_accents(raw: str, expected: str) -> None:
    assert decode_tex(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (r"Jes K. J\orgensen", "Jes K. Jørgensen"),
        (r"Umut A. Y\ild\iz", "Umut A. Yıldız"),
        (r"J. Lefran\ccois", "J. Lefrançois"),
        (r"J.K\kedra", "J.Kędra"),
        (r"{\it A.~Smith}", "A. Smith"),
        (r"A. Ramanathan \ast", "A. Ramanathan"),
    ],
)
def test_clean_name_reads_macros_run_into_names(raw: str, expected: str) -> None:
    assert clean_name(raw, tex=True) == expected


def test_clean_title_strips_markup_and_collapses_space() -> None:
    assert (
        clean_title("  <i>In vivo</i> &lt;study&gt;\n  of H<sub>2</sub>O ")
        == "In vivo <study> of H2O"
    )
    assert clean_title("   ") is None
    assert clean_title(None) is None
    assert clean_title("0") == "0"  # a real arXiv title


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2021-04-20T16:07:14Z", date(2021, 4, 20)),
        ("2009-06-18 12:03:57", date(2009, 6, 18)),
        ("Mon, 2 Apr 2007 19:18:42 GMT", date(2007, 4, 2)),
        ("2023-02-30", None),
        ("last spring", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_date(raw: str | None, expected: date | None) -> None:
    assert parse_date(raw) == expected


# --- author strings -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        ("A. One, B. Two, and C. Three", ["A. One", "B. Two", "C. Three"]),
        ("A. One & B. Two; C. Three", ["A. One", "B. Two", "C. Three"]),
        ("Anand Kumar and Sandra Oland", ["Anand Kumar", "Sandra Oland"]),
        ("W. T. Hill III, J. Smith, Jr., K. Lee", ["W. T. Hill III", "J. Smith Jr.", "K. Lee"]),
        (
            "BELLE Collaboration: A. Person, N. Other",
            ["BELLE Collaboration", "A. Person", "N. Other"],
        ),
        ("The CMS and LHCb Collaborations: V. K", ["The CMS and LHCb Collaborations", "V. K"]),
        ("F. Piscitelli, for the ESS collaboration", ["F. Piscitelli"]),
        ("", []),
    ],
)
def test_split_authors_names(raw: str, names: list[str]) -> None:
    assert [a.name for a in split_authors(raw).authors] == names


def test_split_authors_et_al() -> None:
    parsed = split_authors("The DELPHI Collaboration, J. Abdallah, et al.")
    assert [a.name for a in parsed.authors] == ["The DELPHI Collaboration", "J. Abdallah"]
    assert parsed.et_al
    assert not split_authors("A. One, B. Two").et_al
    assert split_authors("X. Zhan et al").authors[0].name == "X. Zhan"


def test_split_authors_affiliations_in_parentheses() -> None:
    parsed = split_authors("C. Neri (Kleinwort (London), UK) and L. Schneider (Lyon, France)")
    assert [(a.name, a.affiliations) for a in parsed.authors] == [
        ("C. Neri", ("Kleinwort (London), UK",)),
        ("L. Schneider", ("Lyon, France",)),
    ]


def test_split_authors_numbered_affiliation_legend() -> None:
    raw = r"M. V (1,2), S. W (1), L. K (1 and 3) ((1) MPA, (2) Harvard/CfA, (3) S\~ao Paulo)"
    parsed = split_authors(raw)
    assert [(a.name, a.affiliations) for a in parsed.authors] == [
        ("M. V", ("MPA", "Harvard/CfA")),
        ("S. W", ("MPA",)),
        ("L. K", ("MPA", "São Paulo")),
    ]


def test_split_authors_survives_unbalanced_parenthesis() -> None:
    parsed = split_authors("A. One (Univ, B. Two")
    assert [a.name for a in parsed.authors] == ["A. One"]
    assert parsed.authors[0].affiliations == ("Univ, B. Two",)


# --- .abs files ---------------------------------------------------------------------


def test_parse_abs_full_record() -> None:
    paper = parse_abs(ABS, retrieved=DAY)
    assert paper.source == "arxiv"
    assert paper.retrieved == DAY
    assert paper.key == paper.arxiv_id == "2301.00001"
    assert paper.title == "Fast & exact inference for Über-graphs: a study of café networks"
    assert [(a.position, a.raw_name) for a in paper.authorships] == [
        (1, "José M. García"),
        (2, "François Müller"),
        (3, "Ming-Wei Chang"),
    ]
    assert paper.authorships[0].raw_affiliations == ("Univ. Example",)
    assert all(a.author.source == "arxiv" and a.author.retrieved == DAY for a in paper.authorships)
    assert paper.versions == (
        Version(1, date(2023, 1, 2), "12kb"),
        Version(2, date(2023, 1, 10), "14kb"),
    )
    assert (paper.published, paper.updated, paper.year) == (
        date(2023, 1, 2),
        date(2023, 1, 10),
        2023,
    )
    assert (paper.primary_category, paper.categories) == ("cs.DC", ("cs.DC", "cs.LG"))
    assert paper.doi == "10.1234/example.5678"
    assert paper.journal_ref == "J. Example 1 (2023) 1-12"
    assert paper.comments == "12 pages"
    assert paper.abstract == r"We study $\phi^{\pm}$ things on several lines."
    assert not paper.withdrawn
    assert not paper.authors_truncated


def test_parse_abs_withdrawn_latest_version() -> None:
    withdrawn = abs_text(**{"(14kb,D)": "(0kb,I)"})
    assert parse_abs(withdrawn, retrieved=DAY).withdrawn
    # A withdrawal notice that a later version replaced leaves the paper standing.
    replaced = abs_text(
        **{"(14kb,D)": "(0kb,I)\nDate (revised v3): Wed, 1 Feb 2023 09:00:00 GMT   (20kb)"}
    )
    paper = parse_abs(replaced, retrieved=DAY)
    assert not paper.withdrawn
    assert [v.version for v in paper.versions] == [1, 2, 3]
    assert paper.updated == date(2023, 2, 1)


def test_parse_abs_old_style_id_with_subject_class() -> None:
    paper = parse_abs(abs_text(**{"arXiv:2301.00001": "arXiv:math.CO/9901016"}), retrieved=DAY)
    assert paper.arxiv_id == "math/9901016"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        (abs_text(**{"arXiv:2301.00001": "arXiv:not-an-id"}), "not an arXiv id"),
        (abs_text(**{"arXiv:2301.00001\n": ""}), "no arXiv: line"),
        (abs_text(**{"Title:": "Titel:"}), "no title"),
        (abs_text(**{"Authors:": "Autoren:"}), "no authors"),
    ],
)
def test_parse_abs_rejects_unusable_records(text: str, reason: str) -> None:
    with pytest.raises(RecordRejected, match=reason):
        parse_abs(text, retrieved=DAY)


def test_parse_abs_file_reads_latin1_and_reports_rejections(tmp_path: Path) -> None:
    latin = tmp_path / "0704.9999.abs"
    latin.write_bytes(
        abs_text(**{"Ming-Wei Chang": "Ren\u00e9e G\u00e9om\u00e8tre"}).encode("latin-1")
    )
    batch = parse_abs_file(latin, retrieved=DAY)
    assert batch.papers[0].authorships[-1].raw_name == "Renée Géomètre"
    empty = tmp_path / "0509037.abs"
    empty.write_text("")
    rejected = parse_abs_file(empty, retrieved=DAY).rejected
    assert len(rejected) == 1
    assert rejected[0].ref == str(empty)
    assert "empty" in rejected[0].reason


# --- Atom feeds ---------------------------------------------------------------------

ATOM = """<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
      xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <updated>2026-04-12T22:09:26Z</updated>
  <opensearch:itemsPerPage>2</opensearch:itemsPerPage>
  <opensearch:totalResults>5</opensearch:totalResults>
  <opensearch:startIndex>2</opensearch:startIndex>
  <entry>
    <id>http://arxiv.org/abs/2301.00002v3</id>
    <title>A Study of\n   Caf\\'e Graphs</title>
    <updated>2023-03-01T10:00:00Z</updated>
    <published>2023-01-05T09:00:00Z</published>
    <summary>  The abstract.  </summary>
    <author><name>Zo\u00eb Example</name><arxiv:affiliation>Univ. A</arxiv:affiliation>
      <arxiv:affiliation>Lab B</arxiv:affiliation></author>
    <author><name>Ming\u2010Wei Chang</name></author>
    <arxiv:comment>This paper has been withdrawn by the authors</arxiv:comment>
    <arxiv:journal_ref>J. Ex. 2 (2023)</arxiv:journal_ref>
    <arxiv:doi>10.5555/ABC</arxiv:doi>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.DC" scheme="http://arxiv.org/schemas/atom"/>
    <arxiv:primary_category term="cs.DC"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/hep-th/9901001v1</id>
    <title>0</title>
    <updated>1999-01-01T00:00:00Z</updated>
    <published>1999-01-01T00:00:00Z</published>
    <summary>Zero.</summary>
    <author><name>A. Author</name></author>
    <arxiv:primary_category term="hep-th"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/2301.00003v1</id>
    <title>  </title>
    <author><name>No Title</name></author>
  </entry>
  <entry>
    <id>https://arxiv.org/api/errors#incorrect_id_format_for_abc</id>
    <title>Error</title>
    <summary>incorrect id format for abc</summary>
    <author><name>arXiv api core</name></author>
  </entry>
</feed>"""


def test_parse_atom_feed_entries_paging_and_errors() -> None:
    page = parse_atom_feed(ATOM.encode("utf-8"))
    assert (page.total_results, page.start_index, page.items_per_page) == (5, 2, 2)
    assert page.next_start == 4
    first, second = page.batch.papers
    assert first.arxiv_id == "2301.00002"
    assert first.title == "A Study of Café Graphs"
    assert first.retrieved == date(2026, 4, 12)  # the feed's own date
    assert first.versions == (Version(1, date(2023, 1, 5)), Version(3, date(2023, 3, 1)))
    assert (first.primary_category, first.categories) == ("cs.DC", ("cs.DC", "cs.LG"))
    assert [a.raw_name for a in first.authorships] == ["Zoë Example", "Ming-Wei Chang"]
    assert first.authorships[0].raw_affiliations == ("Univ. A", "Lab B")
    assert (first.doi, first.journal_ref, first.abstract) == (
        "10.5555/abc",
        "J. Ex. 2 (2023)",
        "The abstract.",
    )
    assert first.withdrawn
    assert (second.arxiv_id, second.title, second.versions) == (
        "hep-th/9901001",
        "0",
        (Version(1, date(1999, 1, 1)),),
    )
    reasons = {r.ref: r.reason for r in page.batch.rejected}
    assert reasons["2301.00003"] == "no title"
    assert (
        "incorrect id format for abc"
        in reasons["https://arxiv.org/api/errors#incorrect_id_format_for_abc"]
    )


def test_parse_atom_feed_last_page_and_explicit_retrieved() -> None:
    last = ATOM.replace("<opensearch:startIndex>2<", "<opensearch:startIndex>4<")
    page = parse_atom_feed(last, retrieved=DAY)
    assert page.next_start is None
    assert {p.retrieved for p in page.batch.papers} == {DAY}


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ("<feed><entry>", "malformed XML"),
        ("<html><body>Service Unavailable</body></html>", "not an Atom feed"),
        (
            '<?xml version="1.0"?><!DOCTYPE f [<!ENTITY a "aaaa">]><feed>&a;</feed>',
            "declares entities",
        ),
    ],
)
def test_parse_atom_feed_refuses_unreadable_documents(document: str, reason: str) -> None:
    with pytest.raises(RecordRejected, match=reason):
        parse_atom_feed(document)


# --- OAI-PMH ------------------------------------------------------------------------

OAI_ARXIV = """<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
  <responseDate>2026-02-01T12:00:00Z</responseDate>
  <request verb="ListRecords" metadataPrefix="arXiv">http://oaipmh.arxiv.org/oai</request>
  <ListRecords>
    <record>
      <header><identifier>oai:arXiv.org:0704.0001</identifier><datestamp>2008-11-13</datestamp></header>
      <metadata>
        <arXiv xmlns="http://arxiv.org/OAI/arXiv/">
          <id>0704.0001</id><created>2007-04-02</created><updated>2007-07-24</updated>
          <authors>
            <author><keyname>Bal\\'azs</keyname><forenames>C.</forenames>
              <affiliation>Argonne</affiliation></author>
            <author><keyname>Smith</keyname><forenames>John</forenames><suffix>Jr.</suffix></author>
            <author><keyname>ATLAS Collaboration</keyname></author>
          </authors>
          <title>Calculation of prompt diphoton
  production</title>
          <categories>hep-ph hep-ex</categories>
          <comments>37 pages</comments>
          <journal-ref>Phys.Rev.D76:013009,2007</journal-ref>
          <doi>10.1103/PhysRevD.76.013009</doi>
          <abstract>  A fully differential calculation.</abstract>
        </arXiv>
      </metadata>
    </record>
    <record>
      <header status="deleted"><identifier>oai:arXiv.org:0704.0002</identifier></header>
    </record>
    <record>
      <header><identifier>oai:arXiv.org:bogus</identifier></header>
      <metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>bogus</id><title>T</title></arXiv></metadata>
    </record>
    <record>
      <header><identifier>oai:arXiv.org:0704.0003</identifier></header>
      <metadata><dc xmlns="http://www.openarchives.org/OAI/2.0/oai_dc/"><title>T</title></dc></metadata>
    </record>
    <resumptionToken cursor="0" completeListSize="4">7654321|1001</resumptionToken>
  </ListRecords>
</OAI-PMH>"""

OAI_RAW = """<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
  <responseDate>2026-02-01T12:00:00Z</responseDate>
  <GetRecord><record>
    <header><identifier>oai:arXiv.org:0704.0615</identifier></header>
    <metadata>
      <arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/">
        <id>0704.0615</id><submitter>A. Submitter</submitter>
        <version version="v2"><date>Tue, 17 Apr 2007 10:00:00 GMT</date><size>12kb</size>
          <source_type>D</source_type></version>
        <version version="v1"><date>Thu, 5 Apr 2007 10:00:00 GMT</date><size>10kb</size>
          <source_type>D</source_type></version>
        <version version="v3"><date>Fri, 4 May 2007 10:00:00 GMT</date><size>0kb</size>
          <source_type>I</source_type></version>
        <title>Withdrawn paper</title>
        <authors>Mark V (1,2), Simon D. M. White (1), et al ((1) MPA, (2) CfA)</authors>
        <categories>astro-ph</categories>
        <comments>This papers has been withdrawn</comments>
      </arXivRaw>
    </metadata>
  </record></GetRecord>
  <ListRecords><resumptionToken cursor="1000" completeListSize="1001"/></ListRecords>
</OAI-PMH>"""


def test_parse_oai_arxiv_format() -> None:
    page = parse_oai_page(OAI_ARXIV)
    assert page.resumption_token == "7654321|1001"
    assert (page.cursor, page.complete_list_size) == (0, 4)
    assert page.deleted == ("0704.0002",)
    assert page.error is None
    [paper] = page.batch.papers
    assert paper.retrieved == date(2026, 2, 1)
    assert (paper.arxiv_id, paper.title) == (
        "0704.0001",
        "Calculation of prompt diphoton production",
    )
    assert (paper.primary_category, paper.categories) == ("hep-ph", ("hep-ph", "hep-ex"))
    assert (paper.published, paper.updated) == (date(2007, 4, 2), date(2007, 7, 24))
    assert paper.doi == "10.1103/physrevd.76.013009"
    names = [(a.position, a.raw_name, a.forenames, a.keyname) for a in paper.authorships]
    assert names == [
        (1, "C. Balázs", "C.", "Balázs"),
        (2, "John Smith Jr.", "John", "Smith"),
        (3, "ATLAS Collaboration", None, "ATLAS Collaboration"),
    ]
    assert paper.authorships[0].raw_affiliations == ("Argonne",)
    reasons = sorted(r.reason for r in page.batch.rejected)
    assert "not an arXiv id" in reasons[0]
    assert "unsupported metadata format dc" in reasons[1]


def test_parse_oai_arxivraw_versions_and_author_string() -> None:
    page = parse_oai_page(OAI_RAW.encode("utf-8"), retrieved=DAY)
    assert page.resumption_token is None  # an empty token ends the list
    [paper] = page.batch.papers
    assert [v.version for v in paper.versions] == [1, 2, 3]
    assert paper.versions[0] == Version(1, date(2007, 4, 5), "10kb")
    assert (paper.published, paper.updated, paper.year) == (
        date(2007, 4, 5),
        date(2007, 5, 4),
        2007,
    )
    assert paper.withdrawn
    assert paper.authors_truncated
    assert [(a.raw_name, a.raw_affiliations) for a in paper.authorships] == [
        ("Mark V", ("MPA", "CfA")),
        ("Simon D. M. White", ("MPA",)),
    ]
    assert paper.authorships[0].keyname is None


def test_parse_oai_error_response() -> None:
    document = """<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
      <responseDate>2026-02-01T12:00:00Z</responseDate>
      <error code="noRecordsMatch">No records match</error></OAI-PMH>"""
    page = parse_oai_page(document)
    assert page.error is not None
    assert (page.error.code, page.error.message) == ("noRecordsMatch", "No records match")
    assert len(page.batch) == 0
    assert page.resumption_token is None


def test_parse_oai_malformed_xml_is_rejected_clearly() -> None:
    with pytest.raises(RecordRejected, match="malformed XML"):
        parse_oai_page(OAI_ARXIV[:-40])
    with pytest.raises(RecordRejected, match="not an OAI-PMH response"):
        parse_oai_page(ATOM)


def test_withdrawn_by_comment() -> None:
    assert withdrawn_by_comment("This paper has been withdrawn by the author(s)")
    assert withdrawn_by_comment("withdrawn by arXiv administrators due to plagiarism")
    assert withdrawn_by_comment("paper withdrawn by author")
    assert not withdrawn_by_comment("supersedes the withdrawn preprint math/0412306")
    assert not withdrawn_by_comment(None)


# --- bulk files ---------------------------------------------------------------------


def test_iter_bulk_files_reads_folders_by_content(tmp_path: Path) -> None:
    (tmp_path / "papers" / "0704").mkdir(parents=True)
    (tmp_path / "papers" / "0704" / "2301.00001.abs").write_text(ABS)
    (tmp_path / "papers" / "README.txt").write_text("not data")
    (tmp_path / ".hidden.abs").write_text(ABS)
    with gzip.open(tmp_path / "page-1.xml.gz", "wt", encoding="utf-8") as handle:
        handle.write(OAI_ARXIV)
    (tmp_path / "feed.xml").write_text(ATOM)
    gzipped = abs_text(**{"arXiv:2301.00001": "arXiv:2301.00009"}).encode("utf-8")
    (tmp_path / "papers" / "0704" / "2301.00009.abs.gz").write_bytes(gzip.compress(gzipped))
    results = list(iter_bulk_files([tmp_path], retrieved=DAY))
    names = [path.name for path, _ in results]
    assert names == ["feed.xml", "page-1.xml.gz", "2301.00001.abs", "2301.00009.abs.gz"]
    counts = {path.name: (len(b.papers), len(b.rejected)) for path, b in results}
    assert counts == {
        "feed.xml": (2, 2),
        "page-1.xml.gz": (1, 2),
        "2301.00001.abs": (1, 0),
        "2301.00009.abs.gz": (1, 0),
    }
    assert all(p.retrieved == DAY for _, b in results for p in b.papers)


def test_iter_bulk_files_format_override_and_bad_input(tmp_path: Path) -> None:
    feed = tmp_path / "response.txt"
    feed.write_text(OAI_RAW)
    [(_, batch)] = list(iter_bulk_files([feed], format="oai"))
    assert batch.papers[0].arxiv_id == "0704.0615"
    broken = tmp_path / "broken.xml"
    broken.write_text(OAI_ARXIV[:200])
    [(_, batch)] = list(iter_bulk_files([broken], format="oai"))
    assert batch.rejected[0].ref == str(broken)
    assert "malformed XML" in batch.rejected[0].reason
    mystery = tmp_path / "mystery.json"
    mystery.write_text(json.dumps({"hello": "world"}))
    with pytest.raises(BadInput, match="pass format="):
        detect_format(mystery)
    with pytest.raises(BadInput, match="unknown format"):
        list(iter_bulk_files([tmp_path], format="csv"))  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="neither a file nor a folder"):
        list(iter_bulk_files([tmp_path / "missing"]))


# --- recorded data ------------------------------------------------------------------

ABS_FILES = SHARED / "arxiv" / "arxiv-browse" / "abs_files"


@pytest.mark.shared
def test_shared_0704_block_parses_completely() -> None:
    papers = {}
    for path in sorted((ABS_FILES / "ftp" / "arxiv" / "papers" / "0704").glob("*.abs")):
        if "0704.0001" <= path.stem <= "0704.1000":
            batch = parse_abs_file(path)
            assert batch.rejected == [], path
            papers[path.stem] = batch.papers[0]
    assert len(papers) == 1000
    assert {p.arxiv_id for p in papers.values()} == set(papers)
    assert all(p.authorships and p.categories and p.primary_category for p in papers.values())
    assert all(p.published and p.published.year == 2007 for p in papers.values())
    assert all(p.versions[0].version == 1 for p in papers.values())
    first = papers["0704.0001"]
    assert [a.raw_name for a in first.authorships] == [
        "C. Balázs",
        "E. L. Berger",
        "P. M. Nadolsky",
        "C.-P. Yuan",
    ]
    assert [v.version for v in first.versions] == [1, 2]


@pytest.mark.shared
def test_shared_every_abs_file_parses_and_flags_withdrawals() -> None:
    batches = [parse_abs_file(path) for path in sorted(ABS_FILES.rglob("*.abs"))]
    rejected = [r for b in batches for r in b.rejected]
    assert [Path(r.ref).name for r in rejected] == ["0509037.abs"]  # an empty file
    current = {
        p.arxiv_id: p
        for path in sorted((ABS_FILES / "ftp").rglob("*.abs"))
        for p in parse_abs_file(path).papers
    }
    withdrawn = {key for key, paper in current.items() if paper.withdrawn}
    assert withdrawn == {
        "0704.0156", "0704.0213", "0704.0374", "0704.0480", "0704.0525",
        "0704.0615", "0704.0644", "0704.0840", "0906.3336", "2101.10016",
    }  # fmt: skip
    assert not current["0704.0063"].withdrawn  # v3 withdrawn, replaced by v4
    # The comment heuristic used where no flag exists agrees with the flag on every record.
    assert all(withdrawn_by_comment(p.comments) == p.withdrawn for p in current.values())
    bert = current["1810.04805"]
    assert "Ming-Wei Chang" in [a.raw_name for a in bert.authorships]
    assert "astro-ph/9709175" in current
    assert "hep-th/9108002" in current


@pytest.mark.shared
def test_shared_atom_recordings() -> None:
    papers = []
    rejected = []
    for path in sorted((SHARED / "arxiv" / "arxiv-api-atom" / "recorded").glob("*.json")):
        recording = json.loads(path.read_text())
        page = parse_atom_feed(recording["body"].encode("latin-1"))
        assert page.total_results is not None
        papers += page.batch.papers
        rejected += page.batch.rejected
    assert len(papers) == 221
    assert len({p.arxiv_id for p in papers}) == 105
    assert [r.reason for r in rejected] == ["arXiv API error: incorrect id format for abc"]
    assert all(p.title and p.authorships and p.primary_category for p in papers)
    assert "0" in {p.title for p in papers}  # 2104.12255 is titled "0"


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@pytest.mark.shared
def test_shared_author_strings_agree_with_dblp_positions() -> None:
    folder = SHARED / "arxiv" / "arxiv-oaipmh-testdb"

    def rows(name: str) -> list[dict[str, object]]:
        return [json.loads(line) for line in (folder / name).read_text().splitlines()]

    strings = {r["document_id"]: str(r["authors"]) for r in rows("arXiv_documents.jsonl")}
    dblp_names = {r["author_id"]: str(r["name"]) for r in rows("arXiv_dblp_authors.jsonl")}
    positions: dict[object, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for r in rows("arXiv_dblp_document_authors.jsonl"):
        if r["author_id"] in dblp_names:  # a few links point at no DBLP author
            positions[r["document_id"]][int(str(r["position"]))].append(dblp_names[r["author_id"]])
    count_agrees = surname_agrees = slots = 0
    for document, by_position in positions.items():
        names = [a.name for a in split_authors(strings[document]).authors]
        count_agrees += len(names) == len(by_position)
        for position, candidates in by_position.items():
            slots += 1
            surname = _fold(names[position - 1].split()[-1]) if position <= len(names) else "?"
            surname_agrees += any(_fold(clean_name(c) or "").endswith(surname) for c in candidates)
    assert (count_agrees, len(positions)) == (35, 36)  # DBLP lists 1 of 0907.2974's 5 authors
    assert surname_agrees / slots > 0.95


@pytest.mark.shared
def test_shared_author_strings_split_cleanly() -> None:
    path = SHARED / "arxiv" / "arxiv-oaipmh-testdb" / "arXiv_metadata.jsonl"
    raw_strings = {json.loads(line)["authors"] for line in path.read_text().splitlines()}
    names = [a.name for raw in raw_strings for a in split_authors(raw).authors]
    assert len(names) > 1500
    assert not [n for n in names if n.endswith((",", " and")) or n.startswith(("and ", "("))]
    assert not [n for n in names if "(" in n or ")" in n]
    assert not [n for n in names if "\\" in n or "{" in n]  # every TeX macro decoded or dropped
