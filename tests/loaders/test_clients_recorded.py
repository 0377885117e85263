"""The source clients against real answers recorded from the services (../shared/data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from scholargraph.graph.config import Secret
from scholargraph.graph.errors import BadInput, SourceAuthError
from scholargraph.graph.loaders.clients import (
    ArxivClient,
    OpenAlexClient,
    OpenAlexSettings,
    OrcidClient,
    RorClient,
    S2Settings,
    SemanticScholarClient,
    chosen_organizations,
)
from scholargraph.graph.loaders.clients.arxiv import feed_counts
from tests.loaders.fake_time import FakeTime

pytestmark = pytest.mark.shared


async def collect(pages: Any) -> list[Any]:
    return [page async for page in pages]


def mock(handler: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


Recorded = tuple[str, str, str, int, str]  # method, uri, request body, status, response body
DROPPED_PARAMS = {"api_key", "mailto"}  # credentials and contact, not part of what is asked
PARAM_ALIASES = {"per_page": "per-page"}  # OpenAlex takes both spellings


def request_shape(method: str, url: httpx.URL, body: str) -> tuple[Any, ...]:
    params = sorted(
        (PARAM_ALIASES.get(k, k), v) for k, v in url.params.multi_items() if k not in DROPPED_PARAMS
    )
    return (method.upper(), url.path, tuple(params), json.dumps(json.loads(body)) if body else "")


class Replay:
    """Serves recorded answers; a request nobody recorded fails the test."""

    def __init__(self, interactions: list[Recorded]) -> None:
        self.answers = {
            request_shape(method, httpx.URL(uri), body): (status, text)
            for method, uri, body, status, text in interactions
        }
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        shape = request_shape(request.method, request.url, request.content.decode())
        assert shape in self.answers, f"no recorded answer for {shape}"
        status, text = self.answers[shape]
        return httpx.Response(status, text=text, headers={"Content-Type": "application/json"})

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self))


def s2_cassette(path: Path) -> list[Recorded]:
    recorded = []
    for item in yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"]:
        request, response = item["request"], item["response"]
        # Two recorder versions wrote these: status/body.string and status_code/content.
        status = response["status"]["code"] if "status" in response else response["status_code"]
        text = response["body"]["string"] if "body" in response else response["content"]
        recorded.append((request["method"], request["uri"], request["body"] or "", status, text))
    return recorded


def r_vcr_cassette(path: Path) -> list[Recorded]:
    return [
        (
            i["request"]["method"].upper(),
            i["request"]["uri"],
            "",
            i["response"]["status"],
            i["response"]["body"]["string"],
        )
        for i in yaml.safe_load(path.read_text(encoding="utf-8"))["http_interactions"]
    ]


def fields_of(uri: str) -> list[str]:
    return httpx.URL(uri).params["fields"].split(",")


async def test_s2_recorded_single_lookups_replay(shared_data: Path) -> None:
    folder = shared_data / "semanticscholar" / "danielnsilva-semanticscholar"
    names = ["test_get_paper", "test_get_author", "test_not_found", "test_bad_query_parameters"]
    interactions = [i for name in names for i in s2_cassette(folder / f"{name}.yaml")]
    replay = Replay(interactions)
    s2 = SemanticScholarClient(replay.client(), S2Settings(), timing=FakeTime().timing())
    outcomes = []
    for _, uri, _, status, text in interactions:
        kind, _, ref = httpx.URL(uri).path.removeprefix("/graph/v1/").partition("/")
        lookup = s2.paper if kind == "paper" else s2.author
        if status == 400:
            with pytest.raises(BadInput, match="Unrecognized or unsupported fields"):
                await lookup(ref, fields_of(uri))
            outcomes.append("rejected")
            continue
        answer = await lookup(ref, fields_of(uri))
        assert answer == (json.loads(text) if status == 200 else None)
        outcomes.append("found" if answer else "missing")
    assert sorted(outcomes) == ["found", "found", "missing", "missing", "rejected"]
    assert len(replay.requests) == len(interactions)


async def test_s2_recorded_batches_keep_unknown_ids_as_none(shared_data: Path) -> None:
    folder = shared_data / "semanticscholar" / "danielnsilva-semanticscholar"
    names = [
        "test_get_papers",
        "test_get_papers_not_found_warning",
        "test_get_authors",
        "test_get_authors_not_found_warning",
    ]
    nulls = 0
    for name in names:
        [(_, uri, body, _, text)] = s2_cassette(folder / f"{name}.yaml")
        s2 = SemanticScholarClient(
            Replay(s2_cassette(folder / f"{name}.yaml")).client(),
            S2Settings(),
            timing=FakeTime().timing(),
        )
        ids = json.loads(body)["ids"]
        batch = s2.papers if "/paper/" in uri else s2.authors
        answers = await batch(ids, fields_of(uri))
        assert answers == json.loads(text)
        assert len(answers) == len(ids)
        nulls += answers.count(None)
    assert nulls == 2  # the unknown CorpusId:211530585 and the unknown author "0"


async def test_s2_recorded_forbidden_key_names_the_setting(shared_data: Path) -> None:
    cassette = s2_cassette(
        shared_data / "semanticscholar" / "danielnsilva-semanticscholar" / "test_debug.yaml"
    )
    [(_, uri, body, _, _)] = cassette
    replay = Replay(cassette)
    s2 = SemanticScholarClient(
        replay.client(), S2Settings(api_key=Secret("F@k3K3y")), timing=FakeTime().timing()
    )
    with pytest.raises(SourceAuthError, match=r"HTTP 403: Forbidden.*S2_API_KEY"):
        await s2.papers(json.loads(body)["ids"], fields_of(uri))
    assert replay.requests[0].headers["x-api-key"] == "F@k3K3y"


async def test_s2_recorded_author_papers_follow_offsets(shared_data: Path) -> None:
    folder = shared_data / "semanticscholar" / "danielnsilva-semanticscholar"
    replay = Replay(s2_cassette(folder / "test_get_author_papers.yaml"))
    s2 = SemanticScholarClient(replay.client(), S2Settings(), timing=FakeTime().timing())
    pages = await collect(s2.author_paper_pages("1723755", ["title"], page_size=100))
    assert [p["offset"] for p in pages] == list(range(0, 900, 100))
    assert "next" not in pages[-1]
    papers = [paper["paperId"] for page in pages for paper in page["data"]]
    assert len(papers) == len(set(papers)) > 800

    replay = Replay(s2_cassette(folder / "test_get_paper_authors.yaml"))
    s2 = SemanticScholarClient(replay.client(), S2Settings(), timing=FakeTime().timing())
    [uri] = [u for _, u, *_ in s2_cassette(folder / "test_get_paper_authors.yaml")]
    [page] = await collect(s2.paper_author_pages("10.2139/ssrn.2250500", fields_of(uri)))
    assert page["data"][0]["name"] == "E. Duflo"


async def test_openalex_recorded_cursor_walk_and_errors(shared_data: Path) -> None:
    folder = shared_data / "openalex" / "rkrug-openalexPro" / "fixtures" / "vcr"
    names = ["pro_snowball", "api_call_200", "opt_select_fields"]
    recorded = [i for name in names for i in r_vcr_cassette(folder / f"{name}.yml")]
    replay = Replay(recorded)
    oa = OpenAlexClient(
        replay.client(), OpenAlexSettings(api_key=Secret("real-key")), timing=FakeTime().timing()
    )

    pages = await collect(oa.work_pages("openalex:W3045921891|W3046863325"))
    ids = {w["id"].rsplit("/", 1)[-1] for p in pages for w in p["results"]}
    assert ids == {"W3045921891", "W3046863325"}
    assert [r.url.params["cursor"] for r in replay.requests][-1] != "*"
    assert all(r.url.params["api_key"] == "real-key" for r in replay.requests)

    work = await oa.work("W4234567890")
    assert work is not None
    assert work["id"] == "https://openalex.org/W4234567890"

    with pytest.raises(BadInput, match="DOESNTEXIST is not a valid select field"):
        await oa.work("W1775749144", select=["DOESNTEXIST"])


@pytest.mark.parametrize(
    ("cassette", "outcome"),
    [("pro_rate_limit_status_200", "ok"), ("pro_rate_limit_status_401", "refused")],
)
async def test_openalex_recorded_key_status(shared_data: Path, cassette: str, outcome: str) -> None:
    path = shared_data / "openalex" / "rkrug-openalexPro" / "fixtures" / "vcr" / f"{cassette}.yml"
    oa = OpenAlexClient(
        Replay(r_vcr_cassette(path)).client(),
        OpenAlexSettings(api_key=Secret("k")),
        timing=FakeTime().timing(),
    )
    if outcome == "ok":
        assert "daily_remaining_usd" in (await oa.rate_limit_status())["rate_limit"]
    else:
        with pytest.raises(SourceAuthError, match=r"API key not found.*OPENALEX_API_KEY"):
            await oa.rate_limit_status()


async def test_openalex_real_truncated_works_are_the_ones_fetched_again(shared_data: Path) -> None:
    folder = shared_data / "openalex" / "mearman-academic-explorer-cache" / "works" / "queries"
    [path] = folder.glob("filter__3D__from_publication_date__3A__2023-01-01*.json")
    page = json.loads(path.read_text(encoding="utf-8"))
    flagged = {w["id"].rsplit("/", 1)[-1] for w in page["results"] if w.get("is_authors_truncated")}
    assert flagged  # the recorded page does hold works cut off at 100 authorships

    fetched: list[str] = []

    def full_work(request: httpx.Request) -> httpx.Response:
        fetched.append(request.url.path.rsplit("/", 1)[-1])
        return httpx.Response(200, json={"id": fetched[-1], "is_authors_truncated": False})

    oa = OpenAlexClient(
        mock(full_work), OpenAlexSettings(api_key=Secret("k")), timing=FakeTime().timing()
    )
    completed = [await oa.complete_authorships(w) for w in page["results"]]
    assert set(fetched) == flagged
    assert len(fetched) == len(flagged)
    assert not any(w.get("is_authors_truncated") for w in completed)


async def test_arxiv_recorded_atom_answers_replay(shared_data: Path) -> None:
    recorded = {}
    for path in sorted((shared_data / "arxiv" / "arxiv-api-atom" / "recorded").glob("*.json")):
        item = json.loads(path.read_text(encoding="utf-8"))
        params = httpx.URL(item["url"]).params
        shape = tuple(
            params.get(k, "") for k in ("search_query", "id_list", "start", "max_results")
        )
        # Stored as latin-1 text; these are the exact bytes arXiv sent.
        recorded[shape] = (item["status_code"], item["body"].encode("latin-1"))

    fake = FakeTime()
    times: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        times.append(fake.now)
        params = request.url.params
        shape = tuple(
            params.get(k, "") for k in ("search_query", "id_list", "start", "max_results")
        )
        status, body = recorded[shape]
        return httpx.Response(
            status, content=body, headers={"Content-Type": "application/atom+xml; charset=UTF-8"}
        )

    arxiv = ArxivClient(mock(answer), timing=fake.timing())
    singles = [
        "1605.08386",
        "1707.08567",
        "2104.12255v1",
        "astro-ph/0601001",
        "quant-ph/0201082v1",
        "0808.05394",
        "0000.0000",
    ]
    for arxiv_id in singles:
        [feed] = await collect(arxiv.feeds_by_id([arxiv_id]))
        assert feed.encode() == recorded[("", arxiv_id, "0", "100")][1]
    [pair] = await collect(arxiv.feeds_by_id(["0808.05394", "1707.08567"]))
    assert (
        feed_counts(pair).entries == 1
    )  # 0808.05394 does not exist; arXiv answers for the other alone
    with pytest.raises(BadInput, match="incorrect id format for abc"):
        await collect(arxiv.feeds_by_id(["abc"]))

    times.clear()
    pages = await collect(arxiv.search_pages("testing", page_size=10, limit=60))
    assert [feed_counts(p).entries for p in pages] == [10] * 6
    assert feed_counts(pages[0]).total > 200_000
    assert times == pytest.approx([times[0] + 3 * n for n in range(6)])


async def test_ror_recorded_records_and_real_affiliation_strings(shared_data: Path) -> None:
    folder = shared_data / "ror" / "ror-api-tests"
    search = json.loads(
        (folder / "tests_unit" / "data" / "test_data_search_es7_v2.json").read_text(
            encoding="utf-8"
        )
    )
    records = {
        hit["_source"]["id"].rsplit("/", 1)[-1]: hit["_source"] for hit in search["hits"]["hits"]
    }
    gold = json.loads(
        (
            folder / "tests_affiliations" / "data" / "dataset_affiliations_crossref_2024_02_19.json"
        ).read_text(encoding="utf-8")
    )
    sample = gold[::10]
    by_text = {row["affiliation"]: row["ror_ids"] for row in sample}

    def answer(request: httpx.Request) -> httpx.Response:
        if "affiliation" in request.url.params:
            ror_ids = by_text[request.url.params["affiliation"]]  # the exact string must arrive
            decoy = {"score": 1.0, "chosen": False, "organization": {"id": "https://ror.org/decoy"}}
            chosen = [{"score": 0.9, "chosen": True, "organization": {"id": i}} for i in ror_ids]
            return httpx.Response(
                200, json={"number_of_results": 1 + len(chosen), "items": [decoy, *chosen]}
            )
        ror_id = request.url.path.rsplit("/", 1)[-1]
        return (
            httpx.Response(200, json=records[ror_id])
            if ror_id in records
            else httpx.Response(404, json={"errors": ["not found"]})
        )

    ror = RorClient(mock(answer), timing=FakeTime().timing())
    for ror_id, record in records.items():
        assert await ror.organization(f"https://ror.org/{ror_id}") == record
    assert await ror.organization("0abcdef12") is None
    for row in sample:
        matched = chosen_organizations(await ror.match_affiliation(row["affiliation"]))
        assert [org["id"] for org in matched] == row["ror_ids"]


async def test_orcid_official_sample_record(shared_data: Path) -> None:
    path = (
        shared_data
        / "orcid"
        / "orcid-model-samples"
        / "record_3.0"
        / "samples"
        / "read_samples"
        / "record-full-3.0.json"
    )
    sample = json.loads(path.read_text(encoding="utf-8"))
    orcid_id = sample["orcid-identifier"]["path"]
    paths: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.path)
        return httpx.Response(200, json=sample)

    orcid = OrcidClient(mock(answer), timing=FakeTime().timing())
    assert await orcid.record(orcid_id) == sample
    assert paths == [f"/v3.0/{orcid_id}/record"]
