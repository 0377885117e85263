"""The server's logs: one line per request on ``scholargraph.access``, and every record as one
JSON object per line (``SCHOLARGRAPH_LOG_FORMAT=json``) or as plain text (``text``).

A JSON line has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger`` and
``message``; a record logged while a request is being answered also has its ``request_id``,
and the access line has ``method``, ``path``, ``status``, ``duration_ms`` and, for GraphQL,
``operation``. A record with an exception has it, trace included, as ``exception``.

The request id is the client's ``X-Request-ID`` when that is a sane one (:func:`request_id`),
else a new one; either way the response carries it back in ``X-Request-ID``.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import orjson

from scholargraph.graph.config import LogFormat

ACCESS_LOGGER = "scholargraph.access"
# The fields of an access line, beside those of every record.
ACCESS_FIELDS = ("request_id", "method", "path", "status", "duration_ms", "operation")
_SANE_ID = re.compile(r"[A-Za-z0-9._:+=/-]{1,128}")

current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)


def request_id(supplied: str | None) -> str:
    """The client's request id when it is 1 to 128 characters of letters, digits and
    ``._:+=/-`` (a UUID, a trace id, a base64 token), else a new random one: anything else
    would let a client write what it likes into the logs."""
    if supplied is not None and _SANE_ID.fullmatch(supplied):
        return supplied
    return uuid.uuid4().hex


class JsonFormatter(logging.Formatter):
    """Each record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ACCESS_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if "request_id" not in entry:
            running = current_request_id.get()
            if running is not None:
                entry["request_id"] = running
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(entry, default=str).decode()


class TextFormatter(logging.Formatter):
    """``time level logger message``, with the request id at the end while a request runs."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        running = getattr(record, "request_id", None) or current_request_id.get()
        return f"{text} [{running}]" if running else text


def log_config(log_format: LogFormat, level: str = "INFO") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for the server (uvicorn takes it as ``log_config``):
    the scholargraph and uvicorn loggers to standard error in ``log_format``. uvicorn's own
    access log is left out: ``scholargraph.access`` says the same and more."""
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    handler = {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": {"()": f"{formatter.__module__}.{formatter.__qualname__}"}},
        "handlers": {"main": handler},
        "loggers": {
            "scholargraph": {"handlers": ["main"], "level": level, "propagate": False},
            "uvicorn": {"handlers": ["main"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


def log_access(
    *,
    request: str,
    method: str,
    path: str,
    status: int,
    duration_ms: float,
    operation: str | None,
) -> None:
    message = f"{method} {path} {status} {duration_ms:.1f} ms"
    if operation is not None:
        message += f" {operation}"
    logging.getLogger(ACCESS_LOGGER).info(
        message,
        extra={
            "request_id": request,
            "method": method,
            "path": path,
            "status": status,
            "duration_ms": round(duration_ms, 3),
            "operation": operation,
        },
    )
