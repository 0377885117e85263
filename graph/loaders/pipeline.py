"""A load: batches of records from any source flow through the writer, with a report of what
was set aside and a checkpoint so an interrupted load resumes where it stopped.

A checkpoint is bound to the store it was taken on (its store id and database name, which a
new or recreated store never shares) and to the input it read: resumed anywhere else it
would skip chunks that store never received, so there it is dropped and the load starts over,
with a warning that says why.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.claims import write_claims
from scholargraph.graph.loaders.converge import converge_pass, holder_blocks
from scholargraph.graph.loaders.profiles import (
    profile_blocks,
    profile_holders,
    write_affiliations,
    write_authors,
    write_institutions,
)
from scholargraph.graph.loaders.rematch import rematch
from scholargraph.graph.loaders.writer import GraphWriter, WriteSummary
from scholargraph.graph.records import Batch, Rejection
from scholargraph.graph.semantic.store import TopicsDue
from scholargraph.queries.loads import STORE_IDENTITY

PAPERS_PER_TRANSACTION = 500


@dataclass(slots=True)
class LoadSummary:
    papers: WriteSummary = field(default_factory=WriteSummary)
    authors_created: int = 0
    authors_updated: int = 0
    institutions: int = 0
    affiliations: int = 0
    claims_merged: int = 0
    slots_moved: int = 0  # name-only slots regrouped after the load (graph.identity.converge)
    topics_refreshed: int = 0  # researchers whose topic vector was computed again
    strings_rematched: int = 0  # slot strings linked by the pass after institutions loaded
    rejected: int = 0
    records: int = 0
    seconds: float = 0.0
    resumed_from: int = 0
    started_over: str = ""  # why a checkpoint found was not resumed
    skipped_files: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def add(self, other: LoadSummary) -> None:
        """Count ``other``'s load in this one (``sync``: a run's loads as one)."""
        self.papers.add(other.papers)
        for name in (
            "authors_created",
            "authors_updated",
            "institutions",
            "affiliations",
            "claims_merged",
            "slots_moved",
            "topics_refreshed",
            "strings_rematched",
            "rejected",
            "records",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds


Progress = Callable[[int, LoadSummary], None]
Warn = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class StoreIdentity:
    """The database a load writes to: the store's id, the database name, the server."""

    store_id: str
    database: str
    address: str

    def same_store(self, other: StoreIdentity) -> bool:
        # The address is not compared: one store is reached by many (localhost, a cluster).
        return (self.store_id, self.database) == (other.store_id, other.database)

    def __str__(self) -> str:
        return f"database {self.database!r} (store {self.store_id}) at {self.address}"


async def store_identity(db: Database) -> StoreIdentity:
    [row] = await db.run(STORE_IDENTITY)
    address = db.uri or str((await db.driver.get_server_info()).address)
    return StoreIdentity(str(row["id"]), str(row["name"]), address)


class Checkpoint:
    """The chunks a load has finished, by a stable name, with the store and the input they
    were finished against; written after every chunk."""

    def __init__(self, path: Path | None, *, input: str = "") -> None:
        self.path = path
        self.input = input
        self.store: StoreIdentity | None = None
        self.done: set[str] = set()
        self._saved: dict[str, Any] | None = None
        if path is not None and path.is_file():
            try:
                self._saved = json.loads(path.read_text())
                self.done = set(self._saved["done"])
            except (ValueError, KeyError, TypeError):
                self._saved = {}

    def __contains__(self, name: str) -> bool:
        return name in self.done

    def bind(self, store: StoreIdentity) -> str:
        """Bind to the store about to be written. A checkpoint taken elsewhere is dropped:
        the answer is why ("" when it is kept, or there was none)."""
        self.store = store
        reason = self._mismatch(store) if self._saved is not None else ""
        if reason:
            self.done.clear()
        return reason

    def _mismatch(self, store: StoreIdentity) -> str:
        saved = self._saved or {}
        name = self.path.name if self.path else "the checkpoint"
        try:
            taken = StoreIdentity(**saved["store"])
        except (KeyError, TypeError):
            return f"{name} does not say which store it was taken on"
        if not taken.same_store(store):
            return f"{name} was taken on {taken}, not on {store}"
        if saved.get("input") != self.input:
            return f"the input changed since {name} was taken"
        return ""

    def mark(self, name: str) -> None:
        self.done.add(name)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            state = {
                "store": asdict(self.store) if self.store else None,
                "input": self.input,
                "done": sorted(self.done),
            }
            tmp.write_text(json.dumps(state))
            tmp.replace(self.path)

    def clear(self) -> None:
        self.done.clear()
        if self.path is not None:
            self.path.unlink(missing_ok=True)


