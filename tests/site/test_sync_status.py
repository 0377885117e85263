"""The last harvest and the enrichment backlog, on the home page (HTML, markdown, JSON as
described) and in ``/readyz``."""

from __future__ import annotations

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.errors import SourceUnavailable
from scholargraph.graph.sync import SyncOptions, sync_once
from tests.site.conftest import MARKDOWN, Client
from tests.site.test_pages import html, well_formed
from tests.site.test_representations import openapi, schema_of
from tests.sync.sources import Sources, WallClock, clients

LINE = "Last harvest: 2026-12-01 06:00 UTC · 3 papers waiting for enrichment"


async def _harvest_while_s2_is_down(db: Database) -> None:
    options = SyncOptions(sets=("cs",), embed=False)
    async with clients(Sources(s2_down=True)) as found:
        with pytest.raises(SourceUnavailable):  # harvested, then S2 failed: all wait
            await sync_once(db, found, options, clock=WallClock())


async def test_before_any_sync_the_home_page_says_nothing_of_it(client: Client) -> None:
    page = well_formed(await html(client, "/"), "http://test/")
    assert "Last harvest" not in page.text
    ready = (await client.get("/readyz")).json()
    assert ready["sync"] == {"lastHarvest": None, "backlog": 0, "sets": []}
    assert ready["status"] == "ready" and "projection" in ready  # the fields it had stay


async def test_the_home_page_and_readyz_show_the_last_harvest_and_the_backlog(
    client: Client, site_graph: Database
) -> None:
    await _harvest_while_s2_is_down(site_graph)

    page = well_formed(await html(client, "/"), "http://test/")
    assert LINE in page.text
    assert LINE in (await client.get("/", MARKDOWN)).text
    body = await client.json("/")
    assert body["sync"] == {"lastHarvest": body["sync"]["lastHarvest"], "backlog": 3}
    assert body["sync"]["lastHarvest"].startswith("2026-12-01T06:00:")
    errors = list(schema_of(await openapi(client), "Home").iter_errors(body))
    assert not errors, errors[:3]

    ready = (await client.get("/readyz")).json()
    assert ready["sync"]["backlog"] == 3
    assert ready["sync"]["lastHarvest"] == body["sync"]["lastHarvest"]
    [cs] = ready["sync"]["sets"]
    assert cs["set"] == "cs" and cs["datestamp"] == "2026-11-30" and cs["harvested"] == 3
    assert cs["unfinished"] is True  # the run stopped at S2; the next one goes on
