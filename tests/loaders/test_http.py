from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from itertools import pairwise

import httpx
import pytest

from scholargraph.graph.errors import (
    BadInput,
    NotFound,
    SourceAuthError,
    SourceError,
    SourceUnavailable,
)
from scholargraph.graph.loaders.http import (
    HttpTiming,
    RateLimit,
    RateLimiter,
    RetryPolicy,
    SourceHttp,
    SourceProfile,
    parse_retry_after,
)
from tests.loaders.fake_time import NOON, FakeTime

URL = "https://api.example.org/thing"
FAST = RateLimit(per_second=1000.0, burst=1000)
Handler = Callable[[httpx.Request], httpx.Response]


class Ceiling(random.Random):
    """Jitter that always draws the top of its range, to expose the backoff ceiling."""

    def uniform(self, a: float, b: float) -> float:
        return b


def make_http(
    handler: Handler,
    fake: FakeTime,
    *,
    rate: RateLimit = FAST,
    retry: RetryPolicy | None = None,
    rng: random.Random | None = None,
    **profile: object,
) -> SourceHttp:
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    source = SourceProfile(name="example", label="Example", rate=rate, **profile)
    return SourceHttp(client, source, retry=retry, timing=fake.timing(rng))


def scripted(*responses: httpx.Response | Exception) -> tuple[Handler, list[httpx.Request]]:
    """A handler answering with ``responses`` in turn (the last one repeats)."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = responses[min(len(seen), len(responses)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer

    return handler, seen


def ok(payload: object = None) -> httpx.Response:
    return httpx.Response(200, json=payload if payload is not None else {"ok": True})


async def test_429_waits_exactly_the_retry_after_seconds() -> None:
    fake = FakeTime()
    busy = httpx.Response(429, headers={"Retry-After": "7"})
    handler, seen = scripted(busy, busy, ok())
    assert await make_http(handler, fake).get_json(URL) == {"ok": True}
    assert len(seen) == 3
    assert fake.sleeps == [7.0, 7.0]


async def test_retry_after_as_an_http_date_is_measured_from_the_server_date() -> None:
    fake = FakeTime()
    busy = httpx.Response(
        503,
        headers={
            "Date": "Mon, 02 Mar 2026 11:00:00 GMT",
            "Retry-After": "Mon, 02 Mar 2026 11:00:42 GMT",
        },
    )
    handler, _ = scripted(busy, ok())
    await make_http(handler, fake).get_json(URL)
    assert fake.sleeps == [42.0]


def test_retry_after_parsing_edge_cases() -> None:
    assert parse_retry_after("0", NOON) == 0.0
    assert parse_retry_after("Mon, 02 Mar 2026 11:59:00 GMT", NOON) == 0.0  # already past
    assert parse_retry_after("-5", NOON) is None
    assert parse_retry_after("", NOON) is None
    assert parse_retry_after(None, NOON) is None


async def test_backoff_doubles_up_to_the_cap_then_gives_up() -> None:
    fake = FakeTime()
    handler, seen = scripted(httpx.Response(500))
    policy = RetryPolicy(max_attempts=6, base_delay=1.0, max_delay=5.0, max_total_wait=1000)
    http = make_http(handler, fake, retry=policy, rng=Ceiling())
    with pytest.raises(SourceUnavailable, match=r"HTTP 500 on each of 6 attempts"):
        await http.get_json(URL)
    assert len(seen) == 6
    assert fake.sleeps == [1.0, 2.0, 4.0, 5.0, 5.0]


def test_full_jitter_stays_within_the_growing_ceiling() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=8.0)
    rng = random.Random(2026)
    for attempt in range(1, 9):
        ceiling = min(8.0, 0.5 * 2 ** (attempt - 1))
        draws = [policy.backoff(attempt, rng) for _ in range(200)]
        assert all(0.0 <= d <= ceiling for d in draws)
        # Full jitter spreads over the whole range rather than clustering at the ceiling.
        assert min(draws) < ceiling * 0.1
        assert max(draws) > ceiling * 0.9
    same_seed = [RetryPolicy().backoff(3, random.Random(1)) for _ in range(2)]
    assert same_seed[0] == same_seed[1]


async def test_gives_up_at_once_when_retry_after_passes_the_total_wait() -> None:
    fake = FakeTime()
    handler, seen = scripted(httpx.Response(429, headers={"Retry-After": "600"}))
    http = make_http(handler, fake, retry=RetryPolicy(max_total_wait=300))
    with pytest.raises(SourceUnavailable, match="waiting 600 s more would pass the 300 s limit"):
        await http.get_json(URL)
    assert len(seen) == 1
    assert fake.sleeps == []


async def test_total_wait_is_summed_over_attempts() -> None:
    fake = FakeTime()
    handler, seen = scripted(httpx.Response(503, headers={"Retry-After": "40"}))
    http = make_http(handler, fake, retry=RetryPolicy(max_attempts=10, max_total_wait=100))
    with pytest.raises(SourceUnavailable):
        await http.get_json(URL)
    assert fake.sleeps == [40.0, 40.0]
    assert len(seen) == 3


async def test_a_hanging_server_is_retried_then_given_up() -> None:
    fake = FakeTime()
    handler, seen = scripted(httpx.ReadTimeout("no answer"))
    http = make_http(handler, fake, retry=RetryPolicy(max_attempts=3))
    with pytest.raises(SourceUnavailable, match="ReadTimeout on each of 3 attempts"):
        await http.get_json(URL)
    assert len(seen) == 3
    assert len(fake.sleeps) == 2


async def test_a_dropped_connection_recovers_on_retry() -> None:
    fake = FakeTime()
    handler, seen = scripted(httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), ok([1]))
    assert await make_http(handler, fake).get_json(URL) == [1]
    assert len(seen) == 3


@pytest.mark.parametrize("status", [401, 403])
async def test_refused_credentials_name_the_setting_and_are_not_retried(status: int) -> None:
    fake = FakeTime()
    handler, seen = scripted(httpx.Response(status, json={"message": "Forbidden"}))
    http = make_http(handler, fake, credential_setting="EXAMPLE_API_KEY")
    with pytest.raises(SourceAuthError, match=rf"HTTP {status}: Forbidden.*EXAMPLE_API_KEY"):
        await http.get_json(URL)
    assert len(seen) == 1


async def test_404_is_none_when_missing_is_expected_and_not_found_otherwise() -> None:
    fake = FakeTime()
    handler, _ = scripted(httpx.Response(404, json={"error": "Paper with id 0 not found"}))
    http = make_http(handler, fake)
    assert await http.get_json(URL, missing_ok=True) is None
    with pytest.raises(NotFound, match="Paper with id 0 not found"):
        await http.get_json(URL)


async def test_a_rejected_request_is_bad_input_and_other_statuses_a_source_error() -> None:
    fake = FakeTime()
    handler, seen = scripted(httpx.Response(400, json={"error": "Unrecognized fields: [x]"}))
    with pytest.raises(BadInput, match=r"Unrecognized fields: \[x\]"):
        await make_http(handler, fake).get_json(URL)
    assert len(seen) == 1
    handler, _ = scripted(httpx.Response(410, text="gone for good"))
    with pytest.raises(SourceError, match=r"HTTP 410.*gone for good"):
        await make_http(handler, fake).get_json(URL)


async def test_a_body_that_is_not_json_is_a_source_error() -> None:
    handler, _ = scripted(httpx.Response(200, text="<html>maintenance</html>"))
    with pytest.raises(SourceError, match="other than JSON"):
        await make_http(handler, FakeTime()).get_json(URL)


async def test_credential_params_never_show_in_errors() -> None:
    handler, seen = scripted(httpx.Response(503))
    http = make_http(
        handler,
        FakeTime(),
        retry=RetryPolicy(max_attempts=2),
        params={"api_key": "s3cr3t"},
        secret_params=frozenset({"api_key"}),
    )
    with pytest.raises(SourceUnavailable) as caught:
        await http.get_json(URL, {"filter": "doi:x"})
    assert seen[0].url.params["api_key"] == "s3cr3t"
    assert "s3cr3t" not in str(caught.value)
    assert "filter=doi" in str(caught.value)


async def test_redirects_are_followed() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/works/W1":
            return httpx.Response(301, headers={"Location": "https://api.example.org/works/W2"})
        return ok({"id": "W2"})

    http = make_http(handler, FakeTime())
    assert await http.get_json("https://api.example.org/works/W1") == {"id": "W2"}


async def test_minimum_interval_spaces_request_starts() -> None:
    fake = FakeTime()
    starts: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        starts.append(fake.now)
        return ok()

    http = make_http(handler, fake, rate=RateLimit(per_second=1 / 3))
    for _ in range(4):
        await http.get_json(URL)
    assert starts == pytest.approx([0.0, 3.0, 6.0, 9.0])


async def test_token_bucket_allows_a_burst_then_the_steady_rate() -> None:
    fake = FakeTime()
    starts: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        starts.append(fake.now)
        return ok()

    http = make_http(handler, fake, rate=RateLimit(per_second=24.0, burst=40))
    for _ in range(45):
        await http.get_json(URL)
    assert starts[:40] == [0.0] * 40
    gaps = [b - a for a, b in pairwise(starts[39:])]
    assert gaps == pytest.approx([1 / 24] * 5)


async def test_idle_time_refills_the_bucket() -> None:
    fake = FakeTime()
    starts: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        starts.append(fake.now)
        return ok()

    http = make_http(handler, fake, rate=RateLimit(per_second=1.0, burst=3))
    for _ in range(3):
        await http.get_json(URL)
    fake.now += 10.0  # idle long enough to refill the whole bucket, and no more
    for _ in range(4):
        await http.get_json(URL)
    assert starts == pytest.approx([0, 0, 0, 10, 10, 10, 11])


@pytest.mark.parametrize(("max_in_flight", "expected_peak"), [(1, 1), (None, 4)])
async def test_max_in_flight_caps_concurrent_requests(
    max_in_flight: int | None, expected_peak: int
) -> None:
    in_flight = peak = 0

    async def handler(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        for _ in range(3):
            await asyncio.sleep(0)
        in_flight -= 1
        return ok()

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    rate = RateLimit(per_second=1000.0, burst=1000, max_in_flight=max_in_flight)
    http = SourceHttp(client, SourceProfile("example", "Example", rate), timing=FakeTime().timing())
    await asyncio.gather(*(http.get_json(URL) for _ in range(4)))
    assert peak == expected_peak


def test_window_limits_become_a_rate_that_fits_the_window() -> None:
    rate = RateLimit.per_window(50, 300, burst=5)
    assert rate.burst + rate.per_second * 300 == pytest.approx(50)


async def test_a_hold_delays_every_later_start() -> None:
    fake = FakeTime()
    limiter = RateLimiter(FAST, fake.timing())
    await limiter.acquire()
    limiter.hold(30.0)
    await limiter.acquire()
    await limiter.acquire()
    assert fake.sleeps == [30.0]
    assert fake.now == 30.0


async def test_retry_after_holds_back_other_requests_to_the_source() -> None:
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    # Time stands still here, so every start after the 429 meets the full 30 s hold.
    timing = HttpTiming(sleep=sleep, clock=lambda: 0.0, rng=random.Random(1))
    handler, _ = scripted(httpx.Response(429, headers={"Retry-After": "30"}), ok())
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    http = SourceHttp(client, SourceProfile("example", "Example", FAST), timing=timing)
    await http.get_json(URL)
    sleeps.clear()
    await http.get_json("https://api.example.org/other")
    assert sleeps == [30.0]
