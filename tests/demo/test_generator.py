from __future__ import annotations

import gzip
import hashlib
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from scholargraph.graph import ids, taxonomy
from scholargraph.graph.demo import DemoCorpus, generate
from scholargraph.graph.demo.name_pools import COLLISION_NAMES
from scholargraph.graph.demo.names import ascii_fold, sort_key
from scholargraph.graph.errors import BadInput

OAI = "{http://www.openarchives.org/OAI/2.0/}"
ARXIV = "{http://arxiv.org/OAI/arXiv/}"

Json = dict[str, Any]


@pytest.fixture(scope="module")
def corpus() -> DemoCorpus:
    """Large enough for hyperauthor papers (about five per 10k) and a real productivity tail."""
    return generate(papers=5000, seed=11)


@pytest.fixture(scope="module")
def records(corpus: DemoCorpus) -> list[ET.Element]:
    found: list[ET.Element] = []
    for page in corpus.arxiv_oai_pages(page_size=1000):
        found.extend(ET.fromstring(page).iter(f"{OAI}record"))
    return found


@pytest.fixture(scope="module")
def authors_by_paper(records: list[ET.Element]) -> dict[str, list[str]]:
    """arXiv id → printed author names (persons only, collaboration entries left out)."""
    listed: dict[str, list[str]] = {}
    for record in records:
        meta = record.find(f".//{ARXIV}arXiv")
        assert meta is not None
        names = []
        for author in meta.iter(f"{ARXIV}author"):
            parts = [author.findtext(f"{ARXIV}{tag}") for tag in ("forenames", "keyname", "suffix")]
            if parts[0] is not None:
                names.append(" ".join(part for part in parts if part))
        listed[meta.findtext(f"{ARXIV}id") or ""] = names
    return listed


@pytest.fixture(scope="module")
def truth(corpus: DemoCorpus) -> list[Json]:
    return list(corpus.truth())


@pytest.fixture(scope="module")
def s2_papers(corpus: DemoCorpus) -> list[Json]:
    return list(corpus.s2_papers())


@pytest.fixture(scope="module")
def works(corpus: DemoCorpus) -> list[Json]:
    return list(corpus.openalex_works())


def _fingerprint(corpus: DemoCorpus) -> str:
    digest = hashlib.sha256()
    for page in corpus.arxiv_oai_pages(page_size=50):
        digest.update(page.encode())
    streams = (
        corpus.s2_papers(),
        corpus.s2_authors(),
        corpus.openalex_works(),
        corpus.openalex_authors(),
        corpus.ror_records(),
        corpus.truth(),
    )
    for stream in streams:
        for record in stream:
            digest.update(json.dumps(record, sort_keys=False).encode())
    return digest.hexdigest()


def test_same_seed_gives_the_same_corpus_and_another_seed_does_not() -> None:
    first = _fingerprint(generate(papers=300, seed=5))
    assert first == _fingerprint(generate(papers=300, seed=5))
    assert first != _fingerprint(generate(papers=300, seed=6))


def test_rendering_order_does_not_change_records() -> None:
    corpus = generate(papers=200, seed=9)
    works_first = list(corpus.openalex_works())
    list(corpus.s2_authors())
    assert list(corpus.openalex_works()) == works_first


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_written_files_are_byte_identical_between_runs(tmp_path: Path) -> None:
    generate(papers=300, seed=5).write(tmp_path / "a")
    generate(papers=300, seed=5).write(tmp_path / "b")
    first, second = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert first == second
    assert any(name.endswith(".jsonl.gz") for name in first)


def test_write_lays_out_every_source_as_valid_files(tmp_path: Path) -> None:
    corpus = generate(papers=400, seed=3)
    counts = corpus.write(tmp_path)
    oai_pages = sorted((tmp_path / "arxiv").glob("oai-*.xml"))
    assert len(oai_pages) == counts["arxiv_pages"] == 1
    assert (
        sum(len(ET.parse(page).getroot().findall(f".//{OAI}record")) for page in oai_pages) == 400
    )

    def lines(pattern: str) -> list[Json]:
        found = []
        for path in sorted(tmp_path.glob(pattern)):
            raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
            found.extend(json.loads(line) for line in raw.decode("utf-8").splitlines())
        return found

    assert len(lines("s2/papers-*.jsonl")) == counts["s2_papers"] > 0
    assert len(lines("s2/authors-*.jsonl")) == counts["s2_authors"] > 0
    assert len(lines("openalex/works-*.jsonl.gz")) == counts["openalex_works"] > 0
    assert len(lines("openalex/authors-*.jsonl.gz")) == counts["openalex_authors"] > 0
    assert len(lines("ror/ror-data.jsonl")) == counts["ror_records"] > 0
    document = json.loads((tmp_path / "truth.json").read_text("utf-8"))
    assert document["seed"] == 3
    assert document["papers"] == 400
    assert len(document["people"]) == counts["people"]


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(BadInput):
        generate(papers=0, seed=1)
    with pytest.raises(BadInput):
        generate(papers=10, seed=1).arxiv_oai_pages(page_size=0)


