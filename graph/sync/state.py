"""Where each set's harvest stands, as the graph holds it, and the lease one sync holds.

The lease is a node in the graph (``SyncLock``), not a file lock: the state it guards is in
the graph, and so are the syncs that contend for it, wherever they run (two cron hosts, a
container and a laptop pointed at one Aura database) — a file lock would only keep apart the
syncs of one machine. A lease rather than a lock because a sync killed with ``SIGKILL`` never
releases anything: the holder's lease runs out ``lease_s`` after its last renewal (every page
and every enrichment batch renews it), and then another sync may take it.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from scholargraph.graph.db import Database
from scholargraph.graph.errors import SyncBusy
from scholargraph.queries.sync import ACQUIRE_LOCK, RELEASE_LOCK, STATES

ALL_SETS = "*"  # the set_spec of a harvest of the whole archive (no ``set`` argument)
LOCK_NAME = "sync"
LEASE_S = 1800.0

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(when: datetime) -> str:
    """``2026-12-01T06:00:00Z``: how the state stores a time."""
    return when.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


@dataclass(frozen=True, slots=True)
class SetState:
    set_spec: str
    datestamp: date | None = None  # the ``from`` of the next harvest
    harvest_from: date | None = None  # the ``from`` of the harvest under way
    token: str | None = None  # the resumption token of its next page
    run_started: datetime | None = None
    run_ended: datetime | None = None
    last_harvest: datetime | None = None
    harvested: int = 0
    deleted: int = 0
    backlog: int = 0

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> SetState:
        return cls(
            set_spec=row["set_spec"],
            datestamp=_day(row["datestamp"]),
            harvest_from=_day(row["harvest_from"]),
            token=row["token"],
            run_started=_time(row["run_started"]),
            run_ended=_time(row["run_ended"]),
            last_harvest=_time(row["last_harvest"]),
            harvested=int(row["harvested"]),
            deleted=int(row["deleted"]),
            backlog=int(row["backlog"]),
        )

    @property
    def unfinished(self) -> bool:
        """A run started and has not ended: it runs now, or it was stopped half-way."""
        started, ended = self.run_started, self.run_ended
        return started is not None and (ended is None or ended < started)

    def as_json(self) -> dict[str, object]:
        return {
            "set": self.set_spec,
            "datestamp": self.datestamp.isoformat() if self.datestamp else None,
            "lastHarvest": iso(self.last_harvest) if self.last_harvest else None,
            "runStarted": iso(self.run_started) if self.run_started else None,
            "runEnded": iso(self.run_ended) if self.run_ended else None,
            "unfinished": self.unfinished,
            "harvested": self.harvested,
            "deleted": self.deleted,
            "backlog": self.backlog,
        }


@dataclass(frozen=True, slots=True)
class SyncOverview:
    """Every set's state: the latest harvest of any, and the papers waiting for enrichment."""

    sets: tuple[SetState, ...]

    @property
    def last_harvest(self) -> datetime | None:
        return max((s.last_harvest for s in self.sets if s.last_harvest), default=None)

    @property
    def backlog(self) -> int:
        return sum(s.backlog for s in self.sets)

    def as_json(self) -> dict[str, object]:
        last = self.last_harvest
        return {
            "lastHarvest": iso(last) if last else None,
            "backlog": self.backlog,
            "sets": [s.as_json() for s in self.sets],
        }


async def sync_overview(db: Database) -> SyncOverview:
    return SyncOverview(tuple(SetState.from_row(row) for row in await db.run(STATES)))


def holder_name() -> str:
    """Who holds the lease, for a person reading it: host, process, and a nonce."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Lease:
    """The graph's sync lease: :meth:`take` it, :meth:`take` it again to renew, then
    :meth:`release` it. Raises :class:`SyncBusy` while another holder's lease runs."""

    def __init__(
        self,
        db: Database,
        *,
        holder: str | None = None,
        lease_s: float = LEASE_S,
        clock: Clock = utc_now,
    ) -> None:
        self.db = db
        self.holder = holder or holder_name()
        self.lease_s = lease_s
        self.clock = clock

    async def take(self) -> None:
        now = self.clock().timestamp()
        [row] = await self.db.run(
            ACQUIRE_LOCK,
            {
                "name": LOCK_NAME,
                "holder": self.holder,
                "now": now,
                "expires": now + self.lease_s,
            },
        )
        if not row["acquired"]:
            until = datetime.fromtimestamp(float(row["expires"]), UTC)
            raise SyncBusy(
                f"another sync ({row['holder']}) holds the graph's sync lease until "
                f"{iso(until)}; this one did not run. It runs once that sync ends, or its "
                "lease runs out"
            )

    async def release(self) -> None:
        await self.db.run(RELEASE_LOCK, {"name": LOCK_NAME, "holder": self.holder})
