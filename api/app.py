"""The Starlette application: GraphQL at ``/graphql`` (GraphiQL on GET), health checks."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from api.context import Context, context_for
from api.http import graphql_endpoint
from api.schema import build_schema
from graph.config import Settings
from graph.db import Database
from graph.errors import DatabaseError


def create_app(settings: Settings | None = None) -> Starlette:
    config = settings or Settings.load()
    schema = build_schema()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        db = Database.connect(config)
        app.state.db = db
        app.state.settings = config
        try:
            yield
        finally:
            await db.close()

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> JSONResponse:
        db: Database = request.app.state.db
        try:
            await db.verify()
        except DatabaseError as error:
            return JSONResponse({"status": "unavailable", "neo4j": str(error)}, status_code=503)
        return JSONResponse({"status": "ready", "neo4j": config.uri})

    def request_context(request: Request) -> Context:
        return context_for(request.app.state.db, config, request)

    routes = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/graphql", graphql_endpoint(schema, request_context), methods=["GET", "POST"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
