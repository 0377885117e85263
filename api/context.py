"""What every resolver is handed: the database, the settings, this request's loaders, and
whether the caller is a curator."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

import strawberry
from starlette.requests import Request

from scholargraph.api.errors import Unauthenticated
from scholargraph.api.loaders import Loaders
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.repo.projection import CoauthorIndex


@dataclass
class Context:
    db: Database
    settings: Settings
    loaders: Loaders
    curator: bool = False
    projections: CoauthorIndex | None = None

    def require_curator(self) -> None:
        if not self.curator:
            raise Unauthenticated(
                "curator mutations need the header 'Authorization: Bearer <token>' with the "
                "token set as SCHOLARGRAPH_CURATOR_TOKEN; the API is read-only without it"
            )


Info = strawberry.Info[Context, None]


def is_curator(settings: Settings, authorization: str | None) -> bool:
    """Whether ``authorization`` carries the configured curator token (compared in constant
    time); never true when no token is configured."""
    if settings.curator_token is None or not authorization:
        return False
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        return False
    return hmac.compare_digest(token.strip().encode(), settings.curator_token.reveal().encode())


def context_for(
    db: Database,
    settings: Settings,
    request: Request | None = None,
    projections: CoauthorIndex | None = None,
) -> Context:
    authorization = request.headers.get("authorization") if request is not None else None
    return Context(db, settings, Loaders(db), is_curator(settings, authorization), projections)
