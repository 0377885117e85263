"""GraphQL over HTTP (the GraphQL-over-HTTP draft spec), with GraphiQL for browsers.

* ``POST`` with ``Content-Type: application/json``; ``GET`` with URL parameters (queries
  only: a mutation over GET is refused with 405).
* The response type follows ``Accept``: ``application/graphql-response+json`` or
  ``application/json`` (also for ``*/*`` or no ``Accept``); anything else gets 406.
* A body that is not JSON (I-JSON: no lone surrogates, nested at most 32 deep, see
  :mod:`api.inputs`) or parameters of the wrong type are 400; a body over
  ``SCHOLARGRAPH_MAX_BODY_BYTES`` is 413, GET parameters over it 414. A document that fails to
  parse or validate, or variables that do not coerce, are 400 with
  ``application/graphql-response+json`` and 200 with ``application/json`` (as the spec asks
  for legacy clients); either way the response then has no ``data``.
* A response with an ``UNAVAILABLE`` error (Neo4j not reachable) is 503 with ``Retry-After``.
* Automatic persisted queries (``extensions.persistedQuery``, :mod:`api.persisted`): a hash
  the server does not know is 200 with ``PERSISTED_QUERY_NOT_FOUND``, a hash that is not the
  document's 400 with ``PERSISTED_QUERY_HASH_MISMATCH``.
* ``OPTIONS`` that is not a CORS preflight (:mod:`api.cors` answers those) is 204 with
  ``Allow``.
* A browser asking for HTML without a query gets GraphiQL, from the page bundle
  (``api/web/dist/graphiql``: React, GraphiQL and its CSS served from this origin, no CDN).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import orjson
import strawberry
from graphql import GraphQLError
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from strawberry.exceptions import MissingQueryError
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.types.execution import ExecutionResult, PreExecutionError
from strawberry.types.graphql import OperationType

from scholargraph.api.context import Context
from scholargraph.api.errors import RETRY_AFTER_S, format_error
from scholargraph.api.inputs import read_json
from scholargraph.api.metrics import OPERATION_NAME, Metrics
from scholargraph.api.persisted import (
    NOT_FOUND,
    PersistedQueries,
    PersistedQueryError,
    requested,
)
from scholargraph.api.schema import ScholargraphSchema, selected_operation
from scholargraph.graph.errors import ScholargraphError

GRAPHQL_RESPONSE = "application/graphql-response+json"
JSON = "application/json"
ALLOW = "GET, POST, OPTIONS"
NOT_A_DOCUMENT = "the query parameter must be a GraphQL document (a string)"
ContextFactory = Callable[[Request], Context]


class _RequestError(Exception):
    def __init__(
        self,
        status: int,
        message: str,
        headers: Mapping[str, str] | None = None,
        code: str = "BAD_INPUT",
    ):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})
        self.code = code


def media_type_for(accept: str | None) -> str | None:
    """The response type to use for an ``Accept`` header, or None when none is acceptable.

    >>> media_type_for("application/graphql-response+json, application/json;q=0.9")
    'application/graphql-response+json'
    >>> media_type_for(None), media_type_for("*/*"), media_type_for("text/html")
    ('application/json', 'application/json', None)
    """
    if not accept or not accept.strip():
        return JSON
    best: tuple[tuple[float, int, int], str] | None = None
    for order, item in enumerate(accept.split(",")):
        kind, *params = (part.strip() for part in item.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        candidate = {
            GRAPHQL_RESPONSE: GRAPHQL_RESPONSE,
            JSON: JSON,
            "application/*": JSON,
            "*/*": JSON,
        }.get(kind.lower())
        if candidate is None or quality <= 0:
            continue
        # Prefer the higher quality, then the spec's own type, then the order given.
        rank = (quality, 1 if candidate == GRAPHQL_RESPONSE else 0, -order)
        if best is None or rank > best[0]:
            best = (rank, candidate)
    return best[1] if best else None


def _wants_html(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "query" not in request.query_params


def _json(raw: str | bytes, what: str) -> Any:
    try:
        return read_json(raw, what)
    except ScholargraphError as error:
        raise _RequestError(400, str(error), code=error.code) from None


async def _body(request: Request) -> bytes:
    """The body, refused with 413 as soon as it passes ``SCHOLARGRAPH_MAX_BODY_BYTES``."""
    limit: int = request.app.state.settings.max_body_bytes
    too_large = _RequestError(
        413,
        f"the request body is over {limit:,} bytes, the limit (SCHOLARGRAPH_MAX_BODY_BYTES); "
        f"send a shorter document, with long values as variables",
        code="LIMIT_EXCEEDED",
    )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


async def _params(request: Request) -> dict[str, Any]:
    if request.method == "GET":
        limit: int = request.app.state.settings.max_body_bytes
        if len(request.scope["query_string"]) > limit:
            raise _RequestError(
                414,
                f"the URL's parameters are over {limit:,} bytes; send the request as POST",
                code="LIMIT_EXCEEDED",
            )
        params: dict[str, Any] = dict(request.query_params)
        for name in ("variables", "extensions"):
            if params.get(name):
                params[name] = _json(params[name], name)
        return params
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != JSON:
        raise _RequestError(415, "send the request as Content-Type: application/json")
    body = await _body(request)
    if not body:
        raise _RequestError(400, 'the request body is empty; send {"query": "…"}')
    params = _json(body, "the request body")
    if not isinstance(params, dict):
        raise _RequestError(400, "the request body must be a JSON object")
    return params


def _checked(
    params: Mapping[str, Any],
) -> tuple[str | None, str | None, dict[str, Any] | None, dict[str, Any] | None]:
    """The request's query (None when it sends none), operationName, variables, extensions."""
    query = params.get("query")
    if query is not None and (not isinstance(query, str) or not query.strip()):
        raise _RequestError(400, NOT_A_DOCUMENT)
    operation = params.get("operationName")
    if operation is not None and not isinstance(operation, str):
        raise _RequestError(400, "operationName must be a string or null")
    variables = params.get("variables")
    if variables is not None and not isinstance(variables, dict):
        raise _RequestError(400, "variables must be a JSON object or null")
    extensions = params.get("extensions")
    if extensions is not None and not isinstance(extensions, dict):
        raise _RequestError(400, "extensions must be a JSON object or null")
    return query, operation, variables, extensions


