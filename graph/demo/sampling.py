"""Weighted draws from fixed tables, without rebuilding cumulative weights on every draw."""

from __future__ import annotations

from bisect import bisect
from collections.abc import Iterable
from itertools import accumulate
from random import Random
from typing import Generic, TypeVar

T = TypeVar("T")


class Table(Generic[T]):
    __slots__ = ("_cumulative", "_total", "items")

    def __init__(self, pairs: Iterable[tuple[T, float]]) -> None:
        listed = list(pairs)
        self.items = tuple(item for item, _ in listed)
        self._cumulative = list(accumulate(weight for _, weight in listed))
        self._total = self._cumulative[-1]

    def pick(self, rng: Random) -> T:
        return self.items[bisect(self._cumulative, rng.random() * self._total)]

    def picks(self, rng: Random, count: int) -> list[T]:
        return [self.pick(rng) for _ in range(count)]
