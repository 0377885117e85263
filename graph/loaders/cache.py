"""An on-disk record/replay cache of source responses.

A response is stored as one JSON file under ``<root>/<source>/<2 hex>/<key>.json`` holding the
request (method, URL without credentials, body hash), the status, a few headers and the body.
The key is a SHA-256 of the method, the URL without its query, the sorted query parameters and
a hash of the request body; headers never enter it, and neither do credential parameters, so
an API key is never written to disk and a recording replays without one.

Modes: ``off`` (never touch the disk), ``record`` (always ask the source, store every answer
worth keeping), ``replay`` (answer only from disk; a missing entry is a
:class:`~graph.errors.ReplayMiss`), ``auto`` (answer from disk when present, else ask and store).
Answers worth keeping are 2xx and 404 ("no such record" is an answer too); errors are not.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Collection
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from urllib.parse import urlencode

import httpx

from scholargraph.graph.errors import ReplayMiss

KEPT_HEADERS = ("content-type", "date", "etag", "last-modified")


class CacheMode(StrEnum):
    OFF = "off"
    RECORD = "record"
    REPLAY = "replay"
    AUTO = "auto"


def _is_kept(status: int) -> bool:
    return 200 <= status < 300 or status == 404


def _public_params(request: httpx.Request, secret: Collection[str]) -> list[tuple[str, str]]:
    return sorted((k, v) for k, v in request.url.params.multi_items() if k not in secret)


def _public_url(request: httpx.Request, secret: Collection[str]) -> str:
    base = str(request.url.copy_with(query=None, fragment=None))
    query = urlencode(_public_params(request, secret))
    return f"{base}?{query}" if query else base


def request_key(request: httpx.Request, secret_params: Collection[str] = ()) -> str:
    body = request.content
    parts = [
        request.method.upper(),
        str(request.url.copy_with(query=None, fragment=None)),
        urlencode(_public_params(request, secret_params)),
        hashlib.sha256(body).hexdigest() if body else "",
    ]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


class ResponseCache:
    def __init__(self, root: Path, mode: CacheMode | str = CacheMode.AUTO) -> None:
        self.root = root
        self.mode = CacheMode(mode)

    def path(self, source: str, key: str) -> Path:
        return self.root / source / key[:2] / f"{key}.json"

    def replay(
        self, source: str, request: httpx.Request, secret_params: Collection[str] = ()
    ) -> httpx.Response | None:
        """The stored response for ``request``, or ``None`` when the source must be asked."""
        if self.mode in (CacheMode.OFF, CacheMode.RECORD):
            return None
        path = self.path(source, request_key(request, secret_params))
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            if self.mode is CacheMode.REPLAY:
                raise ReplayMiss(
                    f"no recorded {source} response for {request.method} "
                    f"{_public_url(request, secret_params)} (looked for {path}); "
                    "record it first with the cache mode set to auto or record"
                ) from None
            return None
        response = httpx.Response(
            entry["status"],
            headers=entry["headers"],
            content=entry["body"].encode("utf-8"),
            request=request,
        )
        response.encoding = "utf-8"
        return response

    def record(
        self,
        source: str,
        request: httpx.Request,
        response: httpx.Response,
        secret_params: Collection[str] = (),
    ) -> None:
        if self.mode not in (CacheMode.RECORD, CacheMode.AUTO):
            return
        if not _is_kept(response.status_code):
            return
        body = request.content
        entry = {
            "request": {
                "method": request.method,
                "url": _public_url(request, secret_params),
                "body_sha256": hashlib.sha256(body).hexdigest() if body else None,
            },
            "status": response.status_code,
            "headers": {k: response.headers[k] for k in KEPT_HEADERS if k in response.headers},
            "body": response.text,
            "recorded_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        path = self.path(source, request_key(request, secret_params))
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a crash or a concurrent reader never sees half a file.
        handle, temp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(entry, out, ensure_ascii=False)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
