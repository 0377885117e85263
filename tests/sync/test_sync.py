"""``scholargraph sync`` against hand-written OAI-PMH, S2 and OpenAlex answers and the real
database: the harvest page by page from the last datestamp, deletions, enrichment newest
first, a crash mid-harvest resumed, and the lease."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta
from typing import Any

import pytest

from scholargraph.graph.canonical import canonical_dump, differences
from scholargraph.graph.db import Database
from scholargraph.graph.errors import SourceUnavailable, SyncBusy
from scholargraph.graph.sync import Lease, SyncOptions, SyncReport, sync_once, sync_overview
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA
from tests.loaders.fake_time import FakeTime
from tests.sync.sources import (
    DELETED,
    FIRST_FROM,
    LAST_DATESTAMP,
    TOKEN,
    Sources,
    WallClock,
    clients,
    load_deleted_paper,
)

OPTIONS = SyncOptions(sets=("cs",), enrich_batch=2, embed=False)
PAPER = Query(
    "test.sync_paper",
    """
    MATCH (p:Paper {arxiv_id: $id})
    RETURN p.title AS title, p.withdrawn AS withdrawn, p.s2_id AS s2_id,
           p.openalex_id AS openalex_id, p.citation_count AS citations, p.sources AS sources,
           p.field_ranks AS ranks
    """,
)
STATE = Query(
    "test.sync_state",
    "MATCH (s:SyncState) RETURN s.set_spec AS set_spec, s.datestamp AS datestamp, "
    "s.token AS token, s.harvest_from AS harvest_from",
)


async def sync(
    db: Database, sources: Sources, clock: WallClock, time: FakeTime | None = None
) -> SyncReport:
    async with clients(sources, time) as found:
        return await sync_once(db, found, OPTIONS, clock=clock)


async def one(db: Database, arxiv_id: str) -> dict[str, Any]:
    [row] = await db.run(PAPER, {"id": arxiv_id})
    return row


async def test_a_first_sync_harvests_every_page_then_enriches_newest_first(db: Database) -> None:
    await load_deleted_paper(db)
    sources, clock = Sources(), WallClock()
    report = await sync(db, sources, clock)

    assert sources.oai() == [
        {"verb": "ListRecords", "metadataPrefix": "arXiv", "set": "cs"},
        {"verb": "ListRecords", "resumptionToken": TOKEN},
    ]
    # newest first by the latest version: 00001 (2026-11-20), 00003 (2025), 00002 (2024)
    assert sources.enrichment() == [
        ("s2:paper", ["arXiv:2411.00001", "arXiv:2411.00003"]),
        ("s2:author", ["2201001", "2201002", "2201003"]),
        ("openalex", ["10.48550/arxiv.2411.00001", "10.48550/arxiv.2411.00003"]),
        ("s2:paper", ["arXiv:2411.00002"]),
        ("openalex", ["10.48550/arxiv.2411.00002"]),
    ]
    [cs] = report.sets
    assert (cs.pages, cs.papers, cs.deleted, cs.withdrawn, cs.complete) == (2, 3, 1, 1, True)
    assert (report.enriched, report.backlog, report.stopped) == (3, 0, False)
    assert report.harvest.papers.created == 3

    engines = await one(db, "2411.00001")
    assert engines["title"] == "Analytical engines for sparse attention"  # arXiv's wins
    assert engines["s2_id"] and engines["openalex_id"] == "W4404000001"
    assert engines["citations"] == 17  # the larger count, S2's
    assert set(engines["sources"]) == {"arxiv", "s2", "openalex"}
    turing = await one(db, "2411.00002")  # S2 does not know it yet: OpenAlex only
    assert set(turing["sources"]) == {"arxiv", "openalex"}

    gone = await one(db, DELETED)
    assert gone["withdrawn"] is True and gone["title"] == "Go to considered"
    assert any(r.startswith("withdrawn=") and "|999|2026-11-30|" in r for r in gone["ranks"])

    [state] = (await sync_overview(db)).sets
    assert (state.set_spec, state.datestamp, state.token) == ("cs", date(2026, 11, 30), None)
    assert state.last_harvest is not None and not state.unfinished
    assert (state.harvested, state.deleted, state.backlog) == (3, 1, 0)


async def test_a_second_sync_asks_from_the_last_datestamp_and_changes_nothing(
    db: Database,
) -> None:
    await load_deleted_paper(db)
    clock = WallClock()
    await sync(db, Sources(), clock)
    before = await canonical_dump(db)
    first = (await sync_overview(db)).sets[0]

    again = Sources()
    report = await sync(db, again, clock)

    assert again.oai() == [
        {"verb": "ListRecords", "metadataPrefix": "arXiv", "set": "cs", "from": LAST_DATESTAMP}
    ]
    assert again.enrichment() == []  # noRecordsMatch: nothing new, nothing to enrich
    assert report.sets[0].complete and report.sets[0].pages == 0 and report.enriched == 0
    assert differences(before, await canonical_dump(db)) == []
    second = (await sync_overview(db)).sets[0]
    assert second.datestamp == first.datestamp == date(2026, 11, 30)
    assert first.last_harvest is not None and second.last_harvest is not None
    assert second.last_harvest > first.last_harvest


async def test_a_first_harvest_may_start_at_a_date_and_the_next_goes_on_from_its_own(
    db: Database,
) -> None:
    options = SyncOptions(sets=("cs",), first_from=date.fromisoformat(FIRST_FROM), embed=False)
    sources, clock = Sources(), WallClock()
    async with clients(sources) as found:
        first = await sync_once(db, found, options, clock=clock)
        await sync_once(db, found, options, clock=clock)
    assert [params.get("from") for params in sources.oai()] == [FIRST_FROM, None, LAST_DATESTAMP]
    assert first.sets[0].asked_from == FIRST_FROM and first.sets[0].papers == 3


async def uninterrupted(db: Database) -> dict[str, Any]:
    await load_deleted_paper(db)
    await sync(db, Sources(), WallClock())
    dump = await canonical_dump(db)
    await db.run(CLEAR_DATA)
    return dump


async def test_a_crash_mid_harvest_resumes_from_the_last_page_written(db: Database) -> None:
    expected = await uninterrupted(db)
    await load_deleted_paper(db)
    clock = WallClock()
    with pytest.raises(SourceUnavailable):
        await sync(db, Sources(fail_after=1), clock)  # page 1 arrives, then the network goes

    [state] = (await sync_overview(db)).sets
    assert state.unfinished and state.token == TOKEN and state.harvest_from is None
    assert state.datestamp == date(2026, 11, 29)  # page 1's, committed with its papers
    assert state.backlog == 2
    assert (await one(db, DELETED))["withdrawn"] is False  # page 2 was never written

    resumed = Sources()
    report = await sync(db, resumed, clock)
    assert resumed.oai() == [{"verb": "ListRecords", "resumptionToken": TOKEN}]
    assert report.sets[0].resumed and report.enriched == 3
    assert differences(expected, await canonical_dump(db)) == []
    assert [dict(r) for r in await db.run(STATE)] == [
        {"set_spec": "cs", "datestamp": LAST_DATESTAMP, "token": None, "harvest_from": None}
    ]


async def test_an_expired_token_harvests_that_list_again_from_its_start(db: Database) -> None:
    expected = await uninterrupted(db)
    await load_deleted_paper(db)
    clock = WallClock()
    with pytest.raises(SourceUnavailable):
        await sync(db, Sources(fail_after=1), clock)

    later = Sources(expired=True)
    report = await sync(db, later, clock)
    assert [params.get("resumptionToken") for params in later.oai()] == [TOKEN, None, TOKEN]
    assert report.sets[0].restarted and report.sets[0].complete
    assert differences(expected, await canonical_dump(db)) == []


async def test_a_503_with_retry_after_waits_as_asked(db: Database) -> None:
    await load_deleted_paper(db)
    time = FakeTime()
    report = await sync(db, Sources(busy=True), WallClock(), time)
    assert 20.0 in time.sleeps
    assert report.sets[0].pages == 2 and report.sets[0].complete


async def test_a_stop_between_pages_leaves_the_rest_for_the_next_run(db: Database) -> None:
    await load_deleted_paper(db)
    sources, clock = Sources(), WallClock()
    async with clients(sources) as found:
        stop = asyncio.Event()
        original = found.arxiv.list_record_pages

        async def pages(*args: Any, **kwargs: Any) -> Any:
            async for page in original(*args, **kwargs):
                stop.set()  # SIGTERM while page 1 is on its way
                yield page

        found.arxiv.list_record_pages = pages  # type: ignore[method-assign]
        report = await sync_once(db, found, OPTIONS, clock=clock, stop=stop)
    assert report.stopped and report.sets[0].pages == 1 and not report.sets[0].complete
    assert report.enriched == 0 and report.backlog == 2
    [state] = (await sync_overview(db)).sets
    assert state.token == TOKEN and not state.unfinished  # stopped cleanly, resumable


async def test_the_lease_lets_one_sync_run_at_a_time(db: Database) -> None:
    clock = WallClock()
    first = Lease(db, holder="cron-a", lease_s=600, clock=clock)
    second = Lease(db, holder="cron-b", lease_s=600, clock=clock)
    await first.take()
    await first.take()  # its holder renews it
    with pytest.raises(SyncBusy, match="another sync \\(cron-a\\) holds"):
        await second.take()
    async with clients(Sources()) as found:
        with pytest.raises(SyncBusy):
            await sync_once(db, found, OPTIONS, clock=clock, holder="cron-b")
    assert (await sync_overview(db)).sets == ()  # it did not run at all
    clock.now += timedelta(seconds=601)  # cron-a died: its lease ran out
    await second.take()
    await second.release()
    await first.take()
