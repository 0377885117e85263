"""``scholargraph sync --every``: runs at the interval until a signal stops it, through the
command line's own code, with the sleeps injected."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
from pathlib import Path

import pytest

from scholargraph.cli import sync_cmd
from scholargraph.cli.main import main
from scholargraph.cli.sync_cmd import interval, stop_on_signals
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import ScholargraphError, SyncBusy
from scholargraph.graph.sync import (
    Lease,
    SyncOptions,
    SyncReport,
    every,
    sync_once,
    wait_or_stop,
)
from tests.sync.sources import LAST_DATESTAMP, Sources, WallClock, clients

OPTIONS = SyncOptions(sets=("cs",), enrich_batch=50, embed=False)


async def test_every_syncs_at_the_interval_until_stopped(db: Database) -> None:
    sources, clock, stop = Sources(), WallClock(), asyncio.Event()
    waits: list[float] = []
    reports: list[SyncReport] = []

    async def wait(seconds: float, stopping: asyncio.Event) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            stopping.set()  # SIGTERM during the third wait

    async with clients(sources) as found:
        runs = await every(
            6 * 3600,
            lambda: sync_once(db, found, OPTIONS, clock=clock, stop=stop),
            stop=stop,
            wait=wait,
            on_result=reports.append,
        )
    assert runs == 3 and waits == [21600.0] * 3
    assert [params.get("from") for params in sources.oai() if "set" in params] == [
        None,
        LAST_DATESTAMP,
        LAST_DATESTAMP,
    ]
    assert [r.enriched for r in reports] == [3, 0, 0]


async def test_every_goes_on_after_a_sync_that_could_not_run(db: Database) -> None:
    clock, stop = WallClock(), asyncio.Event()
    await Lease(db, holder="cron-a", lease_s=3600, clock=clock).take()
    errors: list[ScholargraphError] = []

    async def wait(seconds: float, stopping: asyncio.Event) -> None:
        if len(errors) == 2:
            stopping.set()

    async with clients(Sources()) as found:
        runs = await every(
            60,
            lambda: sync_once(db, found, OPTIONS, clock=clock),
            stop=stop,
            wait=wait,
            on_error=errors.append,
        )
    assert runs == 2 and all(isinstance(e, SyncBusy) for e in errors)


async def test_sigterm_and_sigint_set_the_stop() -> None:
    for signum in (signal.SIGTERM, signal.SIGINT):
        stop = stop_on_signals()
        try:
            os.kill(os.getpid(), signum)
            await asyncio.wait_for(stop.wait(), 5)
        finally:
            loop = asyncio.get_running_loop()
            loop.remove_signal_handler(signal.SIGINT)
            loop.remove_signal_handler(signal.SIGTERM)


async def test_waiting_ends_early_when_stopped() -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().call_later(0.05, stop.set)
    await asyncio.wait_for(wait_or_stop(3600, stop), 5)


@pytest.mark.parametrize(
    ("text", "seconds"), [("90s", 90), ("30m", 1800), ("6h", 21600), ("1d", 86400), ("45", 45)]
)
def test_intervals_read_as_seconds(text: str, seconds: float) -> None:
    assert interval(text) == seconds


@pytest.mark.parametrize("text", ["0s", "6 hours", "-1h", "h"])
def test_a_wrong_interval_is_a_usage_error(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="30m, 6h or 1d"):
        interval(text)


def test_a_wrong_set_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["sync", "--set", "cs/AI"])
    assert exited.value.code == 2
    assert "is not an OAI-PMH set" in capsys.readouterr().err


def test_a_wrong_from_date_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sync", "--from", "yesterday"]) == 2
    assert "--from 'yesterday' is not a date; expected YYYY-MM-DD" in capsys.readouterr().err


def _cli_env(monkeypatch: pytest.MonkeyPatch, settings: Settings, home: Path) -> None:
    monkeypatch.setenv("NEO4J_URI", settings.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j_password.reveal())
    monkeypatch.setenv("SCHOLARGRAPH_HOME", str(home))
    monkeypatch.setenv("SCHOLARGRAPH_SYNC_SETS", "cs")
    monkeypatch.chdir(home)  # no .env of the checkout


def test_the_command_syncs_and_says_so_in_json(
    db: Database,
    schema_ready: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _cli_env(monkeypatch, schema_ready, tmp_path)
    sources = Sources()
    monkeypatch.setattr(sync_cmd.live, "open_clients", lambda settings: clients(sources))
    assert main(["sync", "--json", "--enrich-batch", "2"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    report = json.loads(line)
    assert report["sets"][0]["set_spec"] == "cs"  # from SCHOLARGRAPH_SYNC_SETS
    assert (report["sets"][0]["pages"], report["enriched"], report["backlog"]) == (2, 3, 0)

    assert main(["sync"]) == 0  # nothing new since: the table says so
    shown = capsys.readouterr().out
    assert "0 papers enriched, 0 waiting for enrichment" in shown and "2026-11-30" in shown

    # a sync while another holds the lease does not run: status 75
    asyncio.run(_hold_lease(schema_ready))
    assert main(["sync", "-q"]) == sync_cmd.EXIT_BUSY
    assert "holds the graph's sync lease" in capsys.readouterr().err


async def _hold_lease(settings: Settings) -> None:
    async with Database.connect(settings) as db:
        await Lease(db, holder="cron-elsewhere", lease_s=3600).take()