class RejectionReport:
    """Rejected records as JSON lines: source, ref, reason and the raw text when known."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.count = 0

    def start(self, *, append: bool) -> None:
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not append:
                self.path.write_text("")

    def add(self, rejections: Iterable[Rejection]) -> None:
        lines = [json.dumps(asdict(r), ensure_ascii=False) for r in rejections]
        self.count += len(lines)
        if self.path is not None and lines:
            # A raw excerpt may hold what UTF-8 cannot spell (a lone surrogate): escaped.
            with self.path.open("a", encoding="utf-8", errors="backslashreplace") as out:
                out.write("\n".join(lines) + "\n")


class Loader:
    def __init__(
        self,
        db: Database,
        *,
        coauthor_cap: int = 100,
        report: Path | None = None,
        checkpoint: Path | None = None,
        input: str = "",
        papers_per_transaction: int = PAPERS_PER_TRANSACTION,
        progress: Progress | None = None,
        warn: Warn | None = None,
        embed: bool = True,
        topics: TopicsDue | None = None,
    ) -> None:
        """``input`` names what the load reads (its files and their state, or its query): a
        checkpoint of another input is not resumed. ``warn`` hears why one is dropped.
        ``topics``: the researchers' topics this load makes stale are added to it, for its
        owner to compute once after several loads; without it the load computes them at its
        end."""
        self.db = db
        self.topics = topics
        self.writer = GraphWriter(db, coauthor_cap=coauthor_cap, embed=embed)
        self.checkpoint = Checkpoint(checkpoint, input=input)
        self.report = RejectionReport(report)
        self.papers_per_transaction = papers_per_transaction
        self.progress = progress
        self.warn = warn

    async def run(
        self, chunks: AsyncIterator[tuple[str, Batch]], *, resumed: bool = False
    ) -> LoadSummary:
        """Write every chunk not already done; ``chunks`` yields (stable name, batch).
        ``resumed``: the load goes on from one that stopped half-way without a checkpoint
        of this loader's (``sync`` keeps its own in the graph)."""
        summary = LoadSummary()
        if self.checkpoint.path is not None:
            summary.started_over = self.checkpoint.bind(await store_identity(self.db))
            if summary.started_over and self.warn is not None:
                self.warn(f"{summary.started_over}: starting the load over")
        summary.resumed_from = len(self.checkpoint.done)
        self.report.start(append=bool(self.checkpoint.done))
        began = time.monotonic()
        async for name, batch in chunks:
            if name in self.checkpoint:
                continue
            await self.write(batch, summary)
            self.checkpoint.mark(name)
            summary.seconds = time.monotonic() - began
            if self.progress is not None:
                self.progress(len(batch) + len(batch.rejected), summary)
        # A resumed load did not see what the interrupted one wrote: every block is decided.
        touched = (
            None
            if summary.resumed_from or resumed
            else self.writer.touched | await holder_blocks(self.db, self.writer.holders)
        )
        decided = await converge_pass(self.db, touched)
        summary.slots_moved = decided.moved
        # The blocks the pass joined to the touched ones may have had slots moved too.
        touched = None if touched is None else touched | decided.blocks
        summary.topics_refreshed = await self._refresh_topics(touched)
        if summary.institutions or summary.slots_moved:
            # Institutions arrived: the strings of papers loaded before them can link now;
            # slots moved: their strings' edges go with them.
            blocks = None if summary.institutions else touched
            summary.strings_rematched = await rematch(self.db, self.writer.linker, blocks=blocks)
        summary.seconds = time.monotonic() - began
        self.checkpoint.clear()
        return summary

    async def _refresh_topics(self, touched: set[str] | None) -> int:
        if not self.writer.embed:
            return 0
        if self.topics is not None:
            self.topics.add(self.writer.written, touched)
            return 0
        due = TopicsDue()
        due.add(self.writer.written, touched)
        return await due.refresh(self.db)

    async def write(self, batch: Batch, summary: LoadSummary) -> None:
        summary.records += len(batch) + len(batch.rejected)
        if batch.institutions:
            summary.institutions += await write_institutions(self.db, batch.institutions)
            self.writer.linker.stale()
        step = self.papers_per_transaction
        for start in range(0, len(batch.papers), step):
            summary.papers.add(await self.writer.write_papers(batch.papers[start : start + step]))
        if batch.authors:
            created, updated = await write_authors(self.db, batch.authors)
            self.writer.touched |= profile_blocks(batch.authors)
            self.writer.holders |= await profile_holders(self.db, batch.authors)
            summary.authors_created += created
            summary.authors_updated += updated
        if batch.claims:
            summary.claims_merged += await write_claims(self.db, batch.claims)
        if batch.affiliations:
            written, rejected = await write_affiliations(self.db, batch.affiliations)
            summary.affiliations += written
            self.report.add(rejected)
        self.report.add(batch.rejected)
        summary.rejected = self.report.count
