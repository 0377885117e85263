"""The fake clock the HTTP tests share: time moves only when someone sleeps."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from scholargraph.graph.loaders.http import HttpTiming

NOON = datetime(2026, 3, 2, 12, 0, 0, tzinfo=UTC)


class FakeTime:
    """A clock that only moves when someone sleeps; every sleep is recorded."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def timing(self, rng: random.Random | None = None) -> HttpTiming:
        return HttpTiming(
            sleep=self.sleep,
            clock=self.clock,
            wall_clock=lambda: NOON,
            rng=rng or random.Random(7),
        )
