"""HTTP hygiene of ``scholargraph serve``: slow clients dropped (request heads and bodies have
deadlines), security headers on the page and the API, and the curator's ``Bearer`` scheme.

The deadlines are tested on a real uvicorn server (the one ``serve`` runs) on 127.0.0.1 with
real sockets, given deadlines of a fraction of a second.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from scholargraph.api.app import create_app
from scholargraph.api.middleware import CONTENT_SECURITY_POLICY
from scholargraph.api.server import ServeConfig, serve_config
from scholargraph.graph import localserver
from scholargraph.graph.config import Secret, Settings

DEADLINE_S = 0.5
HALF_SENT = 1000
TOKEN = "hygiene-curator-token"


@pytest.fixture
async def served(schema_ready: Settings) -> AsyncIterator[tuple[str, int, uvicorn.Server]]:
    settings = schema_ready.with_overrides(
        network_projection=False, header_timeout_s=DEADLINE_S, body_timeout_s=DEADLINE_S
    )
    port = localserver.free_port()
    config = ServeConfig(
        create_app(settings),
        head_timeout_s=settings.header_timeout_s,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="none",
        lifespan="on",
        # far above the half-sent connections, so that only the deadline can end them
        backlog=4096,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="hygiene-server", daemon=True)
    thread.start()
    for _ in range(600):
        if server.started or not thread.is_alive():
            break
        await asyncio.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield "127.0.0.1", port, server
    finally:
        server.should_exit = True
        await asyncio.to_thread(thread.join, 30)


async def read_all(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection (bounded: 30 s)."""
    async with asyncio.timeout(30):
        return await reader.read()


async def get(host: str, port: int, path: str) -> bytes:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    answer = await read_all(reader)
    writer.close()
    return answer


async def test_a_thousand_half_sent_heads_are_dropped_while_others_are_served(
    served: tuple[str, int, uvicorn.Server],
) -> None:
    host, port, server = served
    connections = []
    for _ in range(HALF_SENT):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(b"POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: applic")
        connections.append((reader, writer))
    await asyncio.gather(*(writer.drain() for _, writer in connections))
    # meanwhile, a client that sends its request whole is served
    assert (await get(host, port, "/healthz")).startswith(b"HTTP/1.1 200 ")
    answers = await asyncio.gather(*(read_all(reader) for reader, _ in connections))
    assert {answer.split(b"\r\n", 1)[0] for answer in answers} == {b"HTTP/1.1 408 Request Timeout"}
    for _, writer in connections:
        writer.close()
    for _ in range(100):
        if not server.server_state.connections:
            break
        await asyncio.sleep(0.05)
    assert not server.server_state.connections


async def test_a_head_sent_a_byte_at_a_time_is_dropped_all_the_same(
    served: tuple[str, int, uvicorn.Server],
) -> None:
    host, port, _ = served
    reader, writer = await asyncio.open_connection(host, port)
    answer = asyncio.create_task(read_all(reader))
    head = b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-Padding: " + b"x" * 200
    sent = 0
    # each byte well within the deadline, all of them far past it
    while sent < len(head) and not answer.done():
        writer.write(head[sent : sent + 1])
        sent += 1
        await asyncio.sleep(DEADLINE_S / 10)
    assert (await answer).startswith(b"HTTP/1.1 408 ")
    assert sent < len(head) / 2
    writer.close()


async def test_an_idle_connection_is_closed_without_an_answer(
    served: tuple[str, int, uvicorn.Server],
) -> None:
    host, port, _ = served
    reader, writer = await asyncio.open_connection(host, port)
    assert await read_all(reader) == b""
    writer.close()


async def test_keep_alive_requests_in_good_time_are_all_served(
    served: tuple[str, int, uvicorn.Server],
) -> None:
    host, port, _ = served
    reader, writer = await asyncio.open_connection(host, port)
    for _ in range(3):
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 200 ")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        await asyncio.sleep(DEADLINE_S / 5)
    writer.close()


