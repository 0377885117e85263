"""``benchmarks.bench_profile``'s own bookkeeping: what it adds up and prints (no timing)."""

from __future__ import annotations

import time

from benchmarks.bench_profile import MemoryWatch, SourceProfile, resident_bytes, table


def test_a_source_profile_sums_each_statement_and_ranks_the_largest_first() -> None:
    one = SourceProfile("s2", seconds=10.0)
    for name, seconds in (("a", 1.0), ("b", 3.0), ("a", 1.5), ("c", 0.25)):
        one.hear((name,), seconds, False)
    found = one.as_dict(top=2)
    assert found["statement_seconds"] == 5.75
    assert found["other_seconds"] == 4.25
    assert found["statements_run"] == 4
    assert found["top"] == [
        {"name": "b", "seconds": 3.0, "runs": 1},
        {"name": "a", "seconds": 2.5, "runs": 2},
    ]


def test_the_table_has_a_row_per_source_with_its_largest_statements() -> None:
    one = SourceProfile("arxiv", seconds=2.0, rss_peak=300 * 2**20, rss_after=250 * 2**20)
    one.hear(("writer.upsert_papers",), 0.5, False)
    rows = table({"sources": [one.as_dict(top=5)]}).splitlines()
    assert rows[2] == "| arxiv | 2.0 | 0.5 | 1 | 1.5 | 300 / 250 | `writer.upsert_papers` 0.5 (1) |"


def test_the_memory_watch_sees_a_peak_that_was_freed_before_it_ended() -> None:
    before = resident_bytes()
    with MemoryWatch(interval=0.01) as watch:
        block = bytearray(64 * 2**20)
        block[::4096] = b"x" * len(block[::4096])  # touched: resident
        time.sleep(0.2)
        del block
    assert watch.peak >= before + 60 * 2**20
    assert resident_bytes() < watch.peak
