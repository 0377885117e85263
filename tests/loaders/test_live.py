"""Live loads against hand-written source answers served through ``httpx.MockTransport``."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest

from scholargraph.graph.config import Secret, Settings
from scholargraph.graph.errors import BadInput, ConfigError, ReplayMiss
from scholargraph.graph.loaders.clients import (
    ArxivClient,
    ArxivSettings,
    OpenAlexClient,
    OrcidClient,
    RorClient,
    S2Settings,
    SemanticScholarClient,
)
from scholargraph.graph.loaders.http import HttpTiming
from scholargraph.graph.loaders.live import (
    PAPER_FIELDS,
    arxiv_chunks,
    open_clients,
    openalex_chunks,
    orcid_chunks,
    ror_chunks,
    s2_chunks,
)
from scholargraph.graph.records import Batch
from tests.loaders.fake_time import FakeTime

Handler = Callable[[httpx.Request], httpx.Response]
Chunks = list[tuple[str, Batch]]
ATOM = (
    'xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
    'xmlns:arxiv="http://arxiv.org/schemas/atom"'
)
OAI = 'xmlns="http://www.openarchives.org/OAI/2.0/"'


class Served:
    """Answers with ``handler`` and keeps the requests; ``busy_first`` answers 429 once."""

    def __init__(self, handler: Handler, *, busy_first: bool = False) -> None:
        self.handler = handler
        self.busy = busy_first
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.busy:
            self.busy = False
            return httpx.Response(429, headers={"Retry-After": "7"}, text="slow down")
        return self.handler(request)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self))


async def collect(chunks: Any) -> Chunks:
    return [chunk async for chunk in chunks]


def names(chunks: Chunks) -> list[str]:
    return [name for name, _ in chunks]


def merged(chunks: Chunks) -> Batch:
    batch = Batch()
    for _, chunk in chunks:
        batch.extend(chunk)
    return batch


def reasons(batch: Batch) -> dict[str, str]:
    return {r.ref: r.reason for r in batch.rejected}


# arXiv ----------------------------------------------------------------------------------


def atom_entry(arxiv_id: str, title: str) -> str:
    return (
        f"<entry><id>http://arxiv.org/abs/{arxiv_id}</id><title>{title}</title>"
        "<published>2023-01-20T00:00:00Z</published><updated>2023-01-20T00:00:00Z</updated>"
        "<author><name>Ada Lovelace</name></author>"
        '<arxiv:primary_category term="cs.DC"/><category term="cs.DC"/></entry>'
    )


def atom_feed(entries: list[str], total: int, start: int = 0) -> httpx.Response:
    head = (
        f"<opensearch:totalResults>{total}</opensearch:totalResults>"
        f"<opensearch:startIndex>{start}</opensearch:startIndex>"
        f"<opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>"
    )
    body = f"<?xml version='1.0'?><feed {ATOM}><updated>2026-01-05</updated>{head}"
    return httpx.Response(200, text=body + "".join(entries) + "</feed>")


def arxiv_answer(request: httpx.Request) -> httpx.Response:
    params = request.url.params
    if "id_list" in params:
        known = {"2301.08658v1": "ATP", "2401.00001v2": "Engines", "astro-ph/9901001": "Stars"}
        asked = params["id_list"].split(",")
        return atom_feed([atom_entry(i, known[i]) for i in asked if i in known], len(asked))
    if "search_query" in params:
        start = int(params["start"])
        ids = [f"2402.0000{n}" for n in range(start, min(3, start + int(params["max_results"])))]
        return atom_feed([atom_entry(i, f"Paper {i}") for i in ids], 3, start)
    return oai_answer(params.get("resumptionToken"))


def oai_record(arxiv_id: str) -> str:
    return (
        f"<record><header><identifier>oai:arXiv.org:{arxiv_id}</identifier></header><metadata>"
        f'<arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>{arxiv_id}</id>'
        "<created>2024-01-03</created><authors><author><keyname>Lovelace</keyname>"
        "<forenames>Ada</forenames></author></authors><title>Analytical engines</title>"
        "<categories>cs.DC cs.LG</categories></arXiv></metadata></record>"
    )


def oai_answer(token: str | None) -> httpx.Response:
    if token is None:
        records = oai_record("2401.00001") + oai_record("2401.00002")
        tail = '<resumptionToken cursor="0" completeListSize="4">page-2</resumptionToken>'
    else:
        deleted = '<record><header status="deleted"><identifier>oai:arXiv.org:2401.00009'
        records = oai_record("2401.00003") + deleted + "</identifier></header></record>"
        tail = '<resumptionToken cursor="2" completeListSize="4"/>'
    body = f"<OAI-PMH {OAI}><responseDate>2026-01-05T00:00:00Z</responseDate><ListRecords>"
    return httpx.Response(200, text=f"{body}{records}{tail}</ListRecords></OAI-PMH>")


async def arxiv_by_id(http: httpx.AsyncClient, timing: HttpTiming) -> Chunks:
    client = ArxivClient(http, ArxivSettings(ids_per_request=2), timing=timing)
    ids = ["arXiv:2301.08658v1", "2401.00001v2", "2301.08658v1", "2402.99999", "abc"]
    return await collect(arxiv_chunks(client, ids=[*ids, "astro-ph/9901001"]))


async def arxiv_search(http: httpx.AsyncClient, timing: HttpTiming) -> Chunks:
    client = ArxivClient(http, timing=timing)
    return await collect(arxiv_chunks(client, query="cat:cs.DC", page_size=2))


async def arxiv_harvest(http: httpx.AsyncClient, timing: HttpTiming) -> Chunks:
    client = ArxivClient(http, timing=timing)
    return await collect(arxiv_chunks(client, set_spec="cs", from_date=date(2024, 1, 1)))


async def test_arxiv_ids_go_out_canonical_and_the_missing_come_back_as_rejections() -> None:
    served = Served(arxiv_answer)
    chunks = await arxiv_by_id(served.client(), FakeTime().timing())
    assert [r.url.params["id_list"] for r in served.requests] == [
        "2301.08658v1,2401.00001v2",
        "2402.99999,astro-ph/9901001",
    ]
    assert [n.rsplit(":", 1)[0] for n in names(chunks)] == [
        "arxiv:unreadable",
        "arxiv:atom:ids:0",
        "arxiv:atom:ids:1",
    ]
    batch = merged(chunks)
    assert [p.arxiv_id for p in batch.papers] == ["2301.08658", "2401.00001", "astro-ph/9901001"]
    assert reasons(batch).keys() == {"abc", "2402.99999"}
    assert reasons(batch)["2402.99999"] == "arXiv has no paper with this id"
    assert "is not an arXiv id" in reasons(batch)["abc"]


async def test_arxiv_search_pages_are_chunks() -> None:
    chunks = await arxiv_search(Served(arxiv_answer).client(), FakeTime().timing())
    assert names(chunks) == [
        "arxiv:atom:query=cat:cs.DC:size=2:page=0",
        "arxiv:atom:query=cat:cs.DC:size=2:page=1",
    ]
    assert [len(batch.papers) for _, batch in chunks] == [2, 1]


async def test_arxiv_harvest_names_pages_by_what_was_asked_and_reports_deletions() -> None:
    served = Served(arxiv_answer)
    chunks = await arxiv_harvest(served.client(), FakeTime().timing())
    assert names(chunks) == [
        "arxiv:oai:arXiv:set=cs:from=2024-01-01:page=0",
        "arxiv:oai:arXiv:set=cs:from=2024-01-01:page=1",
    ]
    assert served.requests[0].url.params["set"] == "cs"
    batch = merged(chunks)
    assert [p.arxiv_id for p in batch.papers] == ["2401.00001", "2401.00002", "2401.00003"]
    assert batch.papers[0].authorships[0].keyname == "Lovelace"
    assert reasons(batch) == {"2401.00009": "arXiv marks this record deleted; it was not loaded"}


async def test_arxiv_modes_do_not_mix() -> None:
    client = ArxivClient(Served(arxiv_answer).client(), timing=FakeTime().timing())
    with pytest.raises(BadInput, match="not both"):
        await collect(arxiv_chunks(client, ids=["2301.08658"], query="cat:cs.DC"))
    with pytest.raises(BadInput, match="OAI-PMH harvest"):
        await collect(arxiv_chunks(client, ids=["2301.08658"], set_spec="cs"))


# Semantic Scholar -----------------------------------------------------------------------


def s2_paper(sha: str, arxiv_id: str, authors: list[tuple[str, str]]) -> dict[str, Any]:
    return {
        "paperId": sha * 40,
        "externalIds": {"ArXiv": arxiv_id, "CorpusId": 7},
        "title": f"Paper {arxiv_id}",
        "year": 2023,
        "citationCount": 5,
        "authors": [{"authorId": a, "name": n} for a, n in authors],
    }


S2_PAPERS = {
    "arXiv:2301.08658": s2_paper(
        "a", "2301.08658", [("11", "Shenggan Cheng"), ("12", "Ziming Liu")]
    ),
    "DOI:10.1000/xyz": None,
    "CorpusId:9": s2_paper("b", "2401.00001", [("12", "Ziming Liu"), ("13", "Yang You")]),
}
S2_AUTHORS = {
    "11": {"authorId": "11", "name": "Shenggan Cheng", "hIndex": 4, "paperCount": 9},
    "12": None,
    "13": {"authorId": "13", "name": "Yang You", "hIndex": 30, "externalIds": {"ORCID": "x"}},
}


def s2_answer(request: httpx.Request) -> httpx.Response:
    ids = json.loads(request.content)["ids"]
    known: dict[str, Any] = S2_PAPERS if request.url.path.endswith("/paper/batch") else S2_AUTHORS
    return httpx.Response(200, json=[known[i] for i in ids])


async def s2_run(http: httpx.AsyncClient, timing: HttpTiming) -> Chunks:
    client = SemanticScholarClient(http, S2Settings(paper_batch_size=2), timing=timing)
    refs = ["2301.08658v3", "https://doi.org/10.1000/XYZ", "nonsense", "CorpusId:9"]
    return await collect(s2_chunks(client, refs=refs))


async def test_s2_papers_then_their_new_authors_with_nulls_as_rejections() -> None:
    served = Served(s2_answer)
    chunks = await s2_run(served.client(), FakeTime().timing())
    bodies = [json.loads(r.content)["ids"] for r in served.requests]
    assert bodies == [["arXiv:2301.08658", "DOI:10.1000/xyz"], ["11", "12"], ["CorpusId:9"], ["13"]]
    fields = served.requests[0].url.params["fields"].split(",")
    assert {"authors.externalIds", "authors.affiliations", "publicationDate"} <= set(fields)
    assert "hIndex" in served.requests[1].url.params["fields"].split(",")
    assert [n.rsplit(":", 1)[0] for n in names(chunks)] == [
        "s2:unreadable",
        "s2:papers:0",
        "s2:authors:0.0",
        "s2:papers:1",
        "s2:authors:1.0",
    ]
    batch = merged(chunks)
    assert [p.arxiv_id for p in batch.papers] == ["2301.08658", "2401.00001"]
    assert [(a.s2_ids, a.h_index) for a in batch.authors] == [(("11",), 4), (("13",), 30)]
    found = reasons(batch)
    assert "null in the /paper/batch answer" in found["DOI:10.1000/xyz"]
    assert "null in the /author/batch answer" in found["authorId:12"]
    assert "not a paper id Semantic Scholar reads" in found["nonsense"]


async def test_s2_without_authors_asks_only_for_papers() -> None:
    served = Served(s2_answer)
    client = SemanticScholarClient(served.client(), timing=FakeTime().timing())
    chunks = await collect(s2_chunks(client, refs=["CorpusId:9"], with_authors=False))
    assert len(chunks) == len(served.requests) == 1
    assert served.requests[0].url.params["fields"] == ",".join(PAPER_FIELDS)


# OpenAlex -------------------------------------------------------------------------------


def oa_work(work_id: str, doi: str, *, authors: int = 1, truncated: bool = False) -> dict[str, Any]:
    return {
        "id": f"https://openalex.org/{work_id}",
        "doi": f"https://doi.org/{doi}",
        "title": f"Work {work_id}",
        "publication_date": "2023-01-20",
        "is_authors_truncated": truncated,
        "authorships": [
            {
                "author_position": "first" if n == 0 else "middle",
                "raw_author_name": f"Author {n}",
                "author": {"id": f"https://openalex.org/A50000000{n}", "display_name": f"A {n}"},
            }
            for n in range(authors)
        ],
    }


OA_WORKS = {
    "10.48550/arxiv.2301.08658": oa_work("W1", "10.48550/arXiv.2301.08658"),
    "10.1000/abc": oa_work("W2", "10.1000/ABC", authors=2, truncated=True),
    # A preprint merged into its journal work: the journal DOI, the arXiv landing page.
    "10.48550/arxiv.2402.00001": {
        **oa_work("W4", "10.1000/journal"),
        "locations": [{"landing_page_url": "https://arxiv.org/abs/2402.00001v2"}],
    },
}


def openalex_answer(request: httpx.Request) -> httpx.Response:
    if request.url.path == "/works/W2":
        return httpx.Response(200, json=oa_work("W2", "10.1000/abc", authors=3))
    expr, cursor = request.url.params["filter"], request.url.params["cursor"]
    if expr.startswith("doi:"):
        works = [OA_WORKS[d] for d in expr.removeprefix("doi:").split("|") if d in OA_WORKS]
        return httpx.Response(200, json={"meta": {"next_cursor": None}, "results": works})
    pages = {"*": ("c2", [OA_WORKS["10.1000/abc"]]), "c2": (None, [{"id": "W3", "title": ""}])}
    following, works = pages[cursor]
    return httpx.Response(200, json={"meta": {"next_cursor": following}, "results": works})


async def openalex_by_doi(http: httpx.AsyncClient, timing: HttpTiming) -> Chunks:
    client = OpenAlexClient(http, timing=timing)
    arxiv_ids = ["2301.08658v2", "2401.00001", "2402.00001", "bad"]
    return await collect(openalex_chunks(client, arxiv_ids=arxiv_ids, dois=["10.1000/ABC"]))


async def openalex_by_filter(http: httpx.AsyncClient, timing: HttpTiming) -> Chunks:
    client = OpenAlexClient(http, timing=timing)
    return await collect(openalex_chunks(client, filter="authorships.author.id:A5"))


async def test_openalex_dois_in_one_filter_truncated_works_completed_missing_rejected() -> None:
    served = Served(openalex_answer)
    chunks = await openalex_by_doi(served.client(), FakeTime().timing())
    assert served.requests[0].url.params["filter"] == (
        "doi:10.48550/arxiv.2301.08658|10.48550/arxiv.2401.00001|10.48550/arxiv.2402.00001|"
        "10.1000/abc"
    )
    assert [r.url.path for r in served.requests] == ["/works", "/works/W2"]
    assert [n.rsplit(":", 1)[0] for n in names(chunks)] == [
        "openalex:unreadable",
        "openalex:dois:0",
    ]
    batch = merged(chunks)
    assert [(p.openalex_id, p.arxiv_id, len(p.authorships)) for p in batch.papers] == [
        ("W1", "2301.08658", 1),
        ("W4", "2402.00001", 1),
        ("W2", None, 3),
    ]
    found = reasons(batch)
    assert found.keys() == {"2401.00001", "bad"}
    assert found["2401.00001"] == "OpenAlex has no work with DOI 10.48550/arxiv.2401.00001"
    assert "is not an arXiv id" in found["bad"]


async def test_openalex_filter_pages_by_cursor_with_unusable_works_rejected() -> None:
    chunks = await openalex_by_filter(Served(openalex_answer).client(), FakeTime().timing())
    assert names(chunks) == [
        "openalex:filter=authorships.author.id:A5:page=0",
        "openalex:filter=authorships.author.id:A5:page=1",
    ]
    [(_, first), (_, second)] = chunks
    assert len(first.papers[0].authorships) == 3  # fetched again whole
    assert [(r.ref, r.reason) for r in second.rejected] == [("W3", "no title")]


async def test_openalex_needs_one_kind_of_question() -> None:
    client = OpenAlexClient(Served(openalex_answer).client(), timing=FakeTime().timing())
    with pytest.raises(BadInput, match="not both"):
        await collect(openalex_chunks(client, dois=["10.1/x"], filter="type:article"))
    with pytest.raises(BadInput, match="arXiv ids, DOIs or a filter"):
        await collect(openalex_chunks(client))


# ORCID and ROR --------------------------------------------------------------------------

CARBERRY = "0000-0002-1825-0097"
ORCID_RECORD = {
    "orcid-identifier": {"path": CARBERRY},
    "person": {"name": {"given-names": {"value": "Josiah"}, "family-name": {"value": "Carberry"}}},
    "activities-summary": {
        "employments": {
            "affiliation-group": [
                {
                    "summaries": [
                        {
                            "employment-summary": {
                                "start-date": {"year": {"value": "2001"}},
                                "organization": {
                                    "name": "Brown University",
                                    "disambiguated-organization": {
                                        "disambiguated-organization-identifier": "05gq02987",
                                        "disambiguation-source": "ROR",
                                    },
                                },
                            }
                        }
                    ]
                }
            ]
        },
        "works": {
            "group": [
                {
                    "external-ids": {
                        "external-id": [
                            {"external-id-type": "arxiv", "external-id-value": "not-an-id"}
                        ]
                    }
                }
            ]
        },
    },
}


def orcid_answer(request: httpx.Request) -> httpx.Response:
    if request.url.path == f"/v3.0/{CARBERRY}/record":
        return httpx.Response(200, json=ORCID_RECORD)
    return httpx.Response(404, json={"response-code": 404})


async def orcid_run(http: httpx.AsyncClient, timing: HttpTiming) -> Chunks:
    client = OrcidClient(http, timing=timing)
    orcids = [f"https://orcid.org/{CARBERRY}", "0000-0001-5109-3700", "0000-0001-5109-3701"]
    return await collect(orcid_chunks(client, orcids=orcids, chunk_size=1))


async def test_orcid_records_become_people_with_employments() -> None:
    chunks = await orcid_run(Served(orcid_answer).client(), FakeTime().timing())
    assert [n.rsplit(":", 1)[0] for n in names(chunks)] == [
        "orcid:unreadable",
        "orcid:records:0",
        "orcid:records:1",
    ]
    batch = merged(chunks)
    [person] = batch.authors
    assert (person.name, person.orcid) == ("Josiah Carberry", CARBERRY)
    [(employer, first_year)] = [(a.institution.ror_id, a.first_year) for a in batch.affiliations]
    assert (employer, first_year) == ("05gq02987", 2001)
    found = reasons(batch)
    assert found["0000-0001-5109-3700"] == "ORCID has no record for this iD"
    assert "checksum" in found["0000-0001-5109-3701"]
    assert "not a valid arxiv id" in found[CARBERRY]


def ror_record(ror_id: str, name: str) -> dict[str, Any]:
    return {
        "id": f"https://ror.org/{ror_id}",
        "status": "active",
        "types": ["education"],
        "names": [{"value": name, "types": ["ror_display", "label"], "lang": "en"}],
    }


def ror_answer(request: httpx.Request) -> httpx.Response:
    text = request.url.params.get("affiliation")
    if text is None:
        ror_id = request.url.path.rsplit("/", 1)[-1]
        known = {"03yrm5c26": ror_record("03yrm5c26", "California Digital Library")}
        return httpx.Response(200, json=known[ror_id]) if ror_id in known else httpx.Response(404)
    brown = ror_record("05gq02987", "Brown University")
    decoy = {"score": 1.0, "chosen": False, "organization": ror_record("02jbv0t02", "Decoy")}
    chosen = {"score": 0.8, "chosen": True, "organization": brown}
    items = [] if "Nowhere" in text else [decoy, chosen]
    return httpx.Response(200, json={"number_of_results": len(items), "items": items})


async def ror_run(http: httpx.AsyncClient, timing: HttpTiming) -> Chunks:
    client = RorClient(http, timing=timing)
    ror_ids = ["https://ror.org/03yrm5c26", "05dxps055", "not-ror"]
    texts = ["Dept. of Physics, Brown University", "Brown Univ., Providence", "Nowhere", " "]
    return await collect(ror_chunks(client, ror_ids=ror_ids, affiliations=texts))


async def test_ror_ids_and_the_chosen_match_of_affiliation_strings() -> None:
    chunks = await ror_run(Served(ror_answer).client(), FakeTime().timing())
    assert [n.rsplit(":", 1)[0] for n in names(chunks)] == [
        "ror:unreadable",
        "ror:organizations:0",
        "ror:affiliations:0",
    ]
    batch = merged(chunks)
    assert [(i.ror_id, i.name) for i in batch.institutions] == [
        ("03yrm5c26", "California Digital Library"),
        ("05gq02987", "Brown University"),  # chosen for two strings, listed once; never the decoy
    ]
    found = reasons(batch)
    assert found["05dxps055"] == "ROR has no organization with this id"
    assert found["Nowhere"] == "ROR's affiliation matcher chose no organization for this text"
    assert "is not a ROR id" in found["not-ror"]


# Every function -------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    answer: Handler
    run: Callable[[httpx.AsyncClient, HttpTiming], Awaitable[Chunks]]


SCENARIOS = {
    "arxiv-ids": Scenario(arxiv_answer, arxiv_by_id),
    "arxiv-search": Scenario(arxiv_answer, arxiv_search),
    "arxiv-harvest": Scenario(arxiv_answer, arxiv_harvest),
    "s2": Scenario(s2_answer, s2_run),
    "openalex-dois": Scenario(openalex_answer, openalex_by_doi),
    "openalex-filter": Scenario(openalex_answer, openalex_by_filter),
    "orcid": Scenario(orcid_answer, orcid_run),
    "ror": Scenario(ror_answer, ror_run),
}


@pytest.mark.parametrize("scenario", SCENARIOS.values(), ids=SCENARIOS.keys())
async def test_a_429_is_waited_out_and_a_second_run_names_chunks_alike(scenario: Scenario) -> None:
    served = Served(scenario.answer)
    calm = await scenario.run(served.client(), FakeTime().timing())
    busy, fake = Served(scenario.answer, busy_first=True), FakeTime()
    again = await scenario.run(busy.client(), fake.timing())
    refused, *others = busy.requests
    assert refused.url in [r.url for r in others]  # asked again …
    assert len(busy.requests) == len(served.requests) + 1
    assert 7.0 in fake.sleeps  # … after the Retry-After the source asked for
    assert names(again) == names(calm)
    assert len(set(names(calm))) == len(calm)
    assert [batch for _, batch in again] == [batch for _, batch in calm]


# Clients --------------------------------------------------------------------------------


async def test_open_clients_send_the_keys_and_cache_the_answers(tmp_path: Path) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.host == "api.ror.org":
            return ror_answer(request)
        return s2_answer(request) if request.method == "POST" else openalex_answer(request)

    served = Served(answer)
    settings = Settings(
        cache_dir=tmp_path / "sources",
        s2_api_key=Secret("s2-key"),
        openalex_api_key=Secret("oa-key"),
        ror_client_id=Secret("ror-id"),
    )
    timing = FakeTime().timing()
    transport = httpx.MockTransport(served)
    for _ in range(2):  # the second pass is served from the cache alone
        async with open_clients(settings, transport=transport, timing=timing) as clients:
            await collect(s2_chunks(clients.s2, refs=["CorpusId:9"], with_authors=False))
            await collect(openalex_chunks(clients.openalex, dois=["10.1000/abc"]))
            await collect(ror_chunks(clients.ror, ror_ids=["03yrm5c26"]))
    s2, openalex, _, ror = served.requests
    assert s2.headers["x-api-key"] == "s2-key"
    assert openalex.url.params["api_key"] == "oa-key"
    assert ror.headers["client-id"] == "ror-id"
    assert all(r.headers["user-agent"].startswith("scholargraph") for r in served.requests)
    stored = "".join(p.read_text() for p in (tmp_path / "sources").rglob("*.json"))
    assert "oa-key" not in stored

    async with open_clients(settings, transport=transport, cache_mode="replay") as clients:
        with pytest.raises(ReplayMiss):
            await collect(ror_chunks(clients.ror, ror_ids=["05dxps055"]))
    with pytest.raises(ConfigError, match="not one of off, record, replay, auto"):
        async with open_clients(settings, cache_mode="sometimes"):
            pass