def test_oai_pages_chain_with_resumption_tokens(corpus: DemoCorpus) -> None:
    pages = [ET.fromstring(page) for page in corpus.arxiv_oai_pages(page_size=2000)]
    assert len(pages) == 3
    tokens = [page.find(f".//{OAI}resumptionToken") for page in pages]
    assert all(token is not None for token in tokens)
    assert [token.get("cursor") for token in tokens if token is not None] == ["0", "2000", "4000"]
    assert tokens[0] is not None
    assert tokens[0].text
    assert tokens[-1] is not None
    assert not tokens[-1].text  # the last page ends the list


def test_oai_records_carry_valid_ids_dates_and_known_categories(
    records: list[ET.Element],
) -> None:
    seen = set()
    for record in records:
        identifier = record.findtext(f"{OAI}header/{OAI}identifier") or ""
        meta = record.find(f".//{ARXIV}arXiv")
        assert meta is not None
        arxiv_id = meta.findtext(f"{ARXIV}id") or ""
        assert identifier == f"oai:arXiv.org:{arxiv_id}"
        assert ids.normalize_arxiv_id(arxiv_id) == arxiv_id
        assert arxiv_id not in seen
        seen.add(arxiv_id)
        created = meta.findtext(f"{ARXIV}created") or ""
        assert re.fullmatch(r"(199[2-9]|20[0-2]\d)-\d\d-\d\d", created)
        categories = (meta.findtext(f"{ARXIV}categories") or "").split()
        assert categories
        assert all(taxonomy.is_known(code) for code in categories)
        if "/" in arxiv_id:  # old-style ids are named after the primary category's archive
            assert arxiv_id.split("/")[0] == taxonomy.lookup(categories[0]).archive
        for author in meta.iter(f"{ARXIV}author"):
            assert author.findtext(f"{ARXIV}keyname")
        doi = meta.findtext(f"{ARXIV}doi")
        assert doi is None or ids.normalize_doi(doi).startswith("10.")


def test_legacy_categories_appear_only_in_their_own_years(records: list[ET.Element]) -> None:
    legacy_seen = Counter()
    for record in records:
        meta = record.find(f".//{ARXIV}arXiv")
        assert meta is not None
        year = int((meta.findtext(f"{ARXIV}created") or "")[:4])
        for code in (meta.findtext(f"{ARXIV}categories") or "").split():
            if not taxonomy.lookup(code).active:
                legacy_seen[code] += 1
                assert year < 2009, (code, year)
            if code.startswith("astro-ph."):
                assert year >= 2009
    assert legacy_seen["astro-ph"] > 0
    assert len(legacy_seen) >= 3


def test_aliases_are_listed_together(records: list[ET.Element]) -> None:
    for record in records:
        codes = (record.findtext(f".//{ARXIV}categories") or "").split()
        for code in codes:
            assert set(taxonomy.aliases_of(code)) <= set(codes)


def test_years_span_1992_to_2025_and_grow(truth: list[Json], records: list[ET.Element]) -> None:
    years = Counter(int((r.findtext(f".//{ARXIV}created") or "")[:4]) for r in records)
    assert min(years) == 1992
    assert max(years) == 2025
    assert sum(years[y] for y in range(2020, 2026)) > 4 * sum(years[y] for y in range(1992, 1998))


