"""Polite HTTP for the sources: rate limits, retries with backoff, typed errors, a cache.

Every source client talks through one :class:`SourceHttp`, which wraps an injected
``httpx.AsyncClient``. What happens to a request:

1. the response cache may answer it (see :mod:`graph.loaders.cache`);
2. the source's :class:`RateLimiter` spaces it out, and at most ``max_in_flight`` run at once;
3. 429, 408 and 5xx answers, timeouts and dropped connections are retried with exponential
   backoff and full jitter, or after exactly the ``Retry-After`` the source asked for, until
   :class:`RetryPolicy` runs out of attempts or of total waiting time
   (then :class:`~graph.errors.SourceUnavailable`);
4. the final answer becomes a value or an error: 2xx is returned, 404 is ``None`` (or
   :class:`~graph.errors.NotFound`), 401/403 :class:`~graph.errors.SourceAuthError`,
   400/422 :class:`~graph.errors.BadInput`, anything else :class:`~graph.errors.SourceError`.

Sleeping, both clocks and the jitter's random numbers come from :class:`HttpTiming`, so tests
replace them and never wait.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal, TypeVar, overload

import httpx

from scholargraph.graph.errors import (
    BadInput,
    ConfigError,
    NotFound,
    SourceAuthError,
    SourceError,
    SourceUnavailable,
)
from scholargraph.graph.loaders.cache import ResponseCache

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
Params = Mapping[str, str | int]
ErrorDetail = Callable[[httpx.Response], str]

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
# Timeouts, refused or reset connections and half-sent answers; not bad URLs or protocols.
RETRY_EXCEPTIONS = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)


T = TypeVar("T")


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of at most ``size`` items.

    >>> list(chunked(range(5), 2))
    [[0, 1], [2, 3], [4]]
    """
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _wall_clock() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class HttpTiming:
    """Where waiting, time and randomness come from; tests pass fakes."""

    sleep: Sleep = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    wall_clock: Callable[[], datetime] = _wall_clock
    rng: random.Random = field(default_factory=random.Random)


@dataclass(frozen=True)
class RateLimit:
    """A token bucket: ``burst`` requests at once, refilled at ``per_second``.

    ``burst=1`` is a plain minimum interval of ``1 / per_second`` between request starts.
    ``max_in_flight`` caps concurrent requests (arXiv asks for one connection at a time).
    """

    per_second: float
    burst: int = 1
    max_in_flight: int | None = None

    def __post_init__(self) -> None:
        if self.per_second <= 0 or self.burst < 1:
            raise ConfigError(f"{self!r}: the rate must be positive and the burst at least 1")
        if self.max_in_flight is not None and self.max_in_flight < 1:
            raise ConfigError(f"{self!r}: max_in_flight must be at least 1")

    @classmethod
    def per_window(
        cls, requests: int, seconds: float, *, burst: int = 1, max_in_flight: int | None = None
    ) -> RateLimit:
        """The steady rate that keeps every window of ``seconds`` within ``requests``.

        A full bucket can be spent at once, so the refill rate leaves room for the burst:

        >>> RateLimit.per_window(2000, 300, burst=20).per_second
        6.6
        """
        return cls((requests - burst) / seconds, burst, max_in_flight)


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 5
    base_delay: float = 1.0
    max_delay: float = 60.0
    max_total_wait: float = 300.0

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """Full jitter: uniform in ``[0, min(max_delay, base_delay * 2 ** (attempt - 1))]``."""
        return rng.uniform(0.0, min(self.max_delay, self.base_delay * 2 ** (attempt - 1)))


@dataclass(frozen=True)
class SourceProfile:
    """What :class:`SourceHttp` needs to know about one source."""

    name: str  # short and stable: the cache folder ("arxiv", "s2", "openalex", "orcid", "ror")
    label: str  # for people: "Semantic Scholar"
    rate: RateLimit
    timeout_seconds: float = 30.0
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    params: Mapping[str, str] = field(default_factory=dict, repr=False)
    # Query parameters that carry credentials: kept out of cache keys, files and messages.
    secret_params: frozenset[str] = frozenset()
    # The setting a person fixes after a 401/403, e.g. "S2_API_KEY".
    credential_setting: str | None = None


