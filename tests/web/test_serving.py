"""The page is served at ``/`` next to the API, and says how to build it while it is missing."""

from __future__ import annotations

from pathlib import Path

import httpx

from scholargraph.api.app import create_app
from scholargraph.graph.config import Settings

UNREACHABLE = Settings.from_mapping({"NEO4J_URI": "bolt://127.0.0.1:9"})


async def get(dist: Path, path: str) -> httpx.Response:
    app = create_app(UNREACHABLE, web_dist=dist)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        return await client.get(path, headers={"accept": "text/html"})


async def test_a_missing_bundle_says_to_run_make_web(tmp_path: Path) -> None:
    for path in ("/", "/explorer.js"):
        response = await get(tmp_path / "dist", path)
        assert response.status_code == 503
        assert "make web" in response.text


async def test_the_built_page_is_served_at_the_root(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>explorer</title>")
    (tmp_path / "explorer.js").write_text("export {};")
    page = await get(tmp_path, "/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "<title>explorer</title>" in page.text
    script = await get(tmp_path, "/explorer.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]
    assert (await get(tmp_path, "/missing.js")).status_code == 404


async def test_the_api_routes_come_first(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>explorer</title>")
    assert (await get(tmp_path, "/healthz")).json() == {"status": "ok"}
    graphiql = await get(tmp_path, "/graphql")
    assert graphiql.status_code == 200
    assert "<title>explorer</title>" not in graphiql.text
