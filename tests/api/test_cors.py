"""Cross-origin requests: preflights answered for the configured origins, refused for others."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

from scholargraph.api.app import create_app
from scholargraph.graph.config import Settings
from scholargraph.graph.errors import ConfigError

EXPLORER = "https://explorer.example.org"
LOCAL = "http://localhost:5173"
TYPENAME = {"query": "{ __typename }"}


@asynccontextmanager
async def client(settings: Settings, *origins: str) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings.with_overrides(cors_origins=origins, network_projection=False))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield http


def preflight(origin: str, method: str = "POST") -> dict[str, str]:
    return {
        "origin": origin,
        "access-control-request-method": method,
        "access-control-request-headers": "content-type, authorization",
    }


async def test_preflight_from_an_allowed_origin(schema_ready: Settings) -> None:
    async with client(schema_ready, EXPLORER, LOCAL) as http:
        for origin in (EXPLORER, LOCAL):
            answer = await http.options("/graphql", headers=preflight(origin))
            assert answer.status_code == 200
            assert answer.headers["access-control-allow-origin"] == origin
            assert {"GET", "POST"} <= set(
                answer.headers["access-control-allow-methods"].split(", ")
            )
            allowed = answer.headers["access-control-allow-headers"].lower()
            assert "content-type" in allowed and "authorization" in allowed
            assert answer.headers["access-control-max-age"] == "600"
            assert "access-control-allow-credentials" not in answer.headers
        posted = await http.post("/graphql", json=TYPENAME, headers={"origin": EXPLORER})
        assert posted.json() == {"data": {"__typename": "Query"}}
        assert posted.headers["access-control-allow-origin"] == EXPLORER
        assert "x-request-id" in posted.headers["access-control-expose-headers"].lower()


async def test_preflight_from_another_origin_is_refused(schema_ready: Settings) -> None:
    async with client(schema_ready, EXPLORER) as http:
        for origin in ("https://evil.example.com", "https://explorer.example.org.evil.com"):
            answer = await http.options("/graphql", headers=preflight(origin))
            assert answer.status_code == 400
            assert "access-control-allow-origin" not in answer.headers
            posted = await http.post("/graphql", json=TYPENAME, headers={"origin": origin})
            assert posted.status_code == 200  # answered, but the browser will not show it
            assert "access-control-allow-origin" not in posted.headers
        # a method the API does not take across origins
        answer = await http.options("/graphql", headers=preflight(EXPLORER, "DELETE"))
        assert answer.status_code == 400


async def test_no_origin_is_allowed_by_default(schema_ready: Settings) -> None:
    assert Settings.from_mapping({}).cors_origins == ()
    async with client(schema_ready) as http:
        answer = await http.options("/graphql", headers=preflight(EXPLORER))
        assert answer.status_code == 400
        assert "access-control-allow-origin" not in answer.headers
        # OPTIONS without a preflight says what the endpoint takes
        plain = await http.options("/graphql")
        assert plain.status_code == 204
        assert plain.headers["allow"] == "GET, POST, OPTIONS"


async def test_any_origin(schema_ready: Settings) -> None:
    async with client(schema_ready, "*") as http:
        answer = await http.options("/graphql", headers=preflight("https://anywhere.example"))
        assert answer.status_code == 200
        assert answer.headers["access-control-allow-origin"] == "*"


def test_origins_setting() -> None:
    read = Settings.from_mapping(
        {"SCHOLARGRAPH_CORS_ORIGINS": " https://Explorer.example.org/, http://localhost:5173,,"}
    )
    assert read.cors_origins == ("https://explorer.example.org", LOCAL)
    assert Settings.from_mapping({"SCHOLARGRAPH_CORS_ORIGINS": "*"}).cors_origins == ("*",)


@pytest.mark.parametrize(
    "value", ["https://example.org/app", "explorer.example.org", "ftp://example.org", "https://"]
)
def test_an_origin_that_is_not_one_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match="is not an origin"):
        Settings.from_mapping({"SCHOLARGRAPH_CORS_ORIGINS": f"{EXPLORER},{value}"})
