"""The coauthor graph in memory, for walking a researcher's network without a statement per hop.

A network read on the database costs a statement per hop and one more for the ties among
the outermost ring: hundreds of researchers each expanding all their ``COAUTHOR``
relationships, tens of milliseconds in Cypher. :class:`CoauthorProjection` holds every
``COAUTHOR`` tie (its joint papers and first and last joint years) and which researchers are
merged away, as compressed adjacency arrays (four ``int64`` arrays each way, about 64 bytes a
tie: some 100 MB for 1.6 million ties), and walks them as
:func:`graph.repo.network.coauthor_network` does on the database, with the same result.

A projection is a copy, so it is only used for the state of the graph it was read from. It
carries the bookmark of that state; a network walked on it reads its researchers' fields in
one statement, and the bookmark of that read says whether any write has landed since
(bookmarks name the last committed transaction). If one has, the network is read from the
database instead, and :class:`CoauthorIndex` builds a new projection once the graph has been
quiet for a while: a load in progress is not re-read over and over.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt
from neo4j.exceptions import DriverError

from scholargraph.graph.analysis.adjacency import both_ways
from scholargraph.graph.db import Database
from scholargraph.graph.errors import DatabaseError
from scholargraph.queries import read_network as q

if TYPE_CHECKING:
    from scholargraph.graph.repo.shared_projection import Manifest, SharedProjections

log = logging.getLogger(__name__)

IntArray = npt.NDArray[np.int64]

# Unknown joint years, stored so that a year window keeps no such tie (as in Cypher, where a
# comparison with null is not true): an unknown last year is before any ``year_from``, an
# unknown first year after any ``year_to``.
NO_FIRST_YEAR = int(np.iinfo(np.int32).max)
NO_LAST_YEAR = int(np.iinfo(np.int32).min)

Tie = tuple[int, int, int, int | None, int | None]


@dataclass(frozen=True, slots=True)
class Walk:
    """The researchers a network keeps, center first then hop by hop (strongest tie first,
    then by id), their hops, whether ``max_nodes`` left anyone out, and the kept ties among
    them as ``(a, b, joint_papers, first_year, last_year)`` with ``a < b``, sorted."""

    nodes: list[int]
    hops: list[int]
    truncated: bool
    ties: list[Tie]


@dataclass(frozen=True, slots=True)
class CoauthorProjection:
    """Every ``COAUTHOR`` tie both ways, grouped by researcher: the ties of the researcher at
    position ``i`` of ``ids`` are ``indptr[i]:indptr[i + 1]`` of ``neighbours`` (positions),
    ``joint``, ``first_year`` and ``last_year``."""

    ids: IntArray
    indptr: IntArray
    neighbours: IntArray
    joint: IntArray
    first_year: IntArray
    last_year: IntArray
    merged: npt.NDArray[np.bool_]
    bookmark: frozenset[str]

    @classmethod
    def of_ties(
        cls,
        a: IntArray,
        b: IntArray,
        joint: IntArray,
        first_year: IntArray,
        last_year: IntArray,
        merged_ids: IntArray,
        bookmark: frozenset[str],
    ) -> CoauthorProjection:
        """The projection of the relationships ``a[k] - b[k]`` (each tie once)."""
        ids = np.unique(np.concatenate([a, b, merged_ids]))
        indptr, neighbours, tie = both_ways(
            len(ids), np.searchsorted(ids, a), np.searchsorted(ids, b)
        )
        merged = np.zeros(len(ids), dtype=np.bool_)
        merged[np.searchsorted(ids, merged_ids)] = True
        return cls(
            ids=ids,
            indptr=indptr,
            neighbours=neighbours,
            joint=joint[tie],
            first_year=first_year[tie],
            last_year=last_year[tie],
            merged=merged,
            bookmark=bookmark,
        )

    @property
    def tie_count(self) -> int:
        return len(self.neighbours) // 2

    def walk(
        self,
        center: int,
        *,
        depth: int,
        max_nodes: int,
        min_joint_papers: int,
        year_from: int | None,
        year_to: int | None,
    ) -> Walk:
        """The walk of :func:`graph.repo.network.coauthor_network` (and
        :func:`graph.analysis.build.ego`): hop by hop, the researchers not yet kept and not
        merged away, tied to the last hop by a kept tie, ranked by their strongest such tie
        (then by id) and cut when ``max_nodes`` are kept; then every kept tie among them."""
        start = self._position(center)
        if start is None:
            return Walk([center], [0], False, [])
        kept = np.zeros(len(self.ids), dtype=np.bool_)
        kept[start] = True
        order: list[IntArray] = [np.array([start], dtype=np.int64)]
        hops = [0]
        frontier = order[0]
        truncated = False
        count = 1
        for hop in range(1, depth + 1):
            span = _spans(self.indptr[frontier], self.indptr[frontier + 1])
            ends = self.neighbours[span]
            fit = self._kept_ties(span, min_joint_papers, year_from, year_to)
            fit &= ~self.merged[ends] & ~kept[ends]
            ends, strength = ends[fit], self.joint[span][fit]
            # each candidate's strongest tie: sorted by candidate then strength (descending)
            by_end = np.lexsort((-strength, ends))
            candidates, first = np.unique(ends[by_end], return_index=True)
            strongest = strength[by_end][first]
            ranked = candidates[np.lexsort((self.ids[candidates], -strongest))]
            room = max_nodes - count
            truncated = truncated or len(ranked) > room
            frontier = ranked[:room]
            if len(frontier) == 0:
                break
            kept[frontier] = True
            order.append(frontier)
            hops.extend([hop] * len(frontier))
            count += len(frontier)
            if count >= max_nodes:
                break
        members = np.concatenate(order)
        return Walk(
            nodes=self.ids[members].tolist(),
            hops=hops,
            truncated=truncated,
            ties=self._ties_among(members, kept, min_joint_papers, year_from, year_to),
        )

    def _position(self, researcher: int) -> int | None:
        at = int(np.searchsorted(self.ids, researcher))
        return at if at < len(self.ids) and int(self.ids[at]) == researcher else None

    def _kept_ties(
        self, span: IntArray, min_joint: int, year_from: int | None, year_to: int | None
    ) -> npt.NDArray[np.bool_]:
        fit: npt.NDArray[np.bool_] = self.joint[span] >= min_joint
        if year_from is not None:
            fit &= self.last_year[span] >= year_from
        if year_to is not None:
            fit &= self.first_year[span] <= year_to
        return fit

    def _ties_among(
        self,
        members: IntArray,
        kept: npt.NDArray[np.bool_],
        min_joint: int,
        year_from: int | None,
        year_to: int | None,
    ) -> list[Tie]:
        starts, stops = self.indptr[members], self.indptr[members + 1]
        span = _spans(starts, stops)
        a = np.repeat(self.ids[members], stops - starts)
        b = self.ids[self.neighbours[span]]
        fit = kept[self.neighbours[span]] & (a < b)
        fit &= self._kept_ties(span, min_joint, year_from, year_to)
        a, b, span = a[fit], b[fit], span[fit]
        order = np.lexsort((b, a))
        first = self.first_year[span][order]
        last = self.last_year[span][order]
        return list(
            zip(
                a[order].tolist(),
                b[order].tolist(),
                self.joint[span][order].tolist(),
                [None if y == NO_FIRST_YEAR else y for y in first.tolist()],
                [None if y == NO_LAST_YEAR else y for y in last.tolist()],
                strict=True,
            )
        )


def _spans(starts: IntArray, stops: IntArray) -> IntArray:
    """The positions ``starts[k]:stops[k]`` for every k, one after the other."""
    lengths = stops - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return offsets + np.arange(total, dtype=np.int64)


async def read_projection(db: Database, *, slice_size: int = 20_000) -> CoauthorProjection | None:
    """The projection of the graph as it is now, read in slices of researchers; ``None`` when
    a write landed while it was being read (the slices then saw different graphs)."""
    merged_rows, bookmark = await db.run_seen(q.PROJECTION_MERGED)
    merged_ids = np.array(merged_rows[0]["rows"] if merged_rows else [], dtype=np.int64)
    columns: dict[str, list[IntArray]] = {k: [] for k in ("a", "b", "joint", "first", "last")}
    after = -(2**63)
    while True:
        rows, seen = await db.run_seen(
            q.PROJECTION_TIES,
            {
                "after": after,
                "limit": slice_size,
                "no_first": NO_FIRST_YEAR,
                "no_last": NO_LAST_YEAR,
            },
        )
        if seen != bookmark:
            return None
        row = rows[0]
        for key, values in columns.items():
            values.append(np.array(row[key], dtype=np.int64))
        if row["count"] < slice_size:
            break
        after = row["last_id"]
    ties = {k: np.concatenate(v) for k, v in columns.items()}
    return await asyncio.to_thread(
        CoauthorProjection.of_ties,
        ties["a"],
        ties["b"],
        ties["joint"],
        ties["first"],
        ties["last"],
        merged_ids,
        bookmark,
    )


State = Literal["off", "building", "ready"]


class CoauthorIndex:
    """Keeps a projection of the graph current, for a server's network reads.

    :meth:`start` reads the first one in the background (until then, and whenever the graph
    has changed since, networks are read from the database). :meth:`changed` is told when a
    read saw a newer graph: the projection is dropped, and a new one is read once the graph
    has stayed the same for ``quiet_s`` seconds.

    With a ``shared`` store (:mod:`graph.repo.shared_projection`, one for all the workers of a
    server) the projection is read by one worker at a time, under the store's lock, and
    published there; every worker maps the current version, and follows the manifest (every
    ``follow_s`` seconds) to pick up a version another worker built.
    """

    def __init__(
        self,
        db: Database,
        *,
        quiet_s: float = 5.0,
        slice_size: int = 20_000,
        shared: SharedProjections | None = None,
        follow_s: float = 0.5,
    ) -> None:
        self.db = db
        self.quiet_s = quiet_s
        self.slice_size = slice_size
        self.shared = shared
        self.follow_s = follow_s
        self.projection: CoauthorProjection | None = None
        # how many projections were read, and when the last one was (seconds since the epoch)
        self.reads = 0
        self.read_at: float | None = None
        # the shared version this process maps (None: none, or not shared)
        self.mapped: Manifest | None = None
        # the shared version mapped when a read found the projection stale
        self._dropped = 0
        self._task: asyncio.Task[None] | None = None
        self._follower: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    @property
    def state(self) -> State:
        if self.projection is not None:
            return "ready"
        if self._task is not None and not self._task.done():
            return "building"
        return "off"

    def report(self) -> dict[str, object]:
        """What ``/readyz`` shows: this worker's state, the version it maps, and (shared) the
        store's current version with the worker that built it."""
        projection = self.projection
        report: dict[str, object] = {
            "state": self.state,
            "worker": os.getpid(),
            "ties": projection.tie_count if projection is not None else None,
            "readsByThisWorker": self.reads,
            "shared": self.shared is not None,
        }
        if self.shared is not None:
            current = self.shared.current()
            report["mappedVersion"] = self.mapped.version if self.mapped else None
            report["current"] = current.as_json() if current is not None else None
            report["versionsStored"] = len(self.shared.versions())
        return report

    def start(self) -> None:
        self._build(wait=False)
        if self.shared is not None and self._follower is None:
            self._follower = asyncio.create_task(self._follow())

    def changed(self, projection: CoauthorProjection) -> None:
        """A read saw a graph newer than ``projection``."""
        if self.projection is projection:
            self._dropped = self.mapped.version if self.mapped is not None else 0
            self.projection = None
            self._ready.clear()
            self._build(wait=True)

    async def wait_ready(self, timeout_s: float) -> bool:
        """Whether a projection is ready within ``timeout_s`` seconds."""
        try:
            await asyncio.wait_for(self._ready.wait(), timeout_s)
        except TimeoutError:
            return False
        return self.projection is not None

    async def close(self) -> None:
        tasks = [t for t in (self._task, self._follower) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _build(self, *, wait: bool) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._keep_reading(wait))

    async def _keep_reading(self, wait: bool) -> None:
        while True:
            try:
                if wait:
                    await self._until_quiet()
                if self.shared is None:
                    projection = await read_projection(self.db, slice_size=self.slice_size)
                else:
                    projection = await self._read_shared()
            except (DatabaseError, DriverError, OSError) as error:
                # networks are read from the database meanwhile; try again in a while
                log.warning("coauthor projection not read: %s", error)
                await asyncio.sleep(max(self.quiet_s, 1.0))
                projection = None
            if projection is not None:
                if self.shared is None:
                    self.reads += 1
                    self.read_at = time.time()
                    self._hold(projection)
                log.info("coauthor projection ready: %d ties", projection.tie_count)
                return
            wait = True

    def _hold(self, projection: CoauthorProjection) -> None:
        self.projection = projection
        self._ready.set()

    async def _read_shared(self) -> CoauthorProjection | None:
        """The newest shared version if it is newer than what this process dropped (another
        worker rebuilt it); else, under the lock, one read from the graph and published.
        ``None`` when another worker holds the lock (its version is picked up by
        :meth:`_follow`) or the graph changed during the read."""
        assert self.shared is not None
        while True:
            with self.shared.building() as mine:
                if mine:
                    newest = self._newer_shared()
                    if newest is not None:
                        return newest
                    if self._mapped_since_dropped():
                        return self.projection
                    projection = await read_projection(self.db, slice_size=self.slice_size)
                    if projection is None:
                        return None
                    manifest = await asyncio.to_thread(self.shared.publish, projection)
                    self.reads += 1
                    self.read_at = manifest.built_at
                    log.info("coauthor projection published: version %d", manifest.version)
                    return self._map(manifest)
            await asyncio.sleep(self.follow_s)
            if self.projection is not None:
                return self.projection

    def _mapped_since_dropped(self) -> bool:
        """Whether the follower mapped a version newer than the stale one dropped (another
        worker rebuilt it meanwhile): then it is the one to hold, not another read."""
        return (
            self.projection is not None
            and self.mapped is not None
            and self.mapped.version > self._dropped
        )

    def _newer_shared(self) -> CoauthorProjection | None:
        assert self.shared is not None
        manifest = self.shared.current()
        if manifest is None or (
            self.mapped is not None and manifest.version <= self.mapped.version
        ):
            return None
        return self._map(manifest)

    def _map(self, manifest: Manifest) -> CoauthorProjection:
        assert self.shared is not None
        projection = self.shared.map(manifest)
        self.mapped = manifest
        self._hold(projection)
        return projection

    async def _follow(self) -> None:
        """Map each version another worker publishes."""
        while True:
            await asyncio.sleep(self.follow_s)
            try:
                self._newer_shared()
            except (OSError, ValueError, KeyError) as error:
                # replaced or half-removed meanwhile: the next look finds the newer one
                log.debug("shared coauthor projection not mapped: %s", error)

    async def _until_quiet(self) -> None:
        _, before = await self.db.run_seen(q.PROJECTION_STATE)
        while True:
            await asyncio.sleep(self.quiet_s)
            _, now = await self.db.run_seen(q.PROJECTION_STATE)
            if now == before:
                return
            before = now
