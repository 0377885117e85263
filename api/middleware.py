"""ASGI middleware of the app: a request id, metrics and an access log line for every
request, security headers on every response, a deadline on request bodies, and 503 with
``Retry-After`` for any page asked while Neo4j is unreachable.

The Content-Security-Policy allows what the page, the site and GraphiQL load, all from this
origin (scripts, styles, fonts, images, GraphQL requests), and nothing inline, from another
origin, or in a frame. The policy is sent only where a response has none of its own.
"""

from __future__ import annotations

import asyncio
import time

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scholargraph.api.errors import RETRY_AFTER_S, UNAVAILABLE_MESSAGE
from scholargraph.api.logs import current_request_id, log_access, request_id
from scholargraph.api.metrics import OTHER, Metrics

REQUEST_ID = b"x-request-id"

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    # frame-ancestors for browsers that predate it
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(pair for pair in SECURITY_HEADERS if pair[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class Observed:
    """Gives each request an id (the client's ``X-Request-ID`` when sane, else a new one),
    sends it back in ``X-Request-ID``, keeps it in :data:`api.logs.current_request_id` while
    the request is answered, then counts the request in ``metrics`` by route and logs its
    access line. An endpoint may name what it ran in ``request.state.operation``."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics | None) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        supplied = None
        for name, value in scope["headers"]:
            if name == REQUEST_ID:
                supplied = value.decode("latin-1")
                break
        rid = request_id(supplied)
        state = scope.setdefault("state", {})
        status = 500

        async def identified(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [
                    pair for pair in message.get("headers", []) if pair[0].lower() != REQUEST_ID
                ]
                headers.append((REQUEST_ID, rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        token = current_request_id.set(rid)
        try:
            await self.app(scope, receive, identified)
        finally:
            seconds = time.perf_counter() - started
            method = scope["method"]
            operation = state.get("operation")
            if self.metrics is not None:
                self.metrics.request(route_of(scope), method, status, seconds)
            log_access(
                request=rid,
                method=method,
                path=scope["path"],
                status=status,
                duration_ms=seconds * 1000,
                operation=operation if isinstance(operation, str) else None,
            )
            current_request_id.reset(token)


def route_of(scope: Scope) -> str:
    """The template of the app's route for a request (a mount's path for what is under it),
    or ``other``: a label with as many values as the app has routes."""
    app = scope.get("app")
    for route in getattr(app, "routes", ()):
        match, _ = route.matches(scope)
        if match is not Match.NONE:
            return f"{route.path}/" if isinstance(route, Mount) else str(route.path)
    return OTHER


class _BodyTimedOut(Exception):
    pass


class BodyDeadline:
    """Answers 408 and closes the connection when a request's body has not all arrived within
    ``seconds`` of its head, so a client that sends a body slowly, or never finishes it,
    holds nothing for longer. Waiting for a disconnect once the body is in is not timed.
    (Heads get their own deadline in :mod:`api.server`.)"""

    def __init__(self, app: ASGIApp, *, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + self.seconds
        body_done = False
        started = False

        async def timed_receive() -> Message:
            nonlocal body_done
            if body_done:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise _BodyTimedOut from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, timed_receive, watched_send)
        except _BodyTimedOut:
            if started:
                raise
            response = PlainTextResponse(
                f"the request body did not arrive within {self.seconds:g} s; send it at once",
                status_code=408,
                headers={"connection": "close"},
            )
            await response(scope, receive, send)


async def database_unavailable(request: Request, exc: Exception) -> Response:
    """A page (not GraphQL, which answers in its own format) asked while Neo4j is down."""
    return PlainTextResponse(
        UNAVAILABLE_MESSAGE, status_code=503, headers={"retry-after": str(RETRY_AFTER_S)}
    )
