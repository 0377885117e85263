"""Errors as a GraphQL client sees them: stable codes in ``extensions.code``, internals masked.

Codes:

* ``NOT_FOUND`` — an id, ORCID, DOI or name resolved to nothing.
* ``BAD_INPUT`` — an argument that can never succeed (a malformed id or global id, the global
  id of another type, a bad cursor), and any request that fails to parse or validate
  (``GRAPHQL_VALIDATION_FAILED`` is not used, so a client has one code to branch on).
* ``LIMIT_EXCEEDED`` — a limit on the request was passed: body size, document length,
  tokens, nesting, selections, depth, aliases, cost, page or network size.
* ``UNAUTHENTICATED`` — a curator mutation without the curator's bearer token.
* ``CONFLICT`` — a curation decision contradicts an earlier one or an ORCID iD.
* ``UNAVAILABLE`` — Neo4j is not reachable (down, restarting, refusing the credentials); the
  response is HTTP 503 with ``Retry-After``, and the next request tries again.
* ``INTERNAL`` — anything else; the message is masked and the error logged with its trace.
"""

from __future__ import annotations

import logging
from typing import Any

from graphql import GraphQLError

from scholargraph.graph.errors import (
    BadInput,
    DatabaseAuthFailed,
    DatabaseUnavailable,
    IdentityError,
    NotFound,
    QueryTimedOut,
    ScholargraphError,
)

logger = logging.getLogger("scholargraph.api")

INTERNAL_MESSAGE = "Internal server error; it has been logged."
UNAVAILABLE_MESSAGE = "The graph database is not reachable right now; retry in a few seconds."
RETRY_AFTER_S = 5


class LimitExceeded(ScholargraphError):
    """A request asked for more than the API serves in one go."""

    code = "LIMIT_EXCEEDED"


class Unauthenticated(ScholargraphError):
    """A curator mutation came without the curator's bearer token."""

    code = "UNAUTHENTICATED"


_PUBLIC: dict[type[ScholargraphError], str] = {
    NotFound: "NOT_FOUND",
    BadInput: "BAD_INPUT",
    LimitExceeded: "LIMIT_EXCEEDED",
    Unauthenticated: "UNAUTHENTICATED",
    IdentityError: "CONFLICT",
    DatabaseUnavailable: "UNAVAILABLE",
    DatabaseAuthFailed: "UNAVAILABLE",
    QueryTimedOut: "LIMIT_EXCEEDED",
}


# The parser's own limits (tokens, nesting), reported as syntax errors.
_PARSER_LIMITS = (
    "Syntax Error: Document contains more than",
    "Syntax Error: Document is nested too deeply",
)


def limit_error(message: str) -> GraphQLError:
    """A GraphQL error for a request over a limit, raised before execution."""
    return GraphQLError(message, extensions={"code": "LIMIT_EXCEEDED"})


def public_code(error: GraphQLError) -> str | None:
    """The code to show for ``error``, or None when it must be masked."""
    original = error.original_error
    if original is None:
        # Raised by graphql-core itself (syntax, validation, variable coercion) or by our
        # validation rules: about the request, safe to show.
        code = (error.extensions or {}).get("code")
        return code if isinstance(code, str) else "BAD_INPUT"
    if isinstance(original, GraphQLError):
        return public_code(original)
    for kind, code in _PUBLIC.items():
        if isinstance(original, kind):
            return code
    return None


def format_error(error: GraphQLError) -> dict[str, Any]:
    """The error as JSON for the response, masked unless it is about the request."""
    code = public_code(error)
    if code is None:
        logger.error("internal error at %s", error.path, exc_info=error.original_error)
        masked = GraphQLError(
            INTERNAL_MESSAGE,
            nodes=error.nodes,
            source=error.source,
            positions=error.positions,
            path=error.path,
            extensions={"code": "INTERNAL"},
        )
        return dict(masked.formatted)
    formatted = dict(error.formatted)
    if code == "UNAVAILABLE":
        # the server's address and credentials are the operator's business, not the client's
        logger.warning("Neo4j unavailable at %s: %s", error.path, error.message)
        formatted["message"] = UNAVAILABLE_MESSAGE
    if error.message.startswith(_PARSER_LIMITS):
        code = "LIMIT_EXCEEDED"
    formatted["extensions"] = {**(error.extensions or {}), "code": code}
    return formatted
