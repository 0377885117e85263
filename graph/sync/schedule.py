"""A sync holding the lease, and syncs at an interval until told to stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from scholargraph.graph.db import Database
from scholargraph.graph.errors import DatabaseError, ScholargraphError
from scholargraph.graph.loaders.live import SourceClients
from scholargraph.graph.sync.run import Sync, SyncOptions, SyncReport
from scholargraph.graph.sync.state import LEASE_S, Clock, Lease, utc_now

log = logging.getLogger(__name__)

T = TypeVar("T")
Wait = Callable[[float, asyncio.Event], Awaitable[None]]


async def sync_once(
    db: Database,
    clients: SourceClients,
    options: SyncOptions | None = None,
    *,
    clock: Clock = utc_now,
    stop: asyncio.Event | None = None,
    holder: str | None = None,
    lease_s: float = LEASE_S,
) -> SyncReport:
    """One sync under the graph's lease; :class:`~graph.errors.SyncBusy` while another
    sync holds it."""
    lease = Lease(db, holder=holder, lease_s=lease_s, clock=clock)
    await lease.take()
    try:
        return await Sync(db, clients, lease, options, clock=clock, stop=stop).run()
    finally:
        try:
            await lease.release()
        except DatabaseError as error:  # the lease runs out by itself
            log.warning("the sync lease was not released: %s", error)


async def wait_or_stop(seconds: float, stop: asyncio.Event) -> None:
    """Sleep ``seconds``, or less if ``stop`` is set meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


async def every(
    seconds: float,
    run: Callable[[], Awaitable[T]],
    *,
    stop: asyncio.Event,
    wait: Wait = wait_or_stop,
    on_result: Callable[[T], None] | None = None,
    on_error: Callable[[ScholargraphError], None] | None = None,
) -> int:
    """``run`` now and then every ``seconds`` (from the end of one run to the start of the
    next) until ``stop`` is set; the number of runs. A run that fails with an error of
    ours (a source down, Neo4j away, another sync holding the lease) is reported to
    ``on_error`` and the next one runs on time; any other error ends the loop."""
    runs = 0
    while not stop.is_set():
        try:
            result = await run()
        except ScholargraphError as error:
            if on_error is None:
                raise
            on_error(error)
        else:
            if on_result is not None:
                on_result(result)
        runs += 1
        if stop.is_set():
            break
        await wait(seconds, stop)
    return runs
