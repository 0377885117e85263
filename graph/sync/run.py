"""One sync: harvest each set from where it stopped, then enrich the backlog newest first.

A set's harvest asks ``ListRecords`` from the set's ``datestamp`` (arXiv's datestamps are
days: the last day harvested is harvested again, which changes nothing), or goes on from
the resumption token of the harvest a crash or a stop cut short. Each page is written, then
one transaction commits what the page moves: its papers join the backlog, its deleted
records mark their papers withdrawn, and the set's token and datestamp move past it. A crash
between the two harvests the page again. A token arXiv no longer knows (they expire) starts
that harvest again from the ``from`` it began with.

Enrichment then takes the backlog a batch at a time, newest first (by the latest version's
date), asks Semantic Scholar (``POST /paper/batch`` and the authors it brings) and OpenAlex
(works by the arXiv DataCite DOI) about it, writes what they answer, and only then takes the
batch off the backlog.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path

from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadResumptionToken
from scholargraph.graph.identity.precedence import deletion_rank
from scholargraph.graph.ids import is_arxiv_id
from scholargraph.graph.loaders.clients.arxiv import MetadataPrefix
from scholargraph.graph.loaders.live import SourceClients, openalex_chunks, s2_chunks
from scholargraph.graph.loaders.parse import parse_oai_page
from scholargraph.graph.loaders.parse.arxiv_oai import OaiPage
from scholargraph.graph.loaders.pipeline import Loader, LoadSummary, RejectionReport
from scholargraph.graph.records import Batch
from scholargraph.graph.sync.state import (
    ALL_SETS,
    Clock,
    Lease,
    SetState,
    iso,
    sync_overview,
    utc_now,
)
from scholargraph.queries.sync import (
    BACKLOG_DONE,
    BACKLOG_NEXT,
    BEGIN_RUN,
    END_RUN,
    HARVEST_ENDED,
    PAGE_DONE,
    BacklogRow,
    DeletedRow,
)

log = logging.getLogger(__name__)

ENRICH_BATCH = 100
Chunk = tuple[str, Batch]


@dataclass(frozen=True, slots=True)
class SyncOptions:
    sets: tuple[str, ...] = (ALL_SETS,)
    # where a set's first harvest starts (None: its whole history); later ones go on from
    # the set's own datestamp
    first_from: date | None = None
    prefix: MetadataPrefix = "arXiv"
    enrich_batch: int = ENRICH_BATCH
    coauthor_cap: int = 100
    embed: bool = True
    report: Path | None = None  # rejected records of the whole run (JSON lines)


@dataclass(slots=True)
class SetReport:
    set_spec: str
    asked_from: str | None = None  # the ``from`` of the harvest (None: the whole history)
    resumed: bool = False  # went on from a resumption token
    restarted: bool = False  # that token had expired: asked again from ``asked_from``
    pages: int = 0
    papers: int = 0
    deleted: int = 0
    withdrawn: int = 0  # deleted records whose papers the graph holds, now marked withdrawn
    complete: bool = False  # the list was harvested to its end


@dataclass(slots=True)
class SyncReport:
    sets: list[SetReport] = field(default_factory=list)
    enriched: int = 0
    backlog: int = 0  # papers still waiting for enrichment (a stop came first)
    stopped: bool = False
    harvest: LoadSummary = field(default_factory=LoadSummary)
    enrichment: LoadSummary = field(default_factory=LoadSummary)

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


class _RunReport(RejectionReport):
    """One report for every load of a run: emptied when the first one starts."""

    started = False

    def start(self, *, append: bool) -> None:
        if not self.started:
            super().start(append=append)
            self.started = True


class Sync:
    """One run over ``clients``, holding ``lease`` (taken before, renewed as it goes)."""

    def __init__(
        self,
        db: Database,
        clients: SourceClients,
        lease: Lease,
        options: SyncOptions | None = None,
        *,
        clock: Clock = utc_now,
        stop: asyncio.Event | None = None,
    ) -> None:
        self.db = db
        self.clients = clients
        self.lease = lease
        self.options = options or SyncOptions()
        self.clock = clock
        self.stop = stop or asyncio.Event()
        self.rejections = _RunReport(self.options.report)
        self.resumed = False

    async def run(self) -> SyncReport:
        report = SyncReport()
        states = [await self._begin(spec) for spec in self.options.sets]
        # After a run that stopped half-way, every load decides all name blocks again.
        self.resumed = any(state.unfinished for state in states)
        for state in states:
            if self.stop.is_set():
                break
            report.sets.append(await self._harvest(state, report.harvest))
        if not self.stop.is_set():
            await self._enrich(report)
        report.stopped = self.stop.is_set()
        report.backlog = (await sync_overview(self.db)).backlog
        for state in states:
            await self.db.run(END_RUN, {"set_spec": state.set_spec, "now": iso(self.clock())})
        return report

    async def _begin(self, spec: str) -> SetState:
        [row] = await self.db.run(BEGIN_RUN, {"set_spec": spec, "now": iso(self.clock())})
        return SetState.from_row(row)

    def _loader(self) -> Loader:
        loader = Loader(self.db, coauthor_cap=self.options.coauthor_cap, embed=self.options.embed)
        loader.report = self.rejections
        return loader

    # harvest ------------------------------------------------------------------------------

    async def _harvest(self, state: SetState, total: LoadSummary) -> SetReport:
        token = state.token
        start = state.harvest_from if token else (state.datestamp or self.options.first_from)
        report = SetReport(state.set_spec, start.isoformat() if start else None, bool(token))
        summary = await self._loader().run(self._pages(report, start, token), resumed=self.resumed)
        total.add(summary)
        if report.complete:
            await self.db.run(HARVEST_ENDED, {"set_spec": state.set_spec, "now": iso(self.clock())})
        return report

    async def _pages(
        self, report: SetReport, start: date | None, token: str | None
    ) -> AsyncIterator[Chunk]:
        spec = report.set_spec
        pages = self.clients.arxiv.list_record_pages(
            self.options.prefix,
            set_spec=None if spec == ALL_SETS else spec,
            from_date=start,
            resumption_token=token,
        )
        try:
            async for page_xml in pages:
                page = parse_oai_page(page_xml)
                yield f"sync:{spec}:page={report.pages}", page.batch
                # The loader asks for the next chunk once this one is written: now the page
                # may count as harvested.
                await self._page_done(report, page, start)
                if self.stop.is_set():
                    return
        except BadResumptionToken:
            if token is None:
                raise
            log.warning("arXiv no longer knows the resumption token of %s: harvesting again", spec)
            report.restarted = True
            async for chunk in self._pages(report, start, None):
                yield chunk
            return
        report.complete = True

    async def _page_done(self, report: SetReport, page: OaiPage, start: date | None) -> None:
        when = page.datestamp or self.clock().date()
        rows: list[BacklogRow] = [
            {"arxiv_id": paper.arxiv_id, "newest": paper.updated or paper.published}
            for paper in page.batch.papers
            if paper.arxiv_id
        ]
        deleted: list[DeletedRow] = [
            {"arxiv_id": arxiv_id, "rank": deletion_rank(arxiv_id, when)}
            for arxiv_id in page.deleted
            if is_arxiv_id(arxiv_id)
        ]
        [row] = await self.db.run(
            PAGE_DONE,
            {
                "set_spec": report.set_spec,
                "token": page.resumption_token,
                "harvest_from": start.isoformat() if start else None,
                "datestamp": page.datestamp.isoformat() if page.datestamp else None,
                "rows": rows,
                "deleted": deleted,
            },
        )
        report.pages += 1
        report.papers += len(rows)
        report.deleted += len(deleted)
        report.withdrawn += int(row["withdrawn"])
        await self.lease.take()

    # enrichment ---------------------------------------------------------------------------

    async def _enrich(self, report: SyncReport) -> None:
        while not self.stop.is_set():
            rows = await self.db.run(BACKLOG_NEXT, {"limit": self.options.enrich_batch})
            ids = [str(row["arxiv_id"]) for row in rows]
            if not ids:
                return
            summary = await self._loader().run(self._sources(ids), resumed=self.resumed)
            report.enrichment.add(summary)
            await self.db.run(BACKLOG_DONE, {"ids": ids})
            report.enriched += len(ids)
            await self.lease.take()

    async def _sources(self, ids: list[str]) -> AsyncIterator[Chunk]:
        async for chunk in s2_chunks(self.clients.s2, refs=ids):
            yield chunk
        async for chunk in openalex_chunks(self.clients.openalex, arxiv_ids=ids):
            yield chunk
