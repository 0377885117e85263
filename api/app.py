"""The Starlette application: GraphQL at ``/graphql`` (GraphiQL on GET), health checks,
``/metrics`` for Prometheus, and the researcher-network page at ``/`` (the bundle ``make web``
builds into ``api/web/dist``)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path, PurePosixPath

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from scholargraph.api.context import Context, context_for
from scholargraph.api.cors import cors
from scholargraph.api.errors import RETRY_AFTER_S
from scholargraph.api.http import graphql_endpoint
from scholargraph.api.metrics import Metrics, metrics_endpoint
from scholargraph.api.middleware import (
    BodyDeadline,
    Observed,
    SecurityHeaders,
    database_unavailable,
)
from scholargraph.api.persisted import PersistedQueries
from scholargraph.api.schema import build_schema
from scholargraph.api.site import Site
from scholargraph.graph.analysis import compile_kernels
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import DatabaseAuthFailed, DatabaseError, DatabaseUnavailable
from scholargraph.graph.repo.projection import CoauthorIndex
from scholargraph.graph.repo.shared_projection import SharedProjections
from scholargraph.graph.semantic import model as semantic_model
from scholargraph.graph.sync import sync_overview

WEB_DIST = Path(__file__).resolve().parent / "web" / "dist"
MISSING_PAGE = (
    "The researcher-network page is not built yet: run `make web` (or `npm run build:web`) "
    "and reload. The API itself is at /graphql."
)


class PageFiles:
    """The page's files from the built bundle where it is mounted; while there is none (looked
    up on each request, so a build made while the server runs needs no restart), a 503 that
    says how to build it.

    Any other path under the mount whose last part has no file extension (the explorer's deep
    links, ``/explorer/researcher/42``) gets the explorer's ``index.html``: the page reads its
    address itself. A missing file (``/explorer/missing.js``) is still a 404."""

    def __init__(self, dist: Path) -> None:
        self.dist = dist
        self.files = StaticFiles(directory=dist, html=True, check_dir=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not (self.dist / "index.html").is_file():
            await PlainTextResponse(MISSING_PAGE, status_code=503)(scope, receive, send)
            return
        if scope["type"] == "http" and self._is_deep_link(scope):
            await FileResponse(self.dist / "index.html")(scope, receive, send)
            return
        await self.files(scope, receive, send)

    def _is_deep_link(self, scope: Scope) -> bool:
        if scope["method"] not in ("GET", "HEAD"):
            return False
        path = self.files.get_path(scope)
        if "." in PurePosixPath(path).name:
            return False
        try:
            _, found = self.files.lookup_path(path)
        except (OSError, ValueError):  # a name too long, a null byte: StaticFiles says 404
            return False
        return found is None


def create_app(settings: Settings | None = None, *, web_dist: Path | None = None) -> Starlette:
    config = settings or Settings.load()
    schema = build_schema()
    site = Site(web_dist or WEB_DIST)
    metrics = Metrics(config.loads_dir) if config.metrics else None
    persisted = PersistedQueries(config.persisted_queries)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # a request while Neo4j is down is answered UNAVAILABLE at once, not after 30 s
        db = Database.connect(config, fail_fast=True)
        if metrics is not None:
            db.observer = metrics.statement
        app.state.db = db
        app.state.metrics = metrics
        app.state.settings = config
        # Networks are walked on an in-memory copy of the coauthor graph once it is read
        # (in the background; until then, and while the graph changes, on the database).
        # Under `scholargraph serve` the workers share it: one reads it, all map it.
        shared = SharedProjections(config.projection_dir) if config.projection_dir else None
        projections = CoauthorIndex(db, quiet_s=config.projection_quiet_s, shared=shared)
        app.state.projections = projections
        if metrics is not None:
            metrics.projection.index = projections
        if config.network_projection:
            projections.start()
        app.state.site = site
        await asyncio.to_thread(compile_kernels)
        # the embedding model, so that the first search by meaning does not wait for it
        await asyncio.to_thread(semantic_model.warm)
        # What exists now (modules, the schema, the driver) lives as long as the server: out
        # of the collector's sight, full collections no longer walk it in the middle of a
        # request, which is where the slowest requests got their extra tens of milliseconds.
        gc.freeze()
        try:
            yield
        finally:
            await projections.close()
            await site.close()
            await db.close()

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> JSONResponse:
        db: Database = request.app.state.db
        try:
            await db.verify()
        except DatabaseError as error:
            return JSONResponse(
                {"status": "unavailable", "neo4j": str(error)},
                status_code=503,
                headers={"Retry-After": str(RETRY_AFTER_S)},
            )
        projections: CoauthorIndex = request.app.state.projections
        return JSONResponse(
            {
                "status": "ready",
                "neo4j": config.uri,
                "coauthorProjection": projections.state,
                "projection": projections.report(),
                "sync": (await sync_overview(db)).as_json(),
            }
        )

    def request_context(request: Request) -> Context:
        return context_for(request.app.state.db, config, request, request.app.state.projections)

    ide = (web_dist or WEB_DIST) / "graphiql" / "graphiql.html"
    routes = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route(
            "/graphql",
            graphql_endpoint(schema, request_context, ide, metrics=metrics, persisted=persisted),
            methods=["GET", "POST", "OPTIONS"],
        ),
        *([Route("/metrics", metrics_endpoint)] if metrics is not None else []),
        Mount("/explorer", app=PageFiles(web_dist or WEB_DIST), name="page"),
        *site.routes(),
    ]
    # pages, JSON and GraphQL responses compressed for clients that accept gzip
    middleware = [
        Middleware(Observed, metrics=metrics),
        cors(config.cors_origins),
        Middleware(SecurityHeaders),
        Middleware(BodyDeadline, seconds=config.body_timeout_s),
        Middleware(GZipMiddleware, minimum_size=500, compresslevel=6),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=middleware,
        exception_handlers={
            DatabaseUnavailable: database_unavailable,
            DatabaseAuthFailed: database_unavailable,
        },
    )
