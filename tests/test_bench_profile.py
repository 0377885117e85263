"""``benchmarks.bench_profile``'s own bookkeeping: what it adds up and prints (no timing)."""

from __future__ import annotations

from benchmarks.bench_profile import SourceProfile, table


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
    one = SourceProfile("arxiv", seconds=2.0)
    one.hear(("writer.upsert_papers",), 0.5, False)
    rows = table({"sources": [one.as_dict(top=5)]}).splitlines()
    assert rows[2] == "| arxiv | 2.0 | 0.5 | 1 | 1.5 | `writer.upsert_papers` 0.5 (1) |"
