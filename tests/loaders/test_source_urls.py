"""Every source's base URL from the environment: requests go to that host and path prefix.

A real HTTP server on 127.0.0.1 stands in for a mirror; it records what it was asked.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from scholargraph.graph.config import SOURCE_URLS, Settings
from scholargraph.graph.errors import ConfigError
from scholargraph.graph.loaders.clients import (
    ArxivSettings,
    OpenAlexSettings,
    OrcidSettings,
    RorSettings,
    S2Settings,
)
from scholargraph.graph.loaders.live import open_clients
from tests.loaders.fake_time import FakeTime

EMPTY_FEED = (
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
    "<opensearch:totalResults>0</opensearch:totalResults></feed>"
)
NO_RECORDS = (
    '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">'
    '<error code="noRecordsMatch">no records</error></OAI-PMH>'
)


class Mirror(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.paths: list[str] = []

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: Mirror

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._answer()

    def _answer(self) -> None:
        path = urlsplit(self.path).path
        self.server.paths.append(path)
        if path.endswith("/api/query"):
            body, kind = EMPTY_FEED, "application/atom+xml"
        elif path.endswith("/oai"):
            body, kind = NO_RECORDS, "text/xml"
        else:
            body, kind = json.dumps({"id": path}), "application/json"
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def mirror() -> Iterator[Mirror]:
    server = Mirror()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_defaults_are_the_clients_own() -> None:
    settings = Settings.from_mapping({})
    assert settings.arxiv_api_url == ArxivSettings().api_url
    assert settings.arxiv_oai_url == ArxivSettings().oai_url
    assert settings.s2_api_url == S2Settings().base_url
    assert settings.openalex_api_url == OpenAlexSettings().base_url
    assert settings.orcid_api_url == OrcidSettings().base_url
    assert settings.ror_api_url == RorSettings().base_url


async def test_every_client_asks_the_mirror_under_its_prefix(
    mirror: Mirror, tmp_path: Path
) -> None:
    root = mirror.root
    environ = {
        "SCHOLARGRAPH_ARXIV_API_URL": f"{root}/mirror/arxiv/api/query",
        "SCHOLARGRAPH_ARXIV_OAI_URL": f"{root}/mirror/arxiv/oai",
        "SCHOLARGRAPH_S2_API_URL": f"{root}/mirror/s2/graph/v1",
        "SCHOLARGRAPH_OPENALEX_API_URL": f"{root}/mirror/openalex",
        "SCHOLARGRAPH_ORCID_API_URL": f"{root}/mirror/orcid/v3.0/",
        "SCHOLARGRAPH_ROR_API_URL": f"{root}/mirror/ror/v2",
    }
    settings = Settings.load(environ, env_file=tmp_path / ".env")
    async with open_clients(settings, cache_mode="off", timing=FakeTime().timing()) as clients:
        assert [feed async for feed in clients.arxiv.feeds_by_id(["2101.00001"])] == [EMPTY_FEED]
        assert [page async for page in clients.arxiv.list_record_pages(set_spec="cs")] == []
        assert await clients.s2.paper("CorpusId:9", ["title"]) is not None
        assert await clients.openalex.work("W2741809807") is not None
        assert await clients.orcid.record("0000-0002-1825-0097") is not None
        assert await clients.ror.organization("03yrm5c26") is not None
    assert mirror.paths == [
        "/mirror/arxiv/api/query",
        "/mirror/arxiv/oai",
        "/mirror/s2/graph/v1/paper/CorpusId:9",
        "/mirror/openalex/works/W2741809807",
        "/mirror/orcid/v3.0/0000-0002-1825-0097/record",
        "/mirror/ror/v2/organizations/03yrm5c26",
    ]


def test_a_url_is_kept_as_given() -> None:
    settings = Settings.from_mapping({"SCHOLARGRAPH_OPENALEX_API_URL": "http://proxy:8080/oa"})
    assert settings.openalex_api_url == "http://proxy:8080/oa"
    assert settings.ror_api_url == SOURCE_URLS["SCHOLARGRAPH_ROR_API_URL"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("ftp://mirror.example/openalex", "must be an http:// or https:// URL"),
        ("mirror.example/openalex", "must be an http:// or https:// URL"),
        ("http:///openalex", "must be an http:// or https:// URL"),
        ("http://mirror.example:99999/openalex", "is not a URL"),
        ("https://mirror.example/openalex?mailto=me", "must not carry a query"),
    ],
)
def test_a_malformed_url_names_the_variable(value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as raised:
        Settings.from_mapping({"SCHOLARGRAPH_OPENALEX_API_URL": value})
    assert "SCHOLARGRAPH_OPENALEX_API_URL" in str(raised.value)
    assert "https://api.openalex.org" in str(raised.value)
