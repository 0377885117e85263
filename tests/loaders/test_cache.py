from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from scholargraph.graph.config import Secret
from scholargraph.graph.errors import BadInput, ReplayMiss, SourceUnavailable
from scholargraph.graph.loaders.cache import CacheMode, ResponseCache, request_key
from scholargraph.graph.loaders.clients import (
    OpenAlexClient,
    OpenAlexSettings,
    S2Settings,
    SemanticScholarClient,
)
from scholargraph.graph.loaders.http import HttpTiming, RateLimit

FAST = RateLimit(per_second=100.0, burst=100)
WORK = {"id": "https://openalex.org/W2741809807", "title": "The state of OA"}


async def no_sleep(seconds: float) -> None:
    return None


TIMING = HttpTiming(sleep=no_sleep, clock=lambda: 0.0)


class Counting:
    def __init__(self, answer: httpx.Response) -> None:
        self.answer = answer
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.answer


def unreachable(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("offline", request=request)


def openalex(handler: object, cache: ResponseCache, key: str = "key-one") -> OpenAlexClient:
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))  # type: ignore[arg-type]
    settings = OpenAlexSettings(api_key=Secret(key), rate=FAST)
    return OpenAlexClient(client, settings, cache=cache, timing=TIMING)


async def test_record_then_replay_with_the_network_gone(tmp_path: Path) -> None:
    online = Counting(httpx.Response(200, json=WORK))
    await openalex(online, ResponseCache(tmp_path, CacheMode.RECORD)).work("W2741809807")
    assert len(online.requests) == 1

    # A different key, and every request would fail: the answer must come from disk.
    offline = openalex(unreachable, ResponseCache(tmp_path, CacheMode.REPLAY), key="key-two")
    assert await offline.work("W2741809807") == WORK


async def test_the_api_key_is_neither_in_the_key_nor_on_disk(tmp_path: Path) -> None:
    online = Counting(httpx.Response(200, json=WORK))
    await openalex(online, ResponseCache(tmp_path, CacheMode.RECORD)).work("W2741809807")
    files = list((tmp_path / "openalex").rglob("*.json"))
    assert len(files) == 1
    text = files[0].read_text(encoding="utf-8")
    assert "key-one" not in text
    entry = json.loads(text)
    assert entry["status"] == 200
    assert entry["request"]["url"] == "https://api.openalex.org/works/W2741809807"
    assert entry["headers"]["content-type"] == "application/json"
    assert json.loads(entry["body"]) == WORK
    assert files[0].parent.parent == tmp_path / "openalex"


def test_the_key_ignores_parameter_order_but_not_values_or_bodies() -> None:
    def build(params: dict[str, str], body: object = None) -> httpx.Request:
        return httpx.Request("POST", "https://x.org/batch", params=params, json=body)

    a = request_key(build({"a": "1", "b": "2"}, {"ids": [1]}))
    assert a == request_key(build({"b": "2", "a": "1"}, {"ids": [1]}))
    assert a != request_key(build({"a": "1", "b": "3"}, {"ids": [1]}))
    assert a != request_key(build({"a": "1", "b": "2"}, {"ids": [2]}))
    secret = request_key(build({"a": "1", "api_key": "x"}), {"api_key"})
    assert secret == request_key(build({"a": "1", "api_key": "y"}), {"api_key"})


async def test_replay_without_a_recording_says_what_is_missing(tmp_path: Path) -> None:
    offline = openalex(unreachable, ResponseCache(tmp_path, CacheMode.REPLAY))
    with pytest.raises(ReplayMiss, match=r"no recorded openalex response for GET .*W1.*record it"):
        await offline.work("W1")
    with pytest.raises(SourceUnavailable):
        await offline.work("W1")


async def test_auto_asks_once_then_answers_from_disk(tmp_path: Path) -> None:
    online = Counting(httpx.Response(200, json=WORK))
    client = openalex(online, ResponseCache(tmp_path, CacheMode.AUTO))
    assert await client.work("W2741809807") == WORK
    assert await client.work("W2741809807") == WORK
    assert len(online.requests) == 1


async def test_record_always_asks_and_off_never_writes(tmp_path: Path) -> None:
    online = Counting(httpx.Response(200, json=WORK))
    recording = openalex(online, ResponseCache(tmp_path / "rec", CacheMode.RECORD))
    await recording.work("W2741809807")
    await recording.work("W2741809807")
    assert len(online.requests) == 2

    await openalex(online, ResponseCache(tmp_path / "off", "off")).work("W2741809807")
    assert not (tmp_path / "off").exists()


async def test_not_found_is_kept_and_errors_are_not(tmp_path: Path) -> None:
    missing = Counting(httpx.Response(404, json={"error": "not found"}))
    await openalex(missing, ResponseCache(tmp_path, CacheMode.RECORD)).work("W404")
    offline = openalex(unreachable, ResponseCache(tmp_path, CacheMode.REPLAY))
    assert await offline.work("W404") is None

    broken = Counting(httpx.Response(400, json={"error": "bad"}))
    with pytest.raises(BadInput, match="bad"):
        await openalex(broken, ResponseCache(tmp_path, CacheMode.RECORD)).work("W400")
    with pytest.raises(ReplayMiss):
        await offline.work("W400")


async def test_batch_posts_replay_by_body(tmp_path: Path) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        ids = json.loads(request.content)["ids"]
        return httpx.Response(200, json=[{"paperId": i} for i in ids])

    def s2(handler: object, mode: CacheMode) -> SemanticScholarClient:
        client = httpx.AsyncClient(transport=httpx.MockTransport(handler))  # type: ignore[arg-type]
        settings = S2Settings(api_key=Secret("k"), rate=FAST)
        return SemanticScholarClient(
            client, settings, cache=ResponseCache(tmp_path, mode), timing=TIMING
        )

    online = s2(answer, CacheMode.RECORD)
    await online.papers(["a", "b"], ["title"])
    await online.papers(["c"], ["title"])
    offline = s2(unreachable, CacheMode.REPLAY)
    assert await offline.papers(["c"], ["title"]) == [{"paperId": "c"}]
    assert await offline.papers(["a", "b"], ["title"]) == [{"paperId": "a"}, {"paperId": "b"}]
    with pytest.raises(ReplayMiss):
        await offline.papers(["a"], ["title"])
