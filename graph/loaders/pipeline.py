"""A load: batches of records from any source flow through the writer, with a report of what
was set aside and a checkpoint so an interrupted load resumes where it stopped."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.claims import write_claims
from scholargraph.graph.loaders.profiles import (
    write_affiliations,
    write_authors,
    write_institutions,
)
from scholargraph.graph.loaders.writer import GraphWriter, WriteSummary
from scholargraph.graph.records import Batch, Rejection

PAPERS_PER_TRANSACTION = 500


@dataclass(slots=True)
class LoadSummary:
    papers: WriteSummary = field(default_factory=WriteSummary)
    authors_created: int = 0
    authors_updated: int = 0
    institutions: int = 0
    affiliations: int = 0
    claims_merged: int = 0
    rejected: int = 0
    records: int = 0
    seconds: float = 0.0
    resumed_from: int = 0

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


Progress = Callable[[int, LoadSummary], None]


class Checkpoint:
    """The chunks a load has finished, by a stable name; written after every chunk."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.done: set[str] = set()
        if path is not None and path.is_file():
            self.done = set(json.loads(path.read_text())["done"])

    def __contains__(self, name: str) -> bool:
        return name in self.done

    def mark(self, name: str) -> None:
        self.done.add(name)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"done": sorted(self.done)}))
            tmp.replace(self.path)

    def clear(self) -> None:
        self.done.clear()
        if self.path is not None:
            self.path.unlink(missing_ok=True)


class RejectionReport:
    """Rejected records as JSON lines: source, ref, reason and the raw text when known."""

    def __init__(self, path: Path | None, *, append: bool) -> None:
        self.path = path
        self.count = 0
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not append:
                path.write_text("")

    def add(self, rejections: Iterable[Rejection]) -> None:
        lines = [json.dumps(asdict(r), ensure_ascii=False) for r in rejections]
        self.count += len(lines)
        if self.path is not None and lines:
            with self.path.open("a", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")


class Loader:
    def __init__(
        self,
        db: Database,
        *,
        coauthor_cap: int = 100,
        report: Path | None = None,
        checkpoint: Path | None = None,
        papers_per_transaction: int = PAPERS_PER_TRANSACTION,
        progress: Progress | None = None,
    ) -> None:
        self.db = db
        self.writer = GraphWriter(db, coauthor_cap=coauthor_cap)
        self.checkpoint = Checkpoint(checkpoint)
        self.report = RejectionReport(report, append=bool(self.checkpoint.done))
        self.papers_per_transaction = papers_per_transaction
        self.progress = progress

    async def run(self, chunks: AsyncIterator[tuple[str, Batch]]) -> LoadSummary:
        """Write every chunk not already done; ``chunks`` yields (stable name, batch)."""
        summary = LoadSummary(resumed_from=len(self.checkpoint.done))
        began = time.monotonic()
        async for name, batch in chunks:
            if name in self.checkpoint:
                continue
            await self.write(batch, summary)
            self.checkpoint.mark(name)
            summary.seconds = time.monotonic() - began
            if self.progress is not None:
                self.progress(len(batch) + len(batch.rejected), summary)
        summary.seconds = time.monotonic() - began
        self.checkpoint.clear()
        return summary

    async def write(self, batch: Batch, summary: LoadSummary) -> None:
        summary.records += len(batch) + len(batch.rejected)
        if batch.institutions:
            summary.institutions += await write_institutions(self.db, batch.institutions)
        step = self.papers_per_transaction
        for start in range(0, len(batch.papers), step):
            summary.papers.add(await self.writer.write_papers(batch.papers[start : start + step]))
        if batch.authors:
            created, updated = await write_authors(self.db, batch.authors)
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
