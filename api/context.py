"""What every resolver is handed: the database (under this request's time budget), the
settings, this request's loaders, and whether the caller is a curator.

The curator's header is ``Authorization: Bearer <token>`` with ``Bearer`` spelt exactly so.
RFC 7235 makes the scheme name case-insensitive, but RFC 6750 writes it ``Bearer`` and the
API takes only that spelling: ``bearer`` or ``BEARER`` is refused with a message that says so,
as is any other scheme, so a client learns of its mistake instead of being silently read-only.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field

import strawberry
from starlette.requests import Request

from scholargraph.api.errors import Unauthenticated
from scholargraph.api.loaders import Loaders
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.repo.projection import CoauthorIndex

SCHEME = "Bearer"
NOT_CURATOR = (
    "curator mutations need the header 'Authorization: Bearer <token>' with the token set as "
    "SCHOLARGRAPH_CURATOR_TOKEN; the API is read-only without it"
)


@dataclass
class Context:
    db: Database
    settings: Settings
    loaders: Loaders
    curator: bool = False
    projections: CoauthorIndex | None = None
    refusal: str = NOT_CURATOR
    # what the document selects under a field, by the field's node (api.selection)
    selections: dict[int, bool] = field(default_factory=dict)

    def require_curator(self) -> None:
        if not self.curator:
            raise Unauthenticated(self.refusal)


Info = strawberry.Info[Context, None]


def curator_refusal(settings: Settings, authorization: str | None) -> str | None:
    """Why ``authorization`` does not make the caller a curator, or None when it carries the
    configured curator token (compared in constant time). Never None when no token is
    configured."""
    if settings.curator_token is None or not authorization:
        return NOT_CURATOR
    scheme, _, token = authorization.strip().partition(" ")
    if scheme != SCHEME:
        if scheme.lower() == SCHEME.lower():
            return (
                f"the Authorization scheme is spelt {SCHEME!r} here, not {scheme!r}: send "
                f"'Authorization: Bearer <token>'"
            )
        return f"{NOT_CURATOR} (the header's scheme is not {SCHEME!r})"
    token = token.strip()
    if not token:
        return f"{NOT_CURATOR} (the header has no token after {SCHEME!r})"
    if not hmac.compare_digest(token.encode(), settings.curator_token.reveal().encode()):
        return "the bearer token is not this server's curator token (SCHOLARGRAPH_CURATOR_TOKEN)"
    return None


def is_curator(settings: Settings, authorization: str | None) -> bool:
    return curator_refusal(settings, authorization) is None


def context_for(
    db: Database,
    settings: Settings,
    request: Request | None = None,
    projections: CoauthorIndex | None = None,
) -> Context:
    authorization = request.headers.get("authorization") if request is not None else None
    refusal = curator_refusal(settings, authorization)
    budgeted = db.within(settings.request_budget_s).batched()
    return Context(
        budgeted,
        settings,
        Loaders(budgeted),
        curator=refusal is None,
        projections=projections,
        refusal=refusal or NOT_CURATOR,
    )
