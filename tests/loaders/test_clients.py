from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import Any

import httpx
import pytest

from scholargraph.graph.config import Secret
from scholargraph.graph.errors import BadInput, ConfigError, SourceAuthError, SourceError
from scholargraph.graph.loaders.clients import (
    ArxivClient,
    ArxivSettings,
    OpenAlexClient,
    OpenAlexSettings,
    OrcidClient,
    RorClient,
    RorSettings,
    S2Settings,
    SemanticScholarClient,
    arxiv_ref,
    chosen_organizations,
    doi_ref,
)
from scholargraph.graph.loaders.clients.arxiv import feed_counts
from scholargraph.graph.loaders.http import RateLimit
from tests.loaders.fake_time import FakeTime

Handler = Callable[[httpx.Request], httpx.Response]
FAST = RateLimit(per_second=100.0, burst=100)
ATOM_NS = (
    'xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"'
)
OAI_NS = 'xmlns="http://www.openarchives.org/OAI/2.0/"'


class Recorder:
    """Calls ``answer`` for each request and keeps the requests and the fake time they came."""

    def __init__(self, answer: Handler, fake: FakeTime | None = None) -> None:
        self.answer = answer
        self.fake = fake or FakeTime()
        self.requests: list[httpx.Request] = []
        self.times: list[float] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.times.append(self.fake.now)
        return self.answer(request)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self))

    def params(self, name: str) -> list[str | None]:
        return [r.url.params.get(name) for r in self.requests]


def atom_feed(total: int, ids: list[str]) -> str:
    entries = "".join(f"<entry><id>http://arxiv.org/abs/{i}v1</id></entry>" for i in ids)
    return (
        f"<?xml version='1.0' encoding='UTF-8'?><feed {ATOM_NS}>"
        f"<opensearch:totalResults>{total}</opensearch:totalResults>{entries}</feed>"
    )


def oai_answer(body: str) -> str:
    return f"<OAI-PMH {OAI_NS}><responseDate>2026-01-01T00:00:00Z</responseDate>{body}</OAI-PMH>"


def oai_records(ids: list[str], token: str | None) -> str:
    records = "".join(
        f"<record><header><identifier>oai:arXiv.org:{i}</identifier></header></record>" for i in ids
    )
    if token is None:  # arXiv ends a list with an empty token element
        tail = '<resumptionToken cursor="4" completeListSize="5"/>'
    else:
        tail = f'<resumptionToken cursor="0" completeListSize="5">{token}</resumptionToken>'
    return oai_answer(f"<ListRecords>{records}{tail}</ListRecords>")


def oai_error(code: str) -> str:
    return oai_answer(f'<error code="{code}">explained by arXiv</error>')


