"""Request ids, the access log line, and JSON logs as a live server writes them."""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn

from scholargraph.api.app import create_app
from scholargraph.api.logs import (
    ACCESS_LOGGER,
    JsonFormatter,
    TextFormatter,
    current_request_id,
    log_config,
    request_id,
)
from scholargraph.api.server import serve_config
from scholargraph.graph import localserver
from scholargraph.graph.config import Settings
from scholargraph.graph.errors import ConfigError
from tests.api.conftest import Api
from tests.api.graphdata import YOU

HEX_ID = re.compile(r"[0-9a-f]{32}")
LOGGERS = ("scholargraph", "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


@pytest.mark.parametrize(
    ("supplied", "kept"),
    [
        ("4bf92f3577b34da6a3ce929d0e0e4736", True),
        ("req-2026.12.01:abc+/=", True),
        ("x" * 128, True),
        ("x" * 129, False),
        ("", False),
        ("two words", False),
        ('{"forged": "json"}', False),
        ("line\nbreak", False),
        ("naïve", False),
    ],
)
def test_a_client_request_id_is_kept_only_when_sane(supplied: str, kept: bool) -> None:
    chosen = request_id(supplied)
    assert (chosen == supplied) is kept
    if not kept:
        assert HEX_ID.fullmatch(chosen)


async def test_request_ids_are_echoed_or_made(api: Api) -> None:
    given = await api.http.get("/healthz", headers={"x-request-id": "trace-0001"})
    assert given.headers["x-request-id"] == "trace-0001"
    refused = await api.http.get("/healthz", headers={"x-request-id": "bad id"})
    assert HEX_ID.fullmatch(refused.headers["x-request-id"])
    made = [(await api.http.get("/healthz")).headers["x-request-id"] for _ in range(3)]
    assert all(HEX_ID.fullmatch(one) for one in made)
    assert len(set(made)) == 3
    graphql = await api.http.post(
        "/graphql", json={"query": "{ __typename }"}, headers={"x-request-id": "gql-1"}
    )
    assert graphql.headers.get_list("x-request-id") == ["gql-1"]


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def access_records() -> Iterator[list[logging.LogRecord]]:
    """The access log's records, heard on its own logger (whatever a server configured)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    handler, level = Records(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def test_each_request_has_an_access_line(
    api: Api, access_records: list[logging.LogRecord]
) -> None:
    query = f'query WhoIsIt {{ researcher(id: "{YOU}") {{ name }} }}'
    response = await api.http.post(
        "/graphql", json={"query": query}, headers={"x-request-id": "access-1"}
    )
    assert response.status_code == 200
    await api.http.get("/no/such/page", headers={"x-request-id": "access-2"})
    lines = [json.loads(JsonFormatter().format(record)) for record in access_records]
    graphql, missing = lines[-2], lines[-1]
    assert set(graphql) == {
        "time",
        "level",
        "logger",
        "message",
        "request_id",
        "method",
        "path",
        "status",
        "duration_ms",
        "operation",
    }
    assert graphql["request_id"] == "access-1"
    assert (graphql["method"], graphql["path"], graphql["status"]) == ("POST", "/graphql", 200)
    assert graphql["operation"] == "WhoIsIt"
    assert graphql["level"] == "INFO" and graphql["logger"] == ACCESS_LOGGER
    assert graphql["duration_ms"] > 0
    assert graphql["message"].startswith("POST /graphql 200 ")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", graphql["time"])
    assert missing["request_id"] == "access-2"
    assert (missing["path"], missing["status"]) == ("/no/such/page", 404)
    assert "operation" not in missing


def test_records_logged_during_a_request_carry_its_id() -> None:
    record = logging.LogRecord(
        "scholargraph.api", logging.ERROR, __file__, 1, "boom %s", ("x",), None
    )
    assert "request_id" not in json.loads(JsonFormatter().format(record))
    token = current_request_id.set("during-1")
    try:
        try:
            raise ValueError("inner")
        except ValueError:
            import sys

            failed = logging.LogRecord(
                "scholargraph.api", logging.ERROR, __file__, 1, "boom", (), sys.exc_info()
            )
        entry = json.loads(JsonFormatter().format(failed))
        text = TextFormatter().format(record)
    finally:
        current_request_id.reset(token)
    assert entry["request_id"] == "during-1"
    assert entry["message"] == "boom"
    assert "ValueError: inner" in entry["exception"]
    assert "\n" not in JsonFormatter().format(failed)
    assert text.endswith("ERROR scholargraph.api boom x [during-1]")


@pytest.fixture
def restored_logging() -> Iterator[None]:
    """The loggers a server configures, put back as they were after the test."""
    saved = {}
    for name in LOGGERS:
        logger = logging.getLogger(name)
        saved[name] = (list(logger.handlers), logger.level, logger.propagate, logger.disabled)
    try:
        yield
    finally:
        for name, (handlers, level, propagate, disabled) in saved.items():
            logger = logging.getLogger(name)
            logger.handlers[:] = handlers
            logger.setLevel(level)
            logger.propagate = propagate
            logger.disabled = disabled


def test_serve_config_takes_the_log_format(schema_ready: Settings, restored_logging: None) -> None:
    config = serve_config(
        schema_ready.with_overrides(log_format="json"), host="127.0.0.1", port=8124
    )
    assert config.access_log is False
    formatters: dict[str, Any] = config.log_config["formatters"]  # type: ignore[index]
    assert formatters["main"]["()"] == "scholargraph.api.logs.JsonFormatter"
    text = serve_config(schema_ready, host="127.0.0.1", port=8124)
    assert text.log_config["formatters"]["main"]["()"].endswith("TextFormatter")  # type: ignore[index]


def test_a_live_server_writes_one_json_object_per_line(
    schema_ready: Settings, restored_logging: None, capfd: pytest.CaptureFixture[str]
) -> None:
    settings = schema_ready.with_overrides(network_projection=False, log_format="json")
    port = localserver.free_port()
    config = uvicorn.Config(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_config=log_config(settings.log_format),
        access_log=False,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    try:
        base = f"http://127.0.0.1:{port}"
        answered = httpx.post(
            f"{base}/graphql",
            json={"query": "query Ping { __typename }"},
            headers={"x-request-id": "live-1"},
        )
        assert answered.headers["x-request-id"] == "live-1"
        httpx.get(f"{base}/healthz")
    finally:
        server.should_exit = True
        thread.join(timeout=30)
    written = capfd.readouterr().err.splitlines()
    entries = [json.loads(line) for line in written]  # every line is one JSON object
    access = [e for e in entries if e["logger"] == ACCESS_LOGGER]
    assert [(e["path"], e["status"]) for e in access] == [("/graphql", 200), ("/healthz", 200)]
    assert access[0]["request_id"] == "live-1" and access[0]["operation"] == "Ping"
    assert any(e["logger"].startswith("uvicorn") for e in entries)  # its own lines too
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)


def test_log_format_setting() -> None:
    assert Settings.from_mapping({}).log_format == "text"
    assert Settings.from_mapping({"SCHOLARGRAPH_LOG_FORMAT": "JSON"}).log_format == "json"
    with pytest.raises(ConfigError, match="must be json or text"):
        Settings.from_mapping({"SCHOLARGRAPH_LOG_FORMAT": "xml"})
