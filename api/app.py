"""The Starlette application: health checks now; GraphQL and the page mount here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from graph.config import Settings
from graph.db import Database
from graph.errors import DatabaseError


def create_app(settings: Settings | None = None) -> Starlette:
    config = settings or Settings.load()

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

    routes = [Route("/healthz", healthz), Route("/readyz", readyz)]
    return Starlette(routes=routes, lifespan=lifespan)