def xml(text: str, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(status, text=text, headers={"Content-Type": "text/xml", **headers})


async def collect(pages: Any) -> list[Any]:
    return [page async for page in pages]


# arXiv ----------------------------------------------------------------------------------


async def test_atom_search_pages_by_start_until_the_total_one_request_per_3_s() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        start = int(request.url.params["start"])
        size = int(request.url.params["max_results"])
        return xml(atom_feed(25, [f"2401.{n:05d}" for n in range(start, min(25, start + size))]))

    recorder = Recorder(answer)
    arxiv = ArxivClient(recorder.client(), timing=recorder.fake.timing())
    pages = await collect(arxiv.search_pages("au:lovelace AND cat:cs.CL", page_size=10))
    assert [feed_counts(p).entries for p in pages] == [10, 10, 5]
    assert recorder.params("start") == ["0", "10", "20"]
    assert recorder.params("search_query") == ["au:lovelace AND cat:cs.CL"] * 3
    assert recorder.params("sortBy") == ["relevance"] * 3
    assert recorder.times == pytest.approx([0.0, 3.0, 6.0])


async def test_atom_search_stops_at_the_limit() -> None:
    recorder = Recorder(
        lambda r: xml(atom_feed(1000, ["2401.00001"] * int(r.url.params["max_results"])))
    )
    arxiv = ArxivClient(recorder.client(), timing=recorder.fake.timing())
    pages = await collect(
        arxiv.search_pages("cat:cs.DC", page_size=10, limit=15, sort_by="submittedDate")
    )
    assert sum(feed_counts(p).entries for p in pages) == 15
    assert recorder.params("max_results") == ["10", "5"]
    assert recorder.params("sortBy") == ["submittedDate"] * 2


async def test_an_empty_page_inside_the_results_is_asked_again() -> None:
    answers = iter([atom_feed(20, ["a"] * 10), atom_feed(20, []), atom_feed(20, ["b"] * 10)])
    recorder = Recorder(lambda r: xml(next(answers)))
    arxiv = ArxivClient(recorder.client(), timing=recorder.fake.timing())
    pages = await collect(arxiv.search_pages("testing", page_size=10))
    assert [feed_counts(p).entries for p in pages] == [10, 10]
    assert recorder.params("start") == ["0", "10", "10"]


async def test_ids_go_out_in_chunks() -> None:
    recorder = Recorder(lambda r: xml(atom_feed(0, [])))
    arxiv = ArxivClient(
        recorder.client(), ArxivSettings(ids_per_request=100), timing=recorder.fake.timing()
    )
    ids = [f"2301.{n:05d}" for n in range(250)]
    assert len(await collect(arxiv.feeds_by_id(ids))) == 3
    chunks = [p.split(",") for p in recorder.params("id_list") if p]
    assert [len(c) for c in chunks] == [100, 100, 50]
    assert [i for chunk in chunks for i in chunk] == ids
    assert recorder.params("max_results") == ["100"] * 3


async def test_oai_follows_resumption_tokens_and_sends_the_token_alone() -> None:
    pages = {
        None: oai_records(["1", "2"], "t1"),
        "t1": oai_records(["3", "4"], "t2"),
        "t2": oai_records(["5"], None),
    }
    recorder = Recorder(lambda r: xml(pages[r.url.params.get("resumptionToken")]))
    arxiv = ArxivClient(recorder.client(), timing=recorder.fake.timing())
    got = await collect(
        arxiv.list_record_pages(
            "arXivRaw", set_spec="cs", from_date=date(2024, 1, 1), until=date(2024, 1, 31)
        )
    )
    assert got == list(pages.values())
    first = dict(recorder.requests[0].url.params)
    assert first == {
        "verb": "ListRecords",
        "metadataPrefix": "arXivRaw",
        "set": "cs",
        "from": "2024-01-01",
        "until": "2024-01-31",
    }
    assert [dict(r.url.params) for r in recorder.requests[1:]] == [
        {"verb": "ListRecords", "resumptionToken": "t1"},
        {"verb": "ListRecords", "resumptionToken": "t2"},
    ]
    assert str(recorder.requests[0].url).startswith("https://oaipmh.arxiv.org/oai?")


async def test_oai_no_records_match_is_empty_and_a_bad_argument_is_bad_input() -> None:
    recorder = Recorder(lambda r: xml(oai_error("noRecordsMatch")))
    arxiv = ArxivClient(recorder.client(), timing=recorder.fake.timing())
    assert await collect(arxiv.list_record_pages(from_date=date(2030, 1, 1))) == []
    recorder.answer = lambda r: xml(oai_error("badArgument"))
    with pytest.raises(BadInput, match="badArgument"):
        await collect(arxiv.list_record_pages())


async def test_oai_503_waits_the_retry_after_arxiv_asks_for() -> None:
    answers = iter([xml("busy", 503, **{"Retry-After": "5"}), xml(oai_records(["1"], None))])
    recorder = Recorder(lambda r: next(answers))
    arxiv = ArxivClient(recorder.client(), timing=recorder.fake.timing())
    assert len(await collect(arxiv.list_record_pages())) == 1
    assert recorder.fake.sleeps == [5.0]


async def test_oai_single_record_unknown_id_is_none() -> None:
    recorder = Recorder(lambda r: xml(oai_error("idDoesNotExist")))
    arxiv = ArxivClient(recorder.client(), timing=recorder.fake.timing())
    assert await arxiv.oai_record("2301.99999") is None
    assert recorder.params("identifier") == ["oai:arXiv.org:2301.99999"]


# Semantic Scholar -----------------------------------------------------------------------


def s2_client(
    recorder: Recorder, key: str | None = "k3y", **settings: Any
) -> SemanticScholarClient:
    s2 = S2Settings(api_key=Secret(key) if key else None, **settings)
    return SemanticScholarClient(recorder.client(), s2, timing=recorder.fake.timing())


def batch_answer(request: httpx.Request) -> httpx.Response:
    ids = json.loads(request.content)["ids"]
    return httpx.Response(200, json=[None if i.endswith("x") else {"paperId": i} for i in ids])


async def test_paper_batch_goes_out_in_chunks_of_500_aligned_with_unknowns_as_none() -> None:
    recorder = Recorder(batch_answer)
    refs = [f"CorpusId:{n}" for n in range(1199)] + ["CorpusId:x"]
    answers = await s2_client(recorder).papers(refs, ["title", "externalIds"])
    assert [len(json.loads(r.content)["ids"]) for r in recorder.requests] == [500, 500, 200]
    assert {r.url.path for r in recorder.requests} == {"/graph/v1/paper/batch"}
    assert recorder.params("fields") == ["title,externalIds"] * 3
    assert all(r.headers["x-api-key"] == "k3y" for r in recorder.requests)
    assert answers[0] == {"paperId": "CorpusId:0"}
    assert answers[-1] is None
    assert len(answers) == 1200
    assert recorder.times == pytest.approx([0.0, 1.0, 2.0])  # one request a second with a key


async def test_author_batch_goes_out_in_chunks_of_1000() -> None:
    recorder = Recorder(batch_answer)
    answers = await s2_client(recorder).authors([str(n) for n in range(2500)], ["name"])
    assert [len(json.loads(r.content)["ids"]) for r in recorder.requests] == [1000, 1000, 500]
    assert len(answers) == 2500


async def test_a_batch_answer_of_the_wrong_length_is_a_source_error() -> None:
    recorder = Recorder(lambda r: httpx.Response(200, json=[{"paperId": "a"}]))
    with pytest.raises(SourceError, match="same length"):
        await s2_client(recorder).papers(["a", "b"], ["title"])


def test_batch_sizes_above_the_api_limits_are_refused() -> None:
    with pytest.raises(ConfigError):
        S2Settings(paper_batch_size=1000)
    with pytest.raises(ConfigError):
        S2Settings(author_batch_size=1001)


async def test_author_papers_follow_next_until_it_is_gone() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        offset, limit = int(request.url.params["offset"]), int(request.url.params["limit"])
        page: dict[str, Any] = {
            "offset": offset,
            "data": [{"paperId": str(n)} for n in range(offset, min(250, offset + limit))],
        }
        if offset + limit < 250:
            page["next"] = offset + limit
        return httpx.Response(200, json=page)

    recorder = Recorder(answer)
    pages = await collect(s2_client(recorder).author_paper_pages("1741101", ["title"]))
    assert [len(p["data"]) for p in pages] == [100, 100, 50]
    assert recorder.params("offset") == ["0", "100", "200"]
    assert {r.url.path for r in recorder.requests} == {"/graph/v1/author/1741101/papers"}


async def test_single_lookups_build_the_reference_and_404_is_none() -> None:
    recorder = Recorder(lambda r: httpx.Response(404, json={"error": "Paper with id x not found"}))
    s2 = s2_client(recorder, key=None)
    assert await s2.paper(arxiv_ref("arXiv:2301.08658v2"), ["title"]) is None
    assert await s2.paper(doi_ref("https://doi.org/10.1000/A#B"), ["title"]) is None
    assert recorder.requests[0].url.path == "/graph/v1/paper/arXiv:2301.08658"
    assert recorder.requests[1].url.raw_path.startswith(b"/graph/v1/paper/DOI:10.1000/a%23b?")
    assert "x-api-key" not in recorder.requests[0].headers
    assert recorder.times == pytest.approx([0.0, 3.0])  # keyless callers go slower


async def test_paper_authors_pages() -> None:
    recorder = Recorder(
        lambda r: httpx.Response(200, json={"offset": 0, "data": [{"authorId": "1"}]})
    )
    pages = await collect(
        s2_client(recorder).paper_author_pages("CorpusId:1", ["name"], page_size=1000)
    )
    assert pages == [{"offset": 0, "data": [{"authorId": "1"}]}]
    assert recorder.params("limit") == ["1000"]
    assert recorder.requests[0].url.path == "/graph/v1/paper/CorpusId:1/authors"


# OpenAlex -------------------------------------------------------------------------------


def openalex_client(recorder: Recorder, **settings: Any) -> OpenAlexClient:
    oa = OpenAlexSettings(api_key=Secret("oa-key"), rate=FAST, **settings)
    return OpenAlexClient(recorder.client(), oa, timing=recorder.fake.timing())


async def test_work_pages_follow_the_cursor_to_the_end() -> None:
    cursors = {"*": "c1", "c1": "c2", "c2": None}

    def answer(request: httpx.Request) -> httpx.Response:
        cursor = request.url.params["cursor"]
        meta = {"count": 3, "next_cursor": cursors[cursor]}
        return httpx.Response(200, json={"meta": meta, "results": [{"id": f"W{cursor}"}]})

    recorder = Recorder(answer)
    pages = await collect(openalex_client(recorder).work_pages("cites:W1", select=["id", "doi"]))
    assert len(pages) == 3
    assert recorder.params("cursor") == ["*", "c1", "c2"]
    assert recorder.params("per-page") == ["200"] * 3
    assert recorder.params("select") == ["id,doi"] * 3
    assert recorder.params("api_key") == ["oa-key"] * 3


async def test_works_by_doi_batches_50_and_completes_truncated_authorships() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/works":
            dois = request.url.params["filter"].removeprefix("doi:").split("|")
            results = [
                {
                    "id": f"https://openalex.org/W{n}",
                    "doi": d,
                    "is_authors_truncated": d.endswith("7"),
                }
                for n, d in enumerate(dois)
            ]
            return httpx.Response(200, json={"meta": {"next_cursor": None}, "results": results})
        return httpx.Response(200, json={"id": request.url.path, "is_authors_truncated": False})

    recorder = Recorder(answer)
    dois = [f"10.48550/arXiv.2301.{n:05d}" for n in range(120)] + ["10.1000/odd,doi"]
    works = await collect(openalex_client(recorder).works_by_doi(dois))
    lists = [r for r in recorder.requests if r.url.path == "/works"]
    assert [len(r.url.params["filter"].split("|")) for r in lists] == [50, 50, 20]
    assert all(r.url.params["filter"].startswith("doi:10.48550/arxiv.") for r in lists)
    singles = [r.url.path for r in recorder.requests if r.url.path != "/works"]
    assert singles[0] == "/works/doi:10.1000/odd,doi"
    assert len(singles) == 1 + 12  # the comma DOI, and every DOI ending in 7 was truncated
    assert len(works) == 121
    assert not any(w["is_authors_truncated"] for w in works)


async def test_entity_lookups_use_canonical_keys() -> None:
    recorder = Recorder(lambda r: httpx.Response(404, json={"error": "not found"}))
    oa = openalex_client(recorder)
    assert await oa.work_by_arxiv_id("arXiv:2301.08658v2") is None
    assert await oa.author_by_orcid("https://orcid.org/0000-0002-1825-0097") is None
    assert await oa.institution_by_ror("https://ror.org/03yrm5c26") is None
    assert await oa.author("https://openalex.org/A5001226970") is None
    assert [r.url.path for r in recorder.requests] == [
        "/works/doi:10.48550/arxiv.2301.08658",
        "/authors/orcid:0000-0002-1825-0097",
        "/institutions/ror:03yrm5c26",
        "/authors/A5001226970",
    ]


def test_openalex_rate_above_100_per_second_is_refused() -> None:
    with pytest.raises(ConfigError, match="100 requests per second"):
        OpenAlexSettings(rate=RateLimit(per_second=150.0))


# ORCID and ROR --------------------------------------------------------------------------


async def test_orcid_sections_ask_for_json_and_check_the_id_first() -> None:
    recorder = Recorder(lambda r: httpx.Response(200, json={"orcid-identifier": {"path": "x"}}))
    orcid = OrcidClient(recorder.client(), timing=recorder.fake.timing())
    assert await orcid.works("https://orcid.org/0000-0002-1825-0097") == {
        "orcid-identifier": {"path": "x"}
    }
    assert str(recorder.requests[0].url) == "https://pub.orcid.org/v3.0/0000-0002-1825-0097/works"
    assert recorder.requests[0].headers["accept"] == "application/json"
    with pytest.raises(BadInput, match="checksum"):
        await orcid.record("0000-0002-1825-0098")
    assert len(recorder.requests) == 1


async def test_ror_sends_the_client_id_and_picks_only_the_chosen_match() -> None:
    answer = {
        "items": [
            {
                "score": 0.98,
                "chosen": False,
                "matching_type": "FUZZY",
                "organization": {"id": "https://ror.org/decoy"},
            },
            {
                "score": 0.91,
                "chosen": True,
                "matching_type": "PHRASE",
                "organization": {"id": "https://ror.org/00cvxb145"},
            },
        ]
    }
    recorder = Recorder(lambda r: httpx.Response(200, json=answer))
    ror = RorClient(
        recorder.client(), RorSettings(client_id=Secret("cid")), timing=recorder.fake.timing()
    )
    text = "Dept. of Physics, University of Washington, Seattle, WA 98195 & co"
    matched = await ror.match_affiliation(text)
    assert chosen_organizations(matched) == [{"id": "https://ror.org/00cvxb145"}]
    assert (
        chosen_organizations({"items": [{"score": 1.0, "chosen": False, "organization": {}}]}) == []
    )
    assert recorder.requests[0].url.params["affiliation"] == text
    assert recorder.requests[0].headers["client-id"] == "cid"
    await ror.organization("https://ror.org/00cvxb145")
    assert recorder.requests[1].url.path == "/v2/organizations/00cvxb145"


def test_ror_without_a_client_id_stays_within_50_per_5_minutes() -> None:
    keyless, keyed = RorSettings().profile(), RorSettings(client_id=Secret("c")).profile()
    assert "Client-Id" not in keyless.headers
    assert keyless.rate.burst + keyless.rate.per_second * 300 <= 50
    assert keyed.rate.burst + keyed.rate.per_second * 300 <= 2000
    assert keyed.rate.per_second > 10 * keyless.rate.per_second


async def test_refused_keys_name_the_setting_to_fix() -> None:
    recorder = Recorder(lambda r: httpx.Response(403, json={"message": "Forbidden"}))
    with pytest.raises(SourceAuthError, match="S2_API_KEY"):
        await s2_client(recorder).paper("CorpusId:1", ["title"])
    with pytest.raises(SourceAuthError, match="OPENALEX_API_KEY"):
        await openalex_client(recorder).work("W1")
    ror = RorClient(recorder.client(), timing=recorder.fake.timing())
    with pytest.raises(SourceAuthError, match="ROR_CLIENT_ID"):
        await ror.search("Monash")