def test_productivity_is_zipf_like(truth: list[Json]) -> None:
    papers_per_person = sorted((len(person["arxiv"]) for person in truth), reverse=True)
    top = papers_per_person[: len(papers_per_person) // 100]
    assert sum(top) / sum(papers_per_person) > 0.1
    few = sum(1 for count in papers_per_person if count <= 3)
    assert few / len(papers_per_person) > 0.75
    assert papers_per_person[0] >= 50


def test_team_sizes_have_a_long_tail(authors_by_paper: dict[str, list[str]]) -> None:
    sizes = [len(names) for names in authors_by_paper.values()]
    assert sum(1 for size in sizes if size <= 8) / len(sizes) > 0.85
    assert any(20 <= size <= 60 for size in sizes)
    assert any(size > 200 for size in sizes)


def test_alphabetical_fields_list_authors_alphabetically(records: list[ET.Element]) -> None:
    ordered: dict[str, list[bool]] = defaultdict(list)
    for record in records:
        meta = record.find(f".//{ARXIV}arXiv")
        assert meta is not None
        keys = [
            sort_key(author.findtext(f"{ARXIV}keyname") or "")
            for author in meta.iter(f"{ARXIV}author")
            if author.find(f"{ARXIV}forenames") is not None
        ]
        if len(keys) >= 3:
            primary = (meta.findtext(f"{ARXIV}categories") or "").split()[0]
            ordered[primary].append(keys == sorted(keys))
    assert sum(ordered["hep-th"]) / len(ordered["hep-th"]) > 0.7
    assert sum(ordered["cs.LG"]) / len(ordered["cs.LG"]) < 0.3


def test_colliding_names_belong_to_different_people(truth: list[Json]) -> None:
    by_name: dict[str, list[Json]] = defaultdict(list)
    for person in truth:
        by_name[person["name"]].append(person)
    for _, given, surname in COLLISION_NAMES:
        homonyms = by_name[f"{given} {surname}"]
        assert len(homonyms) >= 2
        assert len({person["person"] for person in homonyms}) == len(homonyms)
        careers = {(p["field"], p["institutions"][0]["ror"]) for p in homonyms}
        assert len(careers) >= 2


def test_some_people_are_split_across_two_s2_ids(
    truth: list[Json], s2_papers: list[Json], corpus: DemoCorpus
) -> None:
    split = [person for person in truth if len(person["s2_author_ids"]) >= 2]
    assert split
    profiles = {author["authorId"] for author in corpus.s2_authors()}
    listed = {a["authorId"] for paper in s2_papers for a in paper["authors"]}
    for person in split:
        assert set(person["s2_author_ids"]) <= profiles & listed


def test_truth_matches_every_s2_and_openalex_author_slot(
    truth: list[Json], s2_papers: list[Json], works: list[Json]
) -> None:
    slots = {
        (arxiv_id, position): person["person"]
        for person in truth
        for arxiv_id, position in person["arxiv"]
    }
    s2_owner = {s2_id: p["person"] for p in truth for s2_id in p["s2_author_ids"]}
    for paper in s2_papers:
        arxiv_id = paper["externalIds"]["ArXiv"]
        for position, author in enumerate(paper["authors"], start=1):
            if author["authorId"] is not None:
                assert s2_owner[author["authorId"]] == slots[(arxiv_id, position)]

    openalex_owners: dict[str, set[str]] = defaultdict(set)
    for person in truth:
        for author_id in person["openalex_author_ids"]:
            openalex_owners[author_id].add(person["person"])
    for work in works:
        arxiv_id = work["locations"][-1]["landing_page_url"].removeprefix("https://arxiv.org/abs/")
        for position, authorship in enumerate(work["authorships"], start=1):
            author_id = ids.normalize_openalex(authorship["author"]["id"])
            assert slots[(arxiv_id, position)] in openalex_owners[author_id]
    for owners in openalex_owners.values():
        if len(owners) > 1:  # an over-merge: truth flags every person behind it
            flagged = [p for p in truth if p["person"] in owners]
            assert all(person["openalex_shared"] for person in flagged)


def test_truth_slots_point_at_the_printed_authors(
    truth: list[Json], authors_by_paper: dict[str, list[str]]
) -> None:
    for person in truth[:2000]:
        for arxiv_id, position in person["arxiv"]:
            printed = authors_by_paper[arxiv_id][position - 1]
            assert printed in person["printed_names"]


def test_ids_are_valid_in_each_sources_scheme(
    corpus: DemoCorpus, truth: list[Json], s2_papers: list[Json], works: list[Json]
) -> None:
    for paper in s2_papers:
        assert re.fullmatch(r"[0-9a-f]{40}", paper["paperId"])
        assert isinstance(paper["corpusId"], int)
        assert ids.normalize_arxiv_id(paper["externalIds"]["ArXiv"])
        assert all(a["authorId"] is None or a["authorId"].isdigit() for a in paper["authors"])
    for work in works:
        assert ids.normalize_openalex(work["id"]).startswith("W")
        if work["type"] == "preprint":
            arxiv_id = ids.arxiv_id_from_doi(work["doi"])
            assert arxiv_id
            assert work["doi"] == f"https://doi.org/{ids.arxiv_doi(arxiv_id)}"
        for authorship in work["authorships"]:
            assert ids.normalize_openalex(authorship["author"]["id"]).startswith("A5")
            for institution in authorship["institutions"]:
                assert ids.normalize_openalex(institution["id"]).startswith("I")
                ids.normalize_ror(institution["ror"])
    for record in corpus.ror_records():
        ids.normalize_ror(record["id"])
    orcids = [person["orcid"] for person in truth if person["orcid"]]
    orcids += [a["orcid"] for a in corpus.openalex_authors() if a["orcid"]]
    assert orcids
    for orcid in orcids:
        ids.normalize_orcid(orcid)  # raises on a bad checksum


def test_about_forty_percent_of_people_have_an_orcid(truth: list[Json]) -> None:
    share = sum(1 for person in truth if person["orcid"]) / len(truth)
    assert 0.25 < share < 0.55


def test_sources_cover_large_overlapping_subsets(
    records: list[ET.Element], s2_papers: list[Json], works: list[Json]
) -> None:
    arxiv_ids = {r.findtext(f".//{ARXIV}id") for r in records}
    s2_ids = {paper["externalIds"]["ArXiv"] for paper in s2_papers}
    openalex_ids = {w["locations"][-1]["landing_page_url"].rsplit("abs/", 1)[1] for w in works}
    assert s2_ids <= arxiv_ids
    assert openalex_ids <= arxiv_ids
    assert 0.75 < len(s2_ids) / len(arxiv_ids) < 0.85
    assert 0.65 < len(openalex_ids) / len(arxiv_ids) < 0.75
    assert len(s2_ids & openalex_ids) / len(arxiv_ids) > 0.5


def test_openalex_truncates_long_author_lists_at_100(works: list[Json]) -> None:
    truncated = [work for work in works if work["is_authors_truncated"]]
    assert truncated
    assert all(len(work["authorships"]) == 100 for work in truncated)
    assert all(len(w["authorships"]) <= 100 for w in works if not w["is_authors_truncated"])
    positions = Counter(a["author_position"] for w in works for a in w["authorships"])
    assert positions["first"] == len(works)


def test_names_are_printed_in_variants(truth: list[Json], works: list[Json]) -> None:
    variants = [person["printed_names"] for person in truth if len(person["printed_names"]) > 1]
    assert any(re.search(r"\b[A-Z]\.", name) for names in variants for name in names)
    folded_only = [
        names for names in variants if len({ascii_fold(name) for name in names}) < len(names)
    ]
    assert folded_only  # the same name with and without diacritics
    raw_names = [a["raw_author_name"] for work in works for a in work["authorships"]]
    assert any("\u2010" in name for name in raw_names)


def test_people_with_long_careers_move_between_institutions(
    truth: list[Json], records: list[ET.Element]
) -> None:
    year = {
        r.findtext(f".//{ARXIV}id"): int((r.findtext(f".//{ARXIV}created") or "")[:4])
        for r in records
    }
    long_careers = [
        person
        for person in truth
        if len(person["arxiv"]) >= 10
        and max(year[a] for a, _ in person["arxiv"]) - min(year[a] for a, _ in person["arxiv"]) >= 6
    ]
    movers = [person for person in long_careers if len(person["institutions"]) >= 2]
    assert len(long_careers) > 20
    assert len(movers) / len(long_careers) > 0.2
    for person in movers:
        first_years = [entry["from_year"] for entry in person["institutions"]]
        assert first_years == sorted(first_years)


def test_people_stay_mostly_within_three_categories(
    truth: list[Json], records: list[ET.Element]
) -> None:
    primary = {
        r.findtext(f".//{ARXIV}id"): (r.findtext(f".//{ARXIV}categories") or "").split()[0]
        for r in records
    }
    shares = []
    for person in truth:
        if 10 <= len(person["arxiv"]) < 200:
            counts = Counter(primary[arxiv_id] for arxiv_id, _ in person["arxiv"])
            shares.append(sum(n for _, n in counts.most_common(3)) / len(person["arxiv"]))
    assert len(shares) > 50
    assert sum(shares) / len(shares) > 0.7
    assert sum(1 for share in shares if share >= 0.5) / len(shares) > 0.9


def test_citations_are_heavy_tailed(s2_papers: list[Json]) -> None:
    counts = sorted(paper["citationCount"] for paper in s2_papers)
    median = counts[len(counts) // 2]
    assert counts[0] == 0
    assert counts[-1] > 20 * max(median, 1)


def test_ror_relationships_are_symmetric(corpus: DemoCorpus, works: list[Json]) -> None:
    records = {record["id"]: record for record in corpus.ror_records()}
    links = [(rid, rel) for rid, record in records.items() for rel in record["relationships"]]
    assert any(rel["type"] == "parent" for _, rel in links)
    opposite = {"parent": "child", "child": "parent"}
    for rid, rel in links:
        back = records[rel["id"]]["relationships"]
        assert {"type": opposite[rel["type"]], "id": rid} in [
            {"type": item["type"], "id": item["id"]} for item in back
        ]
    used = {i["ror"] for work in works for a in work["authorships"] for i in a["institutions"]}
    assert used <= set(records)
