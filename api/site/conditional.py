"""``ETag``, ``Last-Modified`` and ``304 Not Modified``, from the graph's last write.

Every page is a function of the graph, so the graph's state stands for every page's
version. :class:`GraphClock` reads the state (a statement with nothing in it, read for the
bookmark it leaves: bookmarks name the last committed transaction) when a page is asked for
and the state it knows is more than ``interval_s`` old — one read at a time, shared by the
requests that wait for it — and notes when the state last changed: that is a page's
``Last-Modified``, and the state with the page's address and representation is its
``ETag``. A request whose validators still match is answered ``304`` with no other
statement. A write shows in the validators within ``interval_s``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime

from neo4j.exceptions import DriverError
from starlette.datastructures import Headers

from scholargraph import __version__
from scholargraph.graph.db import Database
from scholargraph.graph.errors import DatabaseError
from scholargraph.graph.repo.site import graph_state

log = logging.getLogger(__name__)


class GraphClock:
    def __init__(self, interval_s: float = 1.0) -> None:
        self.interval_s = interval_s
        self.state: frozenset[str] | None = None
        self.changed_at: datetime | None = None
        self._read_at = 0.0
        self._reading: asyncio.Future[None] | None = None

    async def current(self, db: Database) -> None:
        """Bring the state up to date unless it was read less than ``interval_s`` ago; when
        the graph cannot be read, pages go out without validators."""
        if self.state is not None and time.monotonic() - self._read_at < self.interval_s:
            return
        if self._reading is None or self._reading.done():
            self._reading = asyncio.ensure_future(self.read(db))
        try:
            await asyncio.shield(self._reading)
        except (DatabaseError, DriverError, OSError) as error:
            self.state = None
            self.changed_at = None
            log.warning("graph state not read: %s", error)

    async def read(self, db: Database) -> None:
        """Read the graph's state now."""
        state = await graph_state(db)
        if state != self.state:
            self.state = state
            self.changed_at = datetime.now(UTC).replace(microsecond=0)
        self._read_at = time.monotonic()

    async def close(self) -> None:
        if self._reading is not None and not self._reading.done():
            self._reading.cancel()
            await asyncio.gather(self._reading, return_exceptions=True)

    def etag(self, *parts: str) -> str | None:
        """The weak entity tag of one response (compression does not change a weak tag)."""
        if self.state is None:
            return None
        digest = hashlib.blake2b(digest_size=12)
        for part in (__version__, *sorted(self.state), *parts):
            digest.update(part.encode())
            digest.update(b"\0")
        return f'W/"{digest.hexdigest()}"'

    @property
    def last_modified(self) -> str | None:
        return format_datetime(self.changed_at, usegmt=True) if self.changed_at else None


def not_modified(headers: Headers, etag: str, last_modified: datetime | None) -> bool:
    """Whether the request's validators match (``If-None-Match`` first, as RFC 9110 says)."""
    if_none_match = headers.get("if-none-match")
    if if_none_match is not None:
        tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
        return "*" in tags or etag.removeprefix("W/") in tags
    if_modified_since = headers.get("if-modified-since")
    if if_modified_since and last_modified is not None:
        try:
            since = parsedate_to_datetime(if_modified_since)
        except (TypeError, ValueError):
            return False
        if since.tzinfo is None:
            since = since.replace(tzinfo=UTC)
        return last_modified <= since
    return False
