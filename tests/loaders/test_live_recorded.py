"""Live loads replaying real recorded source answers (../shared/data) through the clients."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from scholargraph.graph.loaders.clients import (
    ArxivClient,
    ArxivSettings,
    OpenAlexClient,
    OrcidClient,
    RorClient,
    SemanticScholarClient,
)
from scholargraph.graph.loaders.live import (
    arxiv_chunks,
    openalex_chunks,
    orcid_chunks,
    ror_chunks,
    s2_chunks,
)
from scholargraph.graph.records import AuthorRecord, Batch
from tests.loaders.fake_time import FakeTime

pytestmark = pytest.mark.shared

Handler = Callable[[httpx.Request], httpx.Response]
Chunks = list[tuple[str, Batch]]


def mock(handler: Handler) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


async def collect(chunks: Any) -> Chunks:
    return [chunk async for chunk in chunks]


def merged(chunks: Chunks) -> Batch:
    batch = Batch()
    for _, chunk in chunks:
        batch.extend(chunk)
    return batch


def reasons(batch: Batch) -> dict[str, str]:
    return {r.ref: r.reason for r in batch.rejected}


def json_response(payload: Any, status: int = 200) -> httpx.Response:
    return httpx.Response(status, json=payload)


# arXiv ----------------------------------------------------------------------------------


def atom_recordings(shared_data: Path) -> dict[tuple[str, ...], bytes]:
    recorded = {}
    for path in (shared_data / "arxiv" / "arxiv-api-atom" / "recorded").glob("*.json"):
        item = json.loads(path.read_text(encoding="utf-8"))
        recorded[atom_shape(httpx.URL(item["url"]))] = item["body"].encode("latin-1")
    return recorded


def atom_shape(url: httpx.URL) -> tuple[str, ...]:
    params = url.params
    if params.get("id_list"):
        # An id lookup answers the same whatever the page size (one id, one entry at most).
        return ("id_list", params["id_list"])
    return tuple(params.get(k, "") for k in ("search_query", "start", "max_results"))


def atom_replay(recorded: dict[tuple[str, ...], bytes], asked: list[str]) -> Handler:
    def answer(request: httpx.Request) -> httpx.Response:
        shape = atom_shape(request.url)
        asked.append(request.url.params.get("id_list") or request.url.params["start"])
        assert shape in recorded, f"no recorded arXiv answer for {shape}"
        return httpx.Response(200, content=recorded[shape])

    return answer


async def test_arxiv_recorded_id_lookups_and_search_pages(shared_data: Path) -> None:
    recorded, asked = atom_recordings(shared_data), []
    client = ArxivClient(
        mock(atom_replay(recorded, asked)),
        ArxivSettings(ids_per_request=1),
        timing=FakeTime().timing(),
    )
    ids = ["1605.08386", "1707.08567", "2104.12255v1", "astro-ph/0601001", "quant-ph/0201082v1"]
    # 0808.05394 and 0000.0000 are malformed (arXiv itself says so for abc); none is sent.
    chunks = await collect(arxiv_chunks(client, ids=[*ids, "0808.05394", "0000.0000", "abc"]))
    assert asked == ids
    batch = merged(chunks)
    assert [p.arxiv_id for p in batch.papers] == [i.removesuffix("v1") for i in ids]
    assert reasons(batch).keys() == {"0808.05394", "0000.0000", "abc"}
    quantum = batch.papers[-1]
    assert quantum.primary_category is not None
    assert quantum.primary_category.startswith("quant-ph")
    assert all(p.authorships and p.title and p.published for p in batch.papers)

    asked.clear()
    pages = await collect(arxiv_chunks(client, query="testing", limit=60, page_size=10))
    assert asked == ["0", "10", "20", "30", "40", "50"]
    assert [name for name, _ in pages] == [
        f"arxiv:atom:query=testing:size=10:page={n}" for n in range(6)
    ]
    assert [len(page.papers) for _, page in pages] == [10] * 6


# Semantic Scholar -----------------------------------------------------------------------


def s2_folder(shared_data: Path) -> Path:
    return shared_data / "semanticscholar" / "danielnsilva-semanticscholar"


def cassette_bodies(path: Path) -> list[tuple[str, str]]:
    """(request body, response body) of each recorded interaction."""
    pairs = []
    for item in yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"]:
        response = item["response"]
        text = response["body"]["string"] if "body" in response else response["content"]
        pairs.append((item["request"]["body"] or "", text))
    return pairs


async def test_s2_recorded_batch_with_an_unknown_id_then_author_profiles(
    shared_data: Path,
) -> None:
    folder = s2_folder(shared_data)
    [(asked_body, paper_answer)] = cassette_bodies(
        folder / "test_get_papers_not_found_warning.yaml"
    )
    recorded_ids = json.loads(asked_body)["ids"]
    [(_, authors_page)] = cassette_bodies(folder / "test_get_paper_authors.yaml")
    profiles = {a["authorId"]: a for a in json.loads(authors_page)["data"]}
    author_requests: list[list[str]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        ids = json.loads(request.content)["ids"]
        if request.url.path.endswith("/paper/batch"):
            # The recording asked for the DOI bare; S2 reads it with or without "DOI:".
            assert [i.removeprefix("DOI:") for i in ids] == recorded_ids
            return httpx.Response(200, text=paper_answer)
        author_requests.append(ids)
        return json_response([profiles.get(i) for i in ids])

    client = SemanticScholarClient(mock(answer), timing=FakeTime().timing())
    chunks = await collect(s2_chunks(client, refs=recorded_ids))
    assert [name.rsplit(":", 1)[0] for name, _ in chunks] == ["s2:papers:0", "s2:authors:0.0"]
    batch = merged(chunks)
    assert len(batch.papers) == 3
    duflo = "2259683"
    assert author_requests[0][0] == "81141608"
    assert author_requests[0].count(duflo) == 1  # an author of all three papers, asked once
    [profile] = [a for a in batch.authors if a.s2_ids == (duflo,)]
    assert (profile.name, profile.h_index, profile.paper_count) == ("E. Duflo", 91, 282)
    assert len(batch.authors) == len(profiles)
    unknown = reasons(batch)
    assert "null in the /paper/batch answer" in unknown["CorpusId:211530585"]
    assert sum("null in the /author/batch answer" in r for r in unknown.values()) == 4


async def test_s2_recorded_papers_carry_lecun_and_touvron_ids(shared_data: Path) -> None:
    turing = json.loads((s2_folder(shared_data) / "Paper.json").read_text(encoding="utf-8"))
    by_arxiv = {
        f"arXiv:{p['externalIds']['ArXiv']}": p
        for p in turing["citations"] + turing["references"]
        if (p.get("externalIds") or {}).get("ArXiv")
    }

    def answer(request: httpx.Request) -> httpx.Response:
        return json_response([by_arxiv.get(i) for i in json.loads(request.content)["ids"]])

    client = SemanticScholarClient(mock(answer), timing=FakeTime().timing())
    refs = ["2210.08340", "arXiv:2302.13971v1", "2301.08658"]
    batch = merged(await collect(s2_chunks(client, refs=refs, with_authors=False)))
    neuroai, llama = batch.papers
    people: dict[str, AuthorRecord] = {
        a.author.s2_ids[0]: a.author for p in batch.papers for a in p.authorships
    }
    assert people["1688882"].name == "Yann LeCun"
    assert [a.position for a in neuroai.authorships if a.author.s2_ids == ("1688882",)] == [16]
    assert llama.authorships[0].author.s2_ids == ("2113243762",)  # Hugo Touvron, first author
    assert reasons(batch).keys() == {"arXiv:2301.08658"}


# OpenAlex -------------------------------------------------------------------------------


def openalex_folder(shared_data: Path) -> Path:
    return shared_data / "openalex"


def vcr_answers(path: Path) -> list[tuple[httpx.URL, int, str]]:
    answers = []
    for item in yaml.safe_load(path.read_text(encoding="utf-8"))["http_interactions"]:
        status = item["response"]["status"]
        # Two recorder versions: a bare number, or {"status_code": …, "message": …}.
        code = status["status_code"] if isinstance(status, dict) else status
        answers.append(
            (httpx.URL(item["request"]["uri"]), code, item["response"]["body"]["string"])
        )
    return answers


def work_pool(shared_data: Path) -> dict[str, dict[str, Any]]:
    """Every full work in the recorded OpenAlex list answers, by lower-cased DOI."""
    folder = openalex_folder(shared_data)
    pages = [
        json.loads(text)
        for _, status, text in vcr_answers(
            folder / "rkrug-openalexPro/fixtures/vcr/oa_snowball.yml"
        )
        if status == 200
    ]
    cache = folder / "mearman-academic-explorer-cache" / "works" / "queries"
    pages += [json.loads(p.read_text(encoding="utf-8")) for p in cache.glob("*.json")]
    return {
        work["doi"].removeprefix("https://doi.org/").lower(): work
        for page in pages
        for work in page.get("results", [])
        if work.get("doi")
    }


async def test_openalex_recorded_works_by_arxiv_doi(shared_data: Path) -> None:
    pool = work_pool(shared_data)
    filters: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        expr = request.url.params["filter"]
        filters.append(expr)
        works = [pool[d] for d in expr.removeprefix("doi:").split("|") if d in pool]
        return json_response({"meta": {"count": len(works), "next_cursor": None}, "results": works})

    client = OpenAlexClient(mock(answer), timing=FakeTime().timing())
    arxiv_ids = ["2007.14454", "1609.08144v2", "2302.13971", "2010.11929", "1810.04805"]
    chunks = await collect(
        openalex_chunks(client, arxiv_ids=arxiv_ids, dois=["https://doi.org/10.18653/v1/N19-1423"])
    )
    [expr] = filters
    assert expr.startswith("doi:10.48550/arxiv.2007.14454|10.48550/arxiv.1609.08144|")
    batch = merged(chunks)
    assert [p.arxiv_id for p in batch.papers] == [
        "2007.14454",
        "1609.08144",
        "2302.13971",
        "2010.11929",
        None,
    ]
    llama = batch.papers[2]
    assert llama.authorships[0].author.openalex_ids == ("A5032644449",)  # Hugo Touvron
    assert llama.authorships[0].author.name == "Hugo Touvron"
    found = reasons(batch)
    # BERT's preprint DOI is not in the recorded answers; its NAACL record has no title but
    # is kept, with its authorships and ids, until another source titles it.
    assert found["1810.04805"] == "OpenAlex has no work with DOI 10.48550/arxiv.1810.04805"
    bert = batch.papers[4]
    assert (bert.openalex_id, bert.title, len(bert.authorships)) == ("W2963341956", "", 4)
    assert len(found) == 1


async def test_openalex_recorded_cursor_walk(shared_data: Path) -> None:
    path = openalex_folder(shared_data) / "rkrug-openalexPro/fixtures/vcr/pro_snowball.yml"
    by_cursor = {
        url.params["cursor"]: text
        for url, status, text in vcr_answers(path)
        if status == 200 and "cursor" in url.params
    }

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.params["filter"] == "openalex:W3045921891|W3046863325"
        return httpx.Response(200, text=by_cursor[request.url.params["cursor"]])

    client = OpenAlexClient(mock(answer), timing=FakeTime().timing())
    chunks = await collect(openalex_chunks(client, filter="openalex:W3045921891|W3046863325"))
    assert [name.rsplit("=", 1)[1] for name, _ in chunks] == ["0", "1"]  # the last page is empty
    assert sorted(p.openalex_id or "" for p in merged(chunks).papers) == [
        "W3045921891",
        "W3046863325",
    ]


# ROR and ORCID --------------------------------------------------------------------------


def ror_records(shared_data: Path) -> dict[str, dict[str, Any]]:
    records = {}
    for path in sorted((shared_data / "ror" / "ror-records-v2-latest").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            records[record["id"]] = record
    return records


async def test_ror_recorded_records_and_real_affiliation_strings(shared_data: Path) -> None:
    records = ror_records(shared_data)
    gold_path = (
        shared_data
        / "ror/ror-api-tests/tests_affiliations/data/dataset_affiliations_crossref_2024_02_19.json"
    )
    gold = json.loads(gold_path.read_text(encoding="utf-8"))
    # Strings whose organisations are all among the recorded records, a few with none at all.
    sample = [row for row in gold if row["ror_ids"] and set(row["ror_ids"]) <= records.keys()]
    sample = sample[:40] + [row for row in gold if not row["ror_ids"]][:5]
    by_text = {row["affiliation"]: row["ror_ids"] for row in sample}
    decoy = next(iter(records.values()))

    def answer(request: httpx.Request) -> httpx.Response:
        text = request.url.params.get("affiliation")
        if text is None:
            ror_url = "https://ror.org/" + request.url.path.rsplit("/", 1)[-1]
            return json_response(records[ror_url]) if ror_url in records else httpx.Response(404)
        items = [{"score": 1.0, "chosen": False, "organization": decoy}]
        items += [{"score": 0.9, "chosen": True, "organization": records[i]} for i in by_text[text]]
        return json_response({"number_of_results": len(items), "items": items})

    ror_ids = [record_id.removeprefix("https://ror.org/") for record_id in list(records)[:30]]
    client = RorClient(mock(answer), timing=FakeTime().timing())
    chunks = await collect(
        ror_chunks(client, ror_ids=[*ror_ids, "0abcdef12"], affiliations=list(by_text))
    )
    by_name = {name.split(":")[1]: batch for name, batch in chunks}
    assert [i.ror_id for i in by_name["organizations"].institutions] == ror_ids
    assert reasons(by_name["organizations"]) == {
        "0abcdef12": "ROR has no organization with this id"
    }
    matched = {i.ror_id for i in by_name["affiliations"].institutions}
    expected = {i.removeprefix("https://ror.org/") for ids in by_text.values() for i in ids}
    assert matched == expected  # the chosen ones only, never the decoy with the best score
    assert len(by_name["affiliations"].rejected) == 5


async def test_orcid_recorded_official_sample(shared_data: Path) -> None:
    path = (
        shared_data
        / "orcid/orcid-model-samples/record_3.0/samples/read_samples/record-full-3.0.json"
    )
    sample = json.loads(path.read_text(encoding="utf-8"))
    orcid_id = sample["orcid-identifier"]["path"]

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.path == f"/v3.0/{orcid_id}/record"
        return json_response(sample)

    client = OrcidClient(mock(answer), timing=FakeTime().timing())
    [(name, batch)] = await collect(orcid_chunks(client, orcids=[orcid_id]))
    assert name.startswith("orcid:records:0:")
    [person] = batch.authors
    assert (person.name, person.orcid) == ("Three releasecandidate1", orcid_id)
    assert batch.affiliations
    assert all(a.author == person and a.source == "orcid" for a in batch.affiliations)
