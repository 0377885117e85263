"""An app over the test database, filled with :mod:`tests.api.graphdata`, and a client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from scholargraph.api.app import create_app
from scholargraph.graph.config import Secret, Settings
from scholargraph.graph.db import Database
from scholargraph.queries import Query
from tests.api.graphdata import write_graph

CURATOR_TOKEN = "test-curator-token"
GRAPHQL_RESPONSE = "application/graphql-response+json"


@dataclass
class Api:
    """A client of the app that also counts the Cypher statements each request runs."""

    http: httpx.AsyncClient
    app: Starlette
    statements: list[str] = field(default_factory=list)
    # the statements sent, by their names: a composed one is its parts' names joined by +
    round_trips: list[str] = field(default_factory=list)

    async def post(
        self,
        query: str,
        variables: Mapping[str, Any] | None = None,
        *,
        token: str | None = None,
        accept: str = GRAPHQL_RESPONSE,
    ) -> httpx.Response:
        headers = {"accept": accept}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        body: dict[str, Any] = {"query": query}
        if variables is not None:
            body["variables"] = dict(variables)
        return await self.http.post("/graphql", json=body, headers=headers)

    async def data(
        self, query: str, variables: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The ``data`` of a request that must succeed without errors."""
        response = await self.post(query, variables, **kwargs)
        body = response.json()
        assert response.status_code == 200, body
        assert "errors" not in body, body["errors"]
        return body["data"]

    async def errors(
        self, query: str, variables: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The whole body and the errors of a request that must fail somewhere."""
        response = await self.post(query, variables, **kwargs)
        body = response.json()
        assert body.get("errors"), body
        return body, body["errors"]

    def codes(self, errors: list[dict[str, Any]]) -> list[str]:
        return [error["extensions"]["code"] for error in errors]


@pytest.fixture
async def graph(db: Database) -> Database:
    await write_graph(db)
    return db


@pytest.fixture
async def api(schema_ready: Settings, graph: Database) -> AsyncIterator[Api]:
    settings = schema_ready.with_overrides(
        curator_token=Secret(CURATOR_TOKEN),
        projection_quiet_s=0.05,
        # the test server plans each statement on its first run, seconds on a busy machine
        request_budget_s=30.0,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        # networks are then walked on the projection (the same networks, one statement)
        assert await app.state.projections.wait_ready(30)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            client = Api(http, app)
            recorder = graph.on_query
            app_db: Database = app.state.db

            def on_query(query: Query, params: Mapping[str, Any]) -> None:
                client.statements.extend(query.parts or (query.name,))
                client.round_trips.append(query.name)
                if recorder is not None:
                    recorder(query, params)

            app_db.on_query = on_query
            yield client
