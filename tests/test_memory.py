"""The local server's memory plan (graph/memory.py): a pure function of memory and store."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from scholargraph.cli.main import build_parser
from scholargraph.graph.config import Settings
from scholargraph.graph.errors import ConfigError
from scholargraph.graph.memory import (
    GIB,
    MAX_HEAP,
    MIB,
    MIN_HEAP,
    format_size,
    parse_size,
    plan_memory,
    server_memory,
    store_bytes,
)

MACHINES = [2 * GIB, 4 * GIB, 8 * GIB, 16 * GIB, 24 * GIB, 64 * GIB, 256 * GIB, 1024 * GIB]


@pytest.mark.parametrize("total", MACHINES)
def test_the_plan_leaves_room_for_the_system_and_scholargraph(total: int) -> None:
    plan = plan_memory(total)
    assert MIN_HEAP <= plan.heap <= MAX_HEAP
    assert plan.system >= GIB and plan.scholargraph >= GIB
    if total >= 4 * GIB:  # below that only the minimum Neo4j runs with is left
        assert plan.system + plan.scholargraph + plan.heap + plan.pagecache <= total
    assert plan.heap % MIB == 0 and plan.pagecache % MIB == 0


def test_the_heap_grows_with_the_machine_and_stops_at_31_gib() -> None:
    heaps = [plan_memory(total).heap for total in MACHINES]
    assert heaps == sorted(heaps)
    assert heaps[-1] == MAX_HEAP
    assert plan_memory(24 * GIB).heap < 12 * GIB


def test_the_page_cache_is_the_store_and_room_to_grow_when_the_store_is_known() -> None:
    unknown = plan_memory(24 * GIB)
    small = plan_memory(24 * GIB, store=1 * GIB)
    large = plan_memory(24 * GIB, store=6 * GIB)
    assert small.pagecache == 3 * GIB  # the store and 2 GiB
    assert large.pagecache == 9 * GIB  # the store and half of it
    assert small.heap == large.heap == unknown.heap
    # a store larger than the machine gets what there is, and no more
    assert plan_memory(24 * GIB, store=100 * GIB).pagecache == unknown.pagecache
    # an empty store is about to be loaded: it gets the whole remainder
    assert plan_memory(24 * GIB, store=0).pagecache == unknown.pagecache


def test_sizes_read_and_written_as_the_jvm_does() -> None:
    assert parse_size("512m") == 512 * MIB
    assert parse_size(" 3G ") == 3 * GIB
    assert parse_size("2048k") == 2 * MIB
    assert parse_size("4gb") == 4 * GIB
    assert format_size(3 * GIB) == "3g"
    assert format_size(3 * GIB + 512 * MIB) == "3584m"
    for bad in ("", "lots", "1.5g", "-1g", "3t"):
        with pytest.raises(ConfigError, match="512m"):
            parse_size(bad)


def test_settings_given_win_over_the_plan(tmp_path: Path) -> None:
    assert server_memory("3g", "2g", tmp_path, total=24 * GIB) == ("3g", "2g")
    plan = plan_memory(24 * GIB)
    assert server_memory("3g", None, tmp_path, total=24 * GIB) == ("3g", plan.pagecache_setting)
    assert server_memory(None, "2g", tmp_path, total=24 * GIB) == (plan.heap_setting, "2g")


def test_the_plan_reads_the_store_on_disk(tmp_path: Path) -> None:
    assert store_bytes(tmp_path) is None
    store = tmp_path / "data" / "databases" / "neo4j"
    store.mkdir(parents=True)
    (store / "neostore.nodestore.db").write_bytes(b"\0" * 5000)
    (tmp_path / "data" / "transactions").mkdir()
    (tmp_path / "data" / "transactions" / "log.1").write_bytes(b"\0" * 9000)  # not the store
    assert store_bytes(tmp_path) == 5000
    _, pagecache = server_memory(None, None, tmp_path, total=24 * GIB)
    # the store and 2 GiB, in whole MiB
    assert parse_size(pagecache) == plan_memory(24 * GIB, store=5000).pagecache == 2 * GIB


def test_the_environment_sets_the_sizes_or_leaves_them_to_the_plan() -> None:
    assert Settings.from_mapping({}).neo4j_heap is None
    chosen = Settings.from_mapping(
        {"SCHOLARGRAPH_NEO4J_HEAP": "4g", "SCHOLARGRAPH_NEO4J_PAGECACHE": "6g"}
    )
    assert (chosen.neo4j_heap, chosen.neo4j_pagecache) == ("4g", "6g")
    with pytest.raises(ConfigError, match="SCHOLARGRAPH_NEO4J_HEAP"):
        Settings.from_mapping({"SCHOLARGRAPH_NEO4J_HEAP": "four gigs"})


def test_neo4j_start_takes_heap_and_page_cache_flags() -> None:
    parser = build_parser()
    args = parser.parse_args(["neo4j", "start", "--heap", "4g", "--pagecache", "8g"])
    assert (args.heap, args.pagecache) == ("4g", "8g")
    with pytest.raises(SystemExit):
        parser.parse_args(["neo4j", "start", "--heap", "a lot"])
    assert isinstance(parser, argparse.ArgumentParser)
