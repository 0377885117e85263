"""One statement per nesting level of a request: the reads asked for together run together.

A GraphQL request resolves a level at a time; at each level its DataLoaders each send one
batched query (the profiles of these researchers, their first pages of papers, …), all within
a few turns of the event loop. :class:`StatementBatch` holds the reads queued on one
request's database until the loop has gone :data:`QUIET_TURNS` turns without a new one, then
sends them as one statement (:func:`queries._compose.compose`): one round trip and one
transaction instead of one per query. A lone query runs as itself.

Which reads share a statement depends only on when they were asked for, never on how fast the
database answers: a level's loads are all queued before the loop falls quiet, so the same
request makes the same statements every time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from scholargraph.queries import Query
from scholargraph.queries._compose import composable, compose, split

Row = dict[str, Any]
Answer = tuple[list[Row], frozenset[str]]
RunNow = Callable[[Query, dict[str, Any], float | None], Awaitable[Answer]]

# Turns of the event loop without a new read before the queued ones are sent: a DataLoader
# dispatches a turn after its first load, and its batch function's own tasks start a turn
# later still.
QUIET_TURNS = 3
# However busy the loop, a read waits at most this many turns.
MOST_TURNS = 64
# The most queries one statement runs; a larger level is sent in several.
MOST_PARTS = 24


@dataclass
class _Queued:
    query: Query
    params: dict[str, Any]
    timeout_s: float | None
    answer: asyncio.Future[Answer] = field(repr=False)


class StatementBatch:
    """The reads of one request, sent a level at a time (see the module's text)."""

    def __init__(self, run_now: RunNow) -> None:
        self._run_now = run_now
        self._queued: list[_Queued] = []
        self._turns = 0
        self._quiet = 0
        self._seen = 0
        self._ticking = False
        self._sending: set[asyncio.Task[None]] = set()

    def wants(self, query: Query) -> bool:
        return composable(query)

    async def run(self, query: Query, params: dict[str, Any], timeout_s: float | None) -> Answer:
        loop = asyncio.get_running_loop()
        queued = _Queued(query, params, timeout_s, loop.create_future())
        self._queued.append(queued)
        if not self._ticking:
            self._ticking = True
            self._turns = self._quiet = self._seen = 0
            loop.call_soon(self._tick)
        return await queued.answer

    def _tick(self) -> None:
        self._turns += 1
        if len(self._queued) == self._seen:
            self._quiet += 1
        else:
            self._seen = len(self._queued)
            self._quiet = 0
        if self._quiet < QUIET_TURNS and self._turns < MOST_TURNS:
            asyncio.get_running_loop().call_soon(self._tick)
            return
        self._ticking = False
        queued, self._queued = self._queued, []
        for start in range(0, len(queued), MOST_PARTS):
            task = asyncio.ensure_future(self._send(queued[start : start + MOST_PARTS]))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, queued: list[_Queued]) -> None:
        try:
            if len(queued) == 1:
                one = queued[0]
                answers = [await self._run_now(one.query, one.params, one.timeout_s)]
            else:
                answers = await self._send_composed(queued)
        except BaseException as error:  # every waiting read hears of it
            for item in queued:
                if not item.answer.done():
                    item.answer.set_exception(error)
            if not isinstance(error, Exception):
                raise
            return
        for item, answer in zip(queued, answers, strict=True):
            if not item.answer.done():
                item.answer.set_result(answer)

    async def _send_composed(self, queued: list[_Queued]) -> list[Answer]:
        # a stable order, so the same level makes the same text (and the server's cached plan)
        order = sorted(range(len(queued)), key=lambda n: queued[n].query.name)
        parts = [(queued[n].query, queued[n].params) for n in order]
        statement, params = compose(parts)
        timeouts = [item.timeout_s for item in queued if item.timeout_s is not None]
        rows, seen = await self._run_now(statement, params, max(timeouts, default=None))
        answers = split([query for query, _ in parts], rows[0]) if rows else [[]] * len(parts)
        found: list[Answer] = [([], seen)] * len(queued)
        for position, n in enumerate(order):
            found[n] = (answers[position], seen)
        return found
