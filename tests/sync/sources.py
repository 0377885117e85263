"""arXiv's OAI-PMH, Semantic Scholar and OpenAlex as the sync tests meet them: the
hand-written answers of ``tests/fixtures/sync`` served through ``httpx.MockTransport``, every
request kept, and a fake wall clock for the sync's times."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.http import RetryPolicy
from scholargraph.graph.loaders.live import SourceClients, open_clients
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.records import Batch
from tests.loaders.fake_time import FakeTime
from tests.loaders.records_factory import paper

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sync"
TOKEN = "6960524|1001"
LAST_DATESTAMP = "2026-11-30"
FIRST_FROM = "2026-11-01"  # where a first harvest may be told to start
DELETED = "2301.00009"  # deleted on page 2, loaded before the sync


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _json(name: str) -> Any:
    return json.loads(fixture(name))


class Down(httpx.ConnectError):
    """The connection to arXiv is gone (a crash of the network mid-harvest)."""


@dataclass
class Sources:
    """The three sources; ``fail_after`` OAI requests answered, the next ones raise;
    ``expired`` answers the resumption token with ``badResumptionToken`` once; ``busy``
    answers the token's page 503 with ``Retry-After`` once; ``s2_down`` answers every
    Semantic Scholar request 503."""

    fail_after: int | None = None
    expired: bool = False
    busy: bool = False
    s2_down: bool = False
    requests: list[httpx.Request] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        host = request.url.host
        if host == "oaipmh.arxiv.org":
            return self._oai(request)
        if host == "api.semanticscholar.org" and self.s2_down:
            return httpx.Response(503, text="Service Unavailable")
        if host == "api.semanticscholar.org":
            known = _json("s2-papers.json" if "/paper/" in request.url.path else "s2-authors.json")
            return httpx.Response(
                200, json=[known.get(i) for i in json.loads(request.content)["ids"]]
            )
        if host == "api.openalex.org":
            dois = request.url.params["filter"].removeprefix("doi:").split("|")
            works = [w for w in _json("openalex-works.json") if w["doi"].split(".org/")[1] in dois]
            meta = {"count": len(works), "per_page": 200, "next_cursor": None}
            return httpx.Response(200, json={"meta": meta, "results": works})
        return httpx.Response(404, json={"error": f"no such source {host}"})

    def _oai(self, request: httpx.Request) -> httpx.Response:
        if self.fail_after is not None and len(self.oai()) > self.fail_after:
            raise Down("connection refused", request=request)
        params = request.url.params
        if params.get("resumptionToken") == TOKEN:
            if self.expired:
                self.expired = False  # the token the list is asked again for is new
                return _xml("oai-badresumptiontoken.xml")
            if self.busy:
                self.busy = False
                return httpx.Response(503, headers={"Retry-After": "20"}, text="busy")
            return _xml("oai-cs-page2.xml")
        if params.get("from") == LAST_DATESTAMP:
            return _xml("oai-norecordsmatch.xml")
        assert params.get("set") == "cs" and params.get("from") in (None, FIRST_FROM), params
        return _xml("oai-cs-page1.xml")

    def oai(self) -> list[dict[str, str]]:
        return [dict(r.url.params) for r in self.requests if r.url.host == "oaipmh.arxiv.org"]

    def enrichment(self) -> list[tuple[str, list[str]]]:
        """The enrichment requests in order: (``s2:paper``, ids), (``s2:author``, ids),
        (``openalex``, DOIs)."""
        found: list[tuple[str, list[str]]] = []
        for r in self.requests:
            if r.url.host == "api.semanticscholar.org":
                kind = "s2:paper" if "/paper/" in r.url.path else "s2:author"
                found.append((kind, json.loads(r.content)["ids"]))
            elif r.url.host == "api.openalex.org":
                found.append(("openalex", r.url.params["filter"].removeprefix("doi:").split("|")))
        return found


def _xml(name: str) -> httpx.Response:
    return httpx.Response(200, text=fixture(name), headers={"content-type": "text/xml"})


class WallClock:
    """A wall clock that moves a second each time it is read."""

    def __init__(self, start: datetime = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@asynccontextmanager
async def clients(sources: Sources, time: FakeTime | None = None) -> AsyncIterator[SourceClients]:
    """The source clients over ``sources``: no cache, fake sleeps, two attempts a request."""
    timing = (time or FakeTime()).timing()
    retry = RetryPolicy(max_attempts=2)
    async with open_clients(
        Settings(), transport=httpx.MockTransport(sources), cache_mode="off", timing=timing,
        retry=retry,
    ) as found:  # fmt: skip
        yield found


async def load_deleted_paper(db: Database) -> None:
    """The paper page 2 marks deleted, as an earlier load left it."""
    batch = Batch(papers=[paper(DELETED, ["Edsger Dijkstra"], title="Go to considered")])

    async def chunks() -> AsyncIterator[tuple[str, Batch]]:
        yield "before", batch

    await Loader(db, embed=False).run(chunks())
