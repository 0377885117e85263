"""An app over the test database filled with :mod:`tests.site.sitedata`, and a client that
counts the Cypher statements each request runs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from scholargraph.api.app import create_app
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.queries import Query
from tests.site.sitedata import write_site_graph

HTML = "text/html"
JSON = "application/json"
MARKDOWN = "text/markdown"
# read in the background for the pages' validators, not by a page
CLOCK = "read_site.graph_state"


@dataclass
class Client:
    http: httpx.AsyncClient
    app: Starlette
    statements: list[str] = field(default_factory=list)
    # the named queries those statements ran (a composed statement runs several)
    parts: list[str] = field(default_factory=list)

    async def get(self, path: str, accept: str = HTML, **headers: str) -> httpx.Response:
        return await self.http.get(path, headers={"accept": accept, **headers})

    async def json(self, path: str) -> Any:
        response = await self.get(path, JSON)
        assert response.status_code == 200, (path, response.status_code, response.text[:500])
        return response.json()

    def page_statements(self) -> list[str]:
        return [name for name in self.statements if name != CLOCK]


@pytest.fixture
async def site_graph(db: Database) -> Database:
    await write_site_graph(db)
    return db


@pytest.fixture
async def client(
    schema_ready: Settings, site_graph: Database, tmp_path: Path
) -> AsyncIterator[Client]:
    settings = schema_ready.with_overrides(projection_quiet_s=0.05)
    app = create_app(settings, web_dist=tmp_path / "dist")
    async with app.router.lifespan_context(app):
        assert await app.state.projections.wait_ready(30)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            found = Client(http, app)
            recorder = site_graph.on_query
            app_db: Database = app.state.db

            def on_query(query: Query, params: Mapping[str, Any]) -> None:
                found.statements.append(query.name)
                found.parts.extend(query.parts or (query.name,))
                if recorder is not None:
                    recorder(query, params)

            app_db.on_query = on_query
            yield found