def _is_request_error(result: ExecutionResult) -> bool:
    """No execution happened: the document or the variables were refused."""
    if isinstance(result, PreExecutionError):
        return True
    return (
        result.data is None
        and bool(result.errors)
        and all(not error.path for error in result.errors or ())
    )


def _error_body(message: str, code: str = "BAD_INPUT") -> dict[str, Any]:
    return {"errors": [{"message": message, "extensions": {"code": code}}]}


GRAPHIQL_PAGE = Path(__file__).resolve().parent / "web" / "dist" / "graphiql" / "graphiql.html"


def _graphiql(page: Path) -> Response:
    if not page.is_file():
        message = "GraphiQL is not built yet: run `make web` (or `npm run build:web`) and reload."
        return PlainTextResponse(message, status_code=503)
    return FileResponse(page, media_type="text/html")


def graphql_endpoint(
    schema: strawberry.Schema,
    context_for: ContextFactory,
    graphiql: Path = GRAPHIQL_PAGE,
    *,
    metrics: Metrics | None = None,
    persisted: PersistedQueries | None = None,
) -> Callable[[Request], Any]:
    """The Starlette endpoint serving ``schema`` at one path (and ``graphiql`` to browsers),
    counting each operation in ``metrics`` and keeping documents sent with their hash in
    ``persisted`` (see :mod:`api.persisted`)."""
    store = persisted if persisted is not None else PersistedQueries(0)

    async def run(request: Request, media_type: str, seen: _Seen) -> Response:
        try:
            query, operation, variables, extensions = _checked(await _params(request))
            seen.name = operation
            digest = _persisted_hash(extensions)
            if digest is not None:
                sent = query is not None
                try:
                    query = store.resolve(digest, query)
                except PersistedQueryError as error:
                    seen.persisted = "miss" if error.code == NOT_FOUND else "mismatch"
                    seen.label = "persisted" if error.code == NOT_FOUND else None
                    raise _RequestError(error.status, error.message, code=error.code) from None
                seen.persisted = "registered" if sent else "hit"
            if query is None:
                raise _RequestError(400, NOT_A_DOCUMENT)
            allowed = {OperationType.QUERY}
            if request.method == "POST":
                allowed.add(OperationType.MUTATION)
            try:
                result = await schema.execute(
                    query,
                    variable_values=variables,
                    context_value=context_for(request),
                    operation_name=operation,
                    allowed_operation_types=allowed,
                )
            except InvalidOperationTypeError:
                raise _RequestError(405, "mutations need POST", {"Allow": "POST"}) from None
            except CannotGetOperationTypeError as error:
                raise _RequestError(400, error.as_http_error_reason()) from None
            except MissingQueryError:
                raise _RequestError(400, "the query parameter is missing") from None
        except _RequestError as error:
            body = _error_body(error.message, error.code)
            return _respond(body, error.status, media_type, error.headers)
        seen.outcome = "refused" if _is_request_error(result) else "ok"
        if seen.outcome == "ok":
            seen.name, seen.kind = _operation(schema, query, operation)
            if result.errors:
                seen.outcome = "errors"
            if digest is not None and seen.persisted == "registered":
                store.store(digest, query)
        elif seen.persisted == "registered":
            seen.persisted = "refused"
        return _respond_result(result, media_type)

    async def endpoint(request: Request) -> Response:
        if request.method == "OPTIONS":
            return Response(status_code=204, headers={"Allow": ALLOW})
        if request.method == "GET" and _wants_html(request):
            return _graphiql(graphiql)
        media_type = media_type_for(request.headers.get("accept"))
        if media_type is None:
            return JSONResponse(
                _error_body(f"cannot answer in {request.headers.get('accept')}; accept {JSON}"),
                status_code=406,
            )
        started = time.perf_counter()
        seen = _Seen()
        try:
            return await run(request, media_type, seen)
        finally:
            label = seen.label or _label(seen.name, metrics)
            request.state.operation = label
            if metrics is not None:
                seconds = time.perf_counter() - started
                metrics.operation(label, seen.kind, seen.outcome, seconds)
                if seen.persisted is not None:
                    metrics.persisted.labels(seen.persisted).inc()
                    metrics.persisted_stored.set(len(store))

    return endpoint


