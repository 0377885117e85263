"""Cross-origin requests from browsers, for the origins in ``SCHOLARGRAPH_CORS_ORIGINS``.

With none configured (the default) no origin is allowed: a preflight is refused with 400 and
a response carries no ``Access-Control-Allow-Origin``, so a page on another origin cannot read
it. ``*`` allows any origin. An allowed origin may send ``GET`` and ``POST`` with the headers a
GraphQL client sends (``Content-Type``, ``Accept``, the curator's ``Authorization``,
``X-Request-ID``), and read ``X-Request-ID`` back; browsers may keep a preflight's answer
for :data:`MAX_AGE_S` seconds. No cookies are involved, so none are allowed.
"""

from __future__ import annotations

from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware

ALLOWED_METHODS = ("GET", "POST")
ALLOWED_HEADERS = ("accept", "authorization", "content-type", "x-request-id")
EXPOSED_HEADERS = ("x-request-id",)
MAX_AGE_S = 600


def cors(origins: tuple[str, ...]) -> Middleware:
    return Middleware(
        CORSMiddleware,
        allow_origins=list(origins),
        allow_methods=list(ALLOWED_METHODS),
        allow_headers=list(ALLOWED_HEADERS),
        expose_headers=list(EXPOSED_HEADERS),
        allow_credentials=False,
        max_age=MAX_AGE_S,
    )