async def test_a_body_that_never_finishes_is_answered_408(
    served: tuple[str, int, uvicorn.Server],
) -> None:
    host, port, _ = served
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        b"POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n" + b'{"query": "{ __typ'
    )
    await writer.drain()
    answer = await read_all(reader)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ")
    assert b"connection: close" in head.lower()
    assert body == b"the request body did not arrive within 0.5 s; send it at once"
    writer.close()


def test_serve_runs_this_server(schema_ready: Settings) -> None:
    config = serve_config(schema_ready, host="127.0.0.1", port=8123, workers=2)
    assert isinstance(config, ServeConfig)
    assert (config.app, config.factory, config.workers) == (
        "scholargraph.api.app:create_app",
        True,
        2,
    )
    assert config.head_timeout_s == schema_ready.header_timeout_s


@pytest.fixture
async def app_client(schema_ready: Settings, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    settings = schema_ready.with_overrides(network_projection=False, curator_token=Secret(TOKEN))
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield http


SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


@pytest.mark.parametrize(
    ("path", "accept"),
    [
        ("/healthz", "application/json"),
        ("/graphql?query=%7B__typename%7D", "application/json"),
        ("/graphql", "text/html"),  # GraphiQL
        ("/explorer/", "text/html"),  # the page
        ("/", "text/html"),  # the site
        ("/no/such/page", "text/html"),
    ],
)
async def test_every_response_carries_the_security_headers(
    app_client: httpx.AsyncClient, path: str, accept: str
) -> None:
    response = await app_client.get(path, headers={"accept": accept})
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get_list(name) == [value], (path, name)


def test_the_policy_allows_this_origin_only() -> None:
    # The explorer's and GraphiQL's browser tests (tests/web) run under this very header and
    # fail on any refusal in the console.
    directives = dict(d.strip().split(" ", 1) for d in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["default-src"] == directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == directives["base-uri"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY and "http" not in CONTENT_SECURITY_POLICY


DISTINCT = """
mutation {
  markDistinct(researcher: "1999991", other: "1999992", reason: "checking the header") {
    event { id }
  }
}
"""


async def curate(http: httpx.AsyncClient, authorization: str | None) -> dict[str, str]:
    headers = {"accept": "application/json"}
    if authorization is not None:
        headers["authorization"] = authorization
    response = await http.post("/graphql", json={"query": DISTINCT}, headers=headers)
    [error] = response.json()["errors"]
    return {"code": error["extensions"]["code"], "message": error["message"]}


async def test_the_bearer_scheme_is_spelt_exactly(app_client: httpx.AsyncClient) -> None:
    for spelling in ("bearer", "BEARER", "BeArEr"):
        refused = await curate(app_client, f"{spelling} {TOKEN}")
        assert refused["code"] == "UNAUTHENTICATED"
        assert refused["message"] == (
            f"the Authorization scheme is spelt 'Bearer' here, not {spelling!r}: send "
            f"'Authorization: Bearer <token>'"
        )
    # spelt right, the token lets the mutation through to the graph (which has no such ids)
    assert (await curate(app_client, f"Bearer {TOKEN}"))["code"] == "NOT_FOUND"


async def test_other_refusals_say_why(app_client: httpx.AsyncClient) -> None:
    wrong = await curate(app_client, "Bearer not-the-token")
    assert wrong == {
        "code": "UNAUTHENTICATED",
        "message": "the bearer token is not this server's curator token "
        "(SCHOLARGRAPH_CURATOR_TOKEN)",
    }
    basic = await curate(app_client, "Basic dXNlcjpwYXNz")
    assert basic["code"] == "UNAUTHENTICATED"
    assert basic["message"].endswith("(the header's scheme is not 'Bearer')")
    empty = await curate(app_client, "Bearer ")
    assert empty["message"].endswith("(the header has no token after 'Bearer')")
    missing = await curate(app_client, None)
    assert missing["message"].startswith("curator mutations need the header")
