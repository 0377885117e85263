"""Neo4j unreachable: requests are answered at once with ``UNAVAILABLE``, HTTP 503 and
``Retry-After``, and served again as soon as Neo4j is back, by the same server.

The outages are real: a port nobody listens on, a user Neo4j does not know, and a throw-away
local Neo4j (never the test session's own) killed with SIGKILL and started again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from scholargraph.api.app import create_app
from scholargraph.api.errors import UNAVAILABLE_MESSAGE
from scholargraph.graph import localserver
from scholargraph.graph.config import Secret, Settings
from tests.neo4j_spare import kill_neo4j, spare_neo4j_at

LOOKUP = '{ researcher(id: "1") { id name } }'
# Neo4j down is answered without waiting out the driver's 30 s of retries (the figure,
# 503 within 2 s, is measured by benchmarks/bench_outage.py, not asserted here).
PROMPTLY_S = 15.0


@asynccontextmanager
async def client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings.with_overrides(network_projection=False))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield http


async def lookup(http: httpx.AsyncClient) -> tuple[httpx.Response, float]:
    began = time.monotonic()
    response = await http.post("/graphql", json={"query": LOOKUP})
    return response, time.monotonic() - began


def assert_unavailable(response: httpx.Response, took: float) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"] == "5"
    body = response.json()
    assert body["data"] == {"researcher": None}
    [error] = body["errors"]
    assert error["extensions"]["code"] == "UNAVAILABLE"
    # the server's address and credentials stay with the operator
    assert error["message"] == UNAVAILABLE_MESSAGE
    assert took < PROMPTLY_S


def assert_served(response: httpx.Response) -> None:
    assert response.status_code == 200, response.text
    [error] = response.json()["errors"]
    assert error["extensions"]["code"] == "NOT_FOUND"


async def test_nobody_listening_is_unavailable_at_once(schema_ready: Settings) -> None:
    port = localserver.free_port()
    down = schema_ready.with_overrides(neo4j_uri=f"bolt://127.0.0.1:{port}")
    async with client(down) as http:
        for _ in range(3):  # every request, not just the first
            assert_unavailable(*await lookup(http))
        ready = await http.get("/readyz")
        assert ready.status_code == 503
        assert ready.headers["retry-after"] == "5"
        assert f"Neo4j at bolt://127.0.0.1:{port} is not reachable" in ready.json()["neo4j"]
        # pages of the site say so too, and what needs no database still answers
        page = await http.get("/", headers={"accept": "text/html"})
        assert (page.status_code, page.headers["retry-after"]) == (503, "5")
        assert (await http.get("/healthz")).status_code == 200


async def test_refused_credentials_are_unavailable_too(schema_ready: Settings) -> None:
    # a user of its own: failed logins of the session's user would lock it out for a while
    refused = schema_ready.with_overrides(
        neo4j_user="not-a-user", neo4j_password=Secret("not-the-password")
    )
    async with client(refused) as http:
        assert_unavailable(*await lookup(http))
        ready = await http.get("/readyz")
        assert ready.status_code == 503
        assert "refused the password for user 'not-a-user'" in ready.json()["neo4j"]


@pytest.fixture
def spare_neo4j(tmp_path: Path) -> Iterator[Settings]:
    """A local Neo4j of this test's own, to kill."""
    with spare_neo4j_at(tmp_path) as settings:
        yield settings


async def test_neo4j_killed_then_back_is_served_again_by_the_same_server(
    spare_neo4j: Settings,
) -> None:
    async with client(spare_neo4j) as http:
        assert_served((await lookup(http))[0])
        await asyncio.to_thread(kill_neo4j, spare_neo4j)
        for _ in range(2):
            assert_unavailable(*await lookup(http))
        await asyncio.to_thread(localserver.start, spare_neo4j)
        assert_served((await lookup(http))[0])
        assert (await http.get("/readyz")).status_code == 200
