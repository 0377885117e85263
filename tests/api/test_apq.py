"""Automatic persisted queries, as Apollo clients use them: hash, not found, hash and query."""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from prometheus_client.parser import text_string_to_metric_families

from scholargraph.api.app import create_app
from scholargraph.api.persisted import PersistedQueries, PersistedQueryError
from scholargraph.graph import localserver
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import ConfigError
from tests.api.conftest import GRAPHQL_RESPONSE, Api
from tests.api.graphdata import YOU

ROOT = Path(__file__).resolve().parents[2]
APOLLO = Path(__file__).with_name("apq.mjs")
QUERY = f'query Name {{ researcher(id: "{YOU}") {{ name }} }}'
ANSWER = {"data": {"researcher": {"name": "Yang You"}}}


def sha(document: str) -> str:
    return hashlib.sha256(document.encode()).hexdigest()


def extension(digest: str, version: Any = 1) -> dict[str, Any]:
    return {"persistedQuery": {"version": version, "sha256Hash": digest}}


async def persisted(
    http: httpx.AsyncClient,
    digest: str,
    query: str | None = None,
    *,
    accept: str = "application/json",
) -> httpx.Response:
    body: dict[str, Any] = {"extensions": extension(digest)}
    if query is not None:
        body["query"] = query
    return await http.post("/graphql", json=body, headers={"accept": accept})


def code(response: httpx.Response) -> str:
    code: str = response.json()["errors"][0]["extensions"]["code"]
    return code


async def test_the_apollo_round_trip(api: Api) -> None:
    digest = sha(QUERY)
    for accept in ("application/json", GRAPHQL_RESPONSE):
        unknown = await persisted(api.http, digest, accept=accept)
        assert unknown.status_code == 200
        assert code(unknown) == "PERSISTED_QUERY_NOT_FOUND"
        assert unknown.json()["errors"][0]["message"].startswith("PersistedQueryNotFound")
        assert "data" not in unknown.json()
    registered = await persisted(api.http, digest, QUERY)
    assert registered.status_code == 200
    assert registered.json() == ANSWER
    known = await persisted(api.http, digest.upper())
    assert known.status_code == 200
    assert known.json() == ANSWER
    got = await api.http.get(
        "/graphql", params={"extensions": json.dumps(extension(digest), separators=(",", ":"))}
    )
    assert got.status_code == 200
    assert got.json() == ANSWER


async def test_a_hash_that_is_not_the_query_s(api: Api) -> None:
    wrong = await persisted(api.http, sha(QUERY + " "), QUERY)
    assert wrong.status_code == 400
    assert code(wrong) == "PERSISTED_QUERY_HASH_MISMATCH"
    # nothing was stored under either hash
    for digest in (sha(QUERY), sha(QUERY + " ")):
        assert code(await persisted(api.http, digest)) == "PERSISTED_QUERY_NOT_FOUND"


async def test_a_document_that_does_not_run_is_not_stored(api: Api) -> None:
    broken = "{ nosuchfield }"
    refused = await persisted(api.http, sha(broken), broken, accept=GRAPHQL_RESPONSE)
    assert refused.status_code == 400
    assert code(refused) == "BAD_INPUT"
    assert code(await persisted(api.http, sha(broken))) == "PERSISTED_QUERY_NOT_FOUND"


@pytest.mark.parametrize(
    "extensions",
    [
        {"persistedQuery": "abc"},
        extension(sha(QUERY), version=2),
        extension(sha(QUERY), version="1"),
        extension("not-a-hash"),
        extension(sha(QUERY)[:-1]),
        {"persistedQuery": {"version": 1}},
    ],
)
async def test_a_malformed_persisted_query_is_bad_input(
    api: Api, extensions: dict[str, Any]
) -> None:
    for body in ({"extensions": extensions}, {"query": QUERY, "extensions": extensions}):
        response = await api.http.post("/graphql", json=body)
        assert response.status_code == 400, body
        assert code(response) == "BAD_INPUT"


async def test_without_a_hash_a_missing_query_is_still_bad_input(api: Api) -> None:
    response = await api.http.post("/graphql", json={"extensions": {"other": 1}})
    assert response.status_code == 400
    assert code(response) == "BAD_INPUT"