class RateLimiter:
    def __init__(self, rate: RateLimit, timing: HttpTiming) -> None:
        self._per_second = rate.per_second
        self._burst = float(rate.burst)
        self._tokens = float(rate.burst)
        self._updated: float | None = None
        self._not_before = float("-inf")
        self._timing = timing
        self._lock = asyncio.Lock()

    def hold(self, seconds: float) -> None:
        """Let no request start for ``seconds``: the source said it is overloaded."""
        self._not_before = max(self._not_before, self._timing.clock() + seconds)

    async def acquire(self) -> None:
        # The lock queues callers, so they are served in order and each waits its own turn.
        async with self._lock:
            held = self._not_before - self._timing.clock()
            if held > 0:
                await self._timing.sleep(held)
            now = self._timing.clock()
            if self._updated is not None:
                earned = (now - self._updated) * self._per_second
                self._tokens = min(self._burst, self._tokens + earned)
            self._updated = now
            if self._tokens < 1.0:
                wait = (1.0 - self._tokens) / self._per_second
                await self._timing.sleep(wait)
                # Count the token earned during the wait even if the clock did not move (a
                # fake clock) or moved further (a late wake-up, credited on the next call).
                self._tokens = 1.0
                self._updated = now + wait
            self._tokens -= 1.0


def parse_retry_after(value: str | None, now: datetime) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date.

    >>> noon = datetime(2026, 3, 2, 12, 0, 0, tzinfo=UTC)
    >>> parse_retry_after("120", noon)
    120.0
    >>> parse_retry_after("Mon, 02 Mar 2026 12:00:30 GMT", noon)
    30.0
    >>> parse_retry_after("soon", noon) is None
    True
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now).total_seconds())


def describe_error(response: httpx.Response) -> str:
    """The source's own words about a failed request, from the JSON shapes the sources use."""
    text = response.text.strip()
    try:
        payload = json.loads(text)
    except ValueError:
        return text[:300]
    if isinstance(payload, dict):
        for key in ("message", "error", "developer-message", "errors", "detail"):
            value = payload.get(key)
            if isinstance(value, list):
                value = "; ".join(str(item) for item in value)
            if value:
                return str(value)[:300]
    return text[:300]


