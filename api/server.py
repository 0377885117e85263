"""The HTTP server ``scholargraph serve`` runs: uvicorn with a deadline on request heads.

uvicorn closes a keep-alive connection left idle, but a client that opens a connection and
sends its request line and headers slowly, or never finishes them, holds it for as long as it
likes (each byte restarts uvicorn's idle timer). :class:`HeadDeadlineProtocol` gives every
request head ``SCHOLARGRAPH_HEADER_TIMEOUT_S`` seconds from the moment the server waits for
it (the connection opened, or the previous response ended): past that, a partial head is
answered 408 and the connection closed, and a connection that never sent a byte is closed.
Bodies have their own deadline, in the app (:class:`api.middleware.BodyDeadline`).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.supervisors import Multiprocess

from scholargraph.api.logs import log_config
from scholargraph.graph.config import Settings
from scholargraph.graph.repo.shared_projection import SharedProjections, shared_root

APP = "scholargraph.api.app:create_app"
_TIMED_OUT = b"the request head did not arrive in time; send it at once"
_REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: " + str(len(_TIMED_OUT)).encode() + b"\r\n"
    b"connection: close\r\n"
    b"\r\n" + _TIMED_OUT
)


class ServeConfig(uvicorn.Config):
    """uvicorn's configuration, with the head deadline and this module's protocol."""

    def __init__(self, app: Any, *, head_timeout_s: float, **options: Any) -> None:
        super().__init__(app, http=HeadDeadlineProtocol, **options)
        self.head_timeout_s = head_timeout_s


class HeadDeadlineProtocol(HttpToolsProtocol):
    """HTTP/1.1 (httptools) that drops a client whose request head is late."""

    def __init__(self, config: uvicorn.Config, *args: Any, **kwargs: Any) -> None:
        if not isinstance(config, ServeConfig):
            raise TypeError("HeadDeadlineProtocol takes its deadline from a ServeConfig")
        super().__init__(config, *args, **kwargs)
        self.head_timeout_s = config.head_timeout_s
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_begun = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        self._head_begun = True
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._stop_waiting()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        # With a pipelined request queued, its head is in and it starts now; else the server
        # waits for the next head.
        idle = not self.pipeline
        super().on_response_complete()
        if idle and not self.transport.is_closing():
            self._await_head()

    def _await_head(self) -> None:
        self._stop_waiting()
        self._head_begun = False
        self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_late)

    def _stop_waiting(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self._head_begun:
            self.transport.write(_REQUEST_TIMEOUT)
        self.transport.close()


def serve_config(
    settings: Settings, *, host: str, port: int, workers: int = 1, **options: Any
) -> ServeConfig:
    """The server of :func:`api.app.create_app` (which reads the settings itself, in each
    worker) with the head deadline and the log format (:mod:`api.logs`) of ``settings``."""
    options.setdefault("log_level", "info")
    options.setdefault("log_config", log_config(settings.log_format))
    # the app logs each request itself, with its request id and operation
    options.setdefault("access_log", False)
    # a worker imports the app and warms its models before it answers the supervisor's pings:
    # on a busy machine that is more than uvicorn's 5 s, and the worker would be restarted
    options.setdefault("timeout_worker_healthcheck", 60)
    return ServeConfig(
        APP,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        head_timeout_s=settings.header_timeout_s,
        **options,
    )


def run(config: ServeConfig) -> int:
    """Serve until interrupted; 0, or uvicorn's exit code when the server could not start.

    The workers share one coauthor projection, in a directory made here (in memory, under
    ``/dev/shm``) and named to them by ``SCHOLARGRAPH_PROJECTION_DIR``; it is removed when the
    server stops."""
    shared = SharedProjections(shared_root(str(os.getpid())))
    os.environ["SCHOLARGRAPH_PROJECTION_DIR"] = str(shared.root)
    try:
        return _run(config)
    finally:
        os.environ.pop("SCHOLARGRAPH_PROJECTION_DIR", None)
        shared.remove()


def _run(config: ServeConfig) -> int:
    if config.workers > 1:
        # each worker process gets the configuration, head deadline included
        Multiprocess(config, sockets=[config.bind_socket()]).run()
        return 0
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else STARTUP_FAILURE