class _Seen:
    """What a request turned out to be, for its metrics and its access log line."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.label: str | None = None
        self.kind = "unknown"
        self.outcome = "refused"
        self.persisted: str | None = None


def _persisted_hash(extensions: Mapping[str, Any] | None) -> str | None:
    try:
        return requested(extensions)
    except PersistedQueryError as error:
        raise _RequestError(error.status, error.message, code=error.code) from None


def _operation(schema: strawberry.Schema, query: str, name: str | None) -> tuple[str | None, str]:
    """The name (None when it has none) and type of the operation a document ran."""
    if not isinstance(schema, ScholargraphSchema):
        return name, "unknown"
    try:
        # cached: the document was parsed by this text to run it
        chosen = selected_operation(schema.documents.parse(query), name)
    except GraphQLError:
        return name, "unknown"
    return (chosen.name.value if chosen.name else None), chosen.operation.value


def _label(name: str | None, metrics: Metrics | None) -> str:
    if name is not None and not OPERATION_NAME.fullmatch(name):
        return "invalid"
    if metrics is not None:
        return metrics.operation_label(name)
    return name or "anonymous"


def _respond_result(result: ExecutionResult, media_type: str) -> Response:
    body: dict[str, Any] = {}
    refused = _is_request_error(result)
    if not refused:
        body["data"] = result.data
    if result.errors:
        body["errors"] = [format_error(_as_graphql_error(e)) for e in result.errors]
    if result.extensions:
        body["extensions"] = result.extensions
    status = 400 if refused and media_type == GRAPHQL_RESPONSE else 200
    headers: dict[str, str] = {}
    if any(e.get("extensions", {}).get("code") == "UNAVAILABLE" for e in body.get("errors", ())):
        status, headers = 503, {"Retry-After": str(RETRY_AFTER_S)}
    return _respond(body, status, media_type, headers)


def _as_graphql_error(error: Any) -> GraphQLError:
    return (
        error if isinstance(error, GraphQLError) else GraphQLError(str(error), original_error=error)
    )


def _respond(
    body: Mapping[str, Any], status: int, media_type: str, headers: Mapping[str, str] | None = None
) -> Response:
    return Response(
        orjson.dumps(body, default=str),
        status_code=status,
        media_type=f"{media_type}; charset=utf-8",
        headers=dict(headers or {}),
    )
