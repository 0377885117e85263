"""The explorer is served at ``/explorer/`` (its deep links get its page), GraphiQL at
``/graphql`` from the same bundle, and both say how to build them while they are missing."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest

from scholargraph.api.app import create_app
from scholargraph.graph.config import Settings

UNREACHABLE = Settings.from_mapping({"NEO4J_URI": "bolt://127.0.0.1:9"})
WEB = Path(__file__).resolve().parents[2] / "web"
EXPLORER = "<!doctype html><title>explorer</title>"
GRAPHIQL = "<!doctype html><title>graphiql</title>"


async def get(dist: Path, path: str, method: str = "GET") -> httpx.Response:
    app = create_app(UNREACHABLE, web_dist=dist)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        return await client.request(method, path, headers={"accept": "text/html"})


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text(EXPLORER)
    (tmp_path / "explorer.js").write_text("export {};")
    (tmp_path / "graphiql").mkdir()
    (tmp_path / "graphiql" / "graphiql.html").write_text(GRAPHIQL)
    return tmp_path


async def test_a_missing_bundle_says_to_run_make_web(tmp_path: Path) -> None:
    for path in ("/explorer/", "/explorer/explorer.js", "/explorer/researcher/42", "/graphql"):
        response = await get(tmp_path / "dist", path)
        assert response.status_code == 503, path
        assert "make web" in response.text


async def test_the_built_explorer_is_served_at_its_path(bundle: Path) -> None:
    page = await get(bundle, "/explorer/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert page.text == EXPLORER
    script = await get(bundle, "/explorer/explorer.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]
    assert (await get(bundle, "/explorer/missing.js")).status_code == 404
    assert (await get(bundle, "/explorer/researcher/42.json")).status_code == 404


async def test_deep_links_get_the_explorer_page(bundle: Path) -> None:
    for path in (
        "/explorer/researcher/42",
        "/explorer/researcher/42/same-name?open=7",
        "/explorer/path/42/7?strongest=1",
        "/explorer/path",
    ):
        page = await get(bundle, path)
        assert page.status_code == 200, path
        assert page.headers["content-type"].startswith("text/html"), path
        assert page.text == EXPLORER, path
    assert (await get(bundle, "/explorer/researcher/42", method="POST")).status_code == 405


async def test_graphiql_is_our_own_page(bundle: Path) -> None:
    assert (await get(bundle, "/healthz")).json() == {"status": "ok"}
    graphiql = await get(bundle, "/graphql")
    assert graphiql.status_code == 200
    assert graphiql.headers["content-type"].startswith("text/html")
    assert graphiql.text == GRAPHIQL


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self.urls: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.handlers += [name for name in attributes if name.startswith("on")]
        self.urls += [value or "" for name, value in attrs if name in ("src", "href")]
        if tag == "script":
            self.scripts.append(attributes)
            self._in_script = True
        if tag == "style" or "style" in attributes:
            self.inline.append(f"<{tag}> styles")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data.strip())


@pytest.mark.parametrize("source", ["index.html", "graphiql/graphiql.html"])
def test_the_pages_load_only_files_of_our_own(source: str) -> None:
    page = _Page()
    page.feed((WEB / source).read_text())
    assert page.scripts, "the page loads no script"
    assert all(script.get("src") for script in page.scripts)
    assert page.inline == [] and page.handlers == []
    # Absolute paths on this origin: the same from /explorer/ and from a deep link under it.
    assert page.urls and all(url.startswith("/") and not url.startswith("//") for url in page.urls)