async def test_persisted_queries_are_counted(api: Api) -> None:
    digest = sha(QUERY)
    await persisted(api.http, digest)
    await persisted(api.http, digest, QUERY)
    await persisted(api.http, digest)
    await persisted(api.http, sha("x"), QUERY)
    text = (await api.http.get("/metrics")).text
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    outcomes = {
        outcome: samples[("scholargraph_persisted_query_requests_total", (("outcome", outcome),))]
        for outcome in ("miss", "registered", "hit", "mismatch")
    }
    assert outcomes == {"miss": 1, "registered": 1, "hit": 1, "mismatch": 1}
    assert samples[("scholargraph_persisted_queries", ())] == 1
    miss = (
        "scholargraph_graphql_operations_total",
        (("operation", "persisted"), ("outcome", "refused"), ("type", "unknown")),
    )
    assert samples[miss] == 1
    hit = (
        "scholargraph_graphql_operations_total",
        (("operation", "Name"), ("outcome", "ok"), ("type", "query")),
    )
    assert samples[hit] == 2


@asynccontextmanager
async def client(settings: Settings, capacity: int) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings.with_overrides(persisted_queries=capacity, network_projection=False))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield http


async def test_the_store_keeps_the_last_documents_used(schema_ready: Settings) -> None:
    documents = [f"query Q{i} {{ __typename }}" for i in range(3)]
    async with client(schema_ready, 2) as http:
        for document in documents[:2]:
            assert (await persisted(http, sha(document), document)).status_code == 200
        # using Q0 again makes Q1 the least recently used: Q2 drops it
        assert (await persisted(http, sha(documents[0]))).json() == {
            "data": {"__typename": "Query"}
        }
        await persisted(http, sha(documents[2]), documents[2])
        assert "errors" not in (await persisted(http, sha(documents[0]))).json()
        assert code(await persisted(http, sha(documents[1]))) == "PERSISTED_QUERY_NOT_FOUND"
        assert "errors" not in (await persisted(http, sha(documents[2]))).json()


async def test_a_store_of_none_stores_nothing(schema_ready: Settings) -> None:
    document = "{ __typename }"
    async with client(schema_ready, 0) as http:
        assert (await persisted(http, sha(document), document)).status_code == 200
        assert code(await persisted(http, sha(document))) == "PERSISTED_QUERY_NOT_FOUND"


def test_the_store_is_bounded() -> None:
    store = PersistedQueries(5)
    for i in range(50):
        document = f"{{ a{i}: __typename }}"
        store.store(sha(document), store.resolve(sha(document), document))
        assert len(store) == min(i + 1, 5)
    assert store.resolve(sha("{ a49: __typename }"), None) == "{ a49: __typename }"
    with pytest.raises(PersistedQueryError) as gone:
        store.resolve(sha("{ a44: __typename }"), None)
    assert (gone.value.status, gone.value.code) == (200, "PERSISTED_QUERY_NOT_FOUND")


def test_persisted_queries_setting() -> None:
    assert Settings.from_mapping({}).persisted_queries == 1000
    assert Settings.from_mapping({"SCHOLARGRAPH_PERSISTED_QUERIES": "0"}).persisted_queries == 0
    with pytest.raises(ConfigError, match="at least 0"):
        Settings.from_mapping({"SCHOLARGRAPH_PERSISTED_QUERIES": "-1"})


@pytest.fixture
def live_server(schema_ready: Settings, graph: Database) -> Iterator[str]:
    port = localserver.free_port()
    app = create_app(schema_ready.with_overrides(network_projection=False))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/graphql"
    finally:
        running.should_exit = True
        thread.join(timeout=30)


async def test_apollo_client_s_persisted_query_link(live_server: str) -> None:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "@apollo" / "client").is_dir():
        pytest.fail("the Apollo Client check needs Node and `npm ci` at the repository root")
    completed = await asyncio.to_thread(
        subprocess.run,
        [node, str(APOLLO), live_server, QUERY],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    seen = json.loads(completed.stdout)
    digest = seen["sent"][0]["extensions"]["persistedQuery"]["sha256Hash"]
    assert [(s["method"], s["hasQuery"], s["status"]) for s in seen["sent"]] == [
        ("POST", False, 200),  # the hash alone: not found
        ("POST", True, 200),  # the query with its hash: run and stored
        ("POST", False, 200),  # the hash alone, now known
        ("GET", False, 200),  # the same, over GET
    ]
    assert all(s["extensions"]["persistedQuery"]["sha256Hash"] == digest for s in seen["sent"])
    name = {"researcher": {"__typename": "Researcher", "name": "Yang You"}}
    assert seen["results"] == [{"data": name, "error": None}] * 3