class SourceHttp:
    """One source's requests, made politely; see the module docstring for the rules."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        profile: SourceProfile,
        *,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        timing: HttpTiming | None = None,
        error_detail: ErrorDetail = describe_error,
    ) -> None:
        self._client = client
        self.profile = profile
        self._retry = retry or RetryPolicy()
        self._cache = cache
        self._timing = timing or HttpTiming()
        self._error_detail = error_detail
        self._limiter = RateLimiter(profile.rate, self._timing)
        in_flight = profile.rate.max_in_flight
        self._slots = asyncio.Semaphore(in_flight) if in_flight else None

    async def get_json(
        self, url: str, params: Params | None = None, *, missing_ok: bool = False
    ) -> Any:
        response = await self.request("GET", url, params=params, missing_ok=missing_ok)
        return None if response is None else self._json(response)

    async def post_json(
        self, url: str, body: Any, params: Params | None = None, *, missing_ok: bool = False
    ) -> Any:
        response = await self.request(
            "POST", url, params=params, json_body=body, missing_ok=missing_ok
        )
        return None if response is None else self._json(response)

    @overload
    async def get_text(
        self, url: str, params: Params | None = None, *, missing_ok: Literal[False] = False
    ) -> str: ...
    @overload
    async def get_text(
        self, url: str, params: Params | None = None, *, missing_ok: bool
    ) -> str | None: ...
    async def get_text(
        self, url: str, params: Params | None = None, *, missing_ok: bool = False
    ) -> str | None:
        response = await self.request("GET", url, params=params, missing_ok=missing_ok)
        return None if response is None else response.text

    async def request(
        self,
        method: str,
        url: str,
        *,
        params: Params | None = None,
        json_body: Any = None,
        missing_ok: bool = False,
    ) -> httpx.Response | None:
        """The 2xx response; ``None`` for a 404 when ``missing_ok``; otherwise a typed error."""
        request = self._client.build_request(
            method,
            url,
            params={**self.profile.params, **(params or {})},
            json=json_body,
            headers=dict(self.profile.headers),
            timeout=self.profile.timeout_seconds,
        )
        cache, name, secret = self._cache, self.profile.name, self.profile.secret_params
        response = None
        if cache is not None:
            # Disk reads and writes go to a thread so the event loop keeps serving others.
            response = await asyncio.to_thread(cache.replay, name, request, secret)
        if response is None:
            response = await self._send(request)
            if cache is not None:
                await asyncio.to_thread(cache.record, name, request, response, secret)
        return self._conclude(request, response, missing_ok=missing_ok)

    async def _send(self, request: httpx.Request) -> httpx.Response:
        policy, label = self._retry, self.profile.label
        waited = 0.0
        for attempt in range(1, policy.max_attempts + 1):
            response, failure, asked = await self._attempt(request)
            if response is not None:
                return response
            if attempt == policy.max_attempts:
                break
            delay = asked if asked is not None else policy.backoff(attempt, self._timing.rng)
            if waited + delay > policy.max_total_wait:
                raise SourceUnavailable(
                    f"{label} is not answering {self._show(request)} ({failure}); waiting "
                    f"{delay:.0f} s more would pass the {policy.max_total_wait:.0f} s limit. "
                    "Try again later."
                )
            log.info("%s: %s on attempt %d, retrying in %.1f s", label, failure, attempt, delay)
            if asked is not None:
                # The source's wait applies to every request to it, not only to this one.
                self._limiter.hold(asked)
            await self._timing.sleep(delay)
            waited += delay
        raise SourceUnavailable(
            f"{label} is not answering {self._show(request)}: {failure} on each of "
            f"{policy.max_attempts} attempts. Try again later."
        )

    async def _attempt(
        self, request: httpx.Request
    ) -> tuple[httpx.Response | None, str, float | None]:
        """One try: the final response, or (None, what went wrong, the wait the source asked)."""
        await self._limiter.acquire()
        try:
            if self._slots is None:
                response = await self._client.send(request, follow_redirects=True)
            else:
                async with self._slots:
                    response = await self._client.send(request, follow_redirects=True)
        except RETRY_EXCEPTIONS as exc:
            return None, type(exc).__name__, None
        if response.status_code not in RETRY_STATUSES:
            return response, "", None
        failure = f"HTTP {response.status_code}"
        return (
            None,
            failure,
            parse_retry_after(response.headers.get("retry-after"), self._now(response)),
        )

    def _now(self, response: httpx.Response) -> datetime:
        # The server's own Date makes an HTTP-date Retry-After immune to our clock's skew.
        date = response.headers.get("date")
        if date:
            try:
                when = parsedate_to_datetime(date)
            except (TypeError, ValueError):
                pass
            else:
                return when if when.tzinfo else when.replace(tzinfo=UTC)
        return self._timing.wall_clock()

    def _conclude(
        self, request: httpx.Request, response: httpx.Response, *, missing_ok: bool
    ) -> httpx.Response | None:
        status = response.status_code
        if 200 <= status < 300:
            return response
        if status == 404 and missing_ok:
            return None
        label, shown = self.profile.label, self._show(request)
        detail = self._error_detail(response)
        if status == 404:
            raise NotFound(f"{label} has nothing at {shown}: {detail}")
        if status in (401, 403):
            setting = self.profile.credential_setting
            fix = (
                f"check the {setting} setting"
                if setting
                else f"{label} may be blocking this client; slow down and try again later"
            )
            raise SourceAuthError(f"{label} refused {shown} (HTTP {status}: {detail}); {fix}")
        if status in (400, 422):
            raise BadInput(f"{label} rejected {shown}: {detail}")
        raise SourceError(f"{label} answered HTTP {status} to {shown}: {detail}")

    def _json(self, response: httpx.Response) -> Any:
        try:
            return response.json()
        except ValueError:
            shown = self._show(response.request)
            raise SourceError(
                f"{self.profile.label} sent something other than JSON for {shown}"
            ) from None

    def _show(self, request: httpx.Request) -> str:
        url = request.url
        for name in self.profile.secret_params:
            url = url.copy_remove_param(name)
        return f"{request.method} {url}"
