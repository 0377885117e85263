"""``make bench-scale``'s own logic: sizes, which size fits, and its table (no timing)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from benchmarks.bench_scale import (
    PerPaper,
    Room,
    assess,
    does_not_fit,
    expected_memory,
    parse_sizes,
)
from benchmarks.report import replace_section, write_report
from benchmarks.scale_report import (
    SCALE_TITLE,
    fit_lines,
    scale_section,
    scale_targets,
    time_per_paper_ratios,
)
from scholargraph.graph.demo.generator import MAX_PAPERS
from scholargraph.graph.memory import GIB

ROOMY = Room(memory=20 * GIB, disk=200 * GIB, seconds=3600)


def test_sizes_are_read_in_thousands_and_millions_smallest_first() -> None:
    assert parse_sizes("100k,300k,1M,2.7M") == [100_000, 300_000, 1_000_000, 2_700_000]
    assert parse_sizes("1M, 5000,100k,100K") == [5000, 100_000, 1_000_000]
    for bad in ("", "100x", "1e6", "-5k", "0"):
        with pytest.raises(ValueError, match="size"):
            parse_sizes(bad)


def test_a_size_fits_when_memory_disk_time_and_the_generator_allow_it() -> None:
    per = PerPaper(seconds=1 / 120, store_bytes=30_000, loader_bytes=8_000)
    assert does_not_fit(100_000, per, 24 * GIB, ROOMY) is None
    over_budget = does_not_fit(300_000, per, 24 * GIB, replace(ROOMY, seconds=1800))
    assert over_budget is not None and "budget" in over_budget
    generator = does_not_fit(MAX_PAPERS + 1, per, 24 * GIB, ROOMY)
    assert generator is not None and "generator" in generator
    crowded = Room(memory=4 * GIB, disk=200 * GIB, seconds=10**9)
    memory = does_not_fit(300_000, per, 24 * GIB, crowded)
    assert memory is not None and "memory" in memory
    full_disk = Room(memory=20 * GIB, disk=1 * GIB, seconds=10**9)
    disk = does_not_fit(100_000, per, 24 * GIB, full_disk)
    assert disk is not None and "disk" in disk


def test_expected_memory_counts_the_page_cache_only_as_far_as_the_store_fills_it() -> None:
    per = PerPaper(store_bytes=10_000, loader_bytes=5_000)
    small, large = (expected_memory(n, per, 24 * GIB) for n in (100_000, 1_000_000))
    assert small["need"] == small["heap"] + small["store"] + small["loader"]
    assert large["need"] > small["need"]
    assert small["pagecache"] >= small["store"]


def test_the_next_size_is_judged_by_the_size_measured_before_it() -> None:
    run = {"papers": 100_000, "load_seconds": 800.0, "store_bytes": 2 * GIB}
    per = PerPaper.measured({**run, "loader_peak_rss_bytes": GIB // 2})
    assert per.seconds == pytest.approx(0.008)
    assert does_not_fit(300_000, per, 24 * GIB, ROOMY) is None
    assert "budget" in (does_not_fit(500_000, per, 24 * GIB, ROOMY) or "")
    assert "memory" in (does_not_fit(1_000_000, per, 24 * GIB, ROOMY) or "")


def _run(papers: int, seconds: float) -> dict[str, Any]:
    latency = {"p50_ms": 10.0, "p99_ms": 40.0}
    return {
        "papers": papers,
        "load_seconds": seconds,
        "papers_per_second": papers / seconds,
        "memory_plan": {"heap": "6881m", "pagecache": "9g"},
        "neo4j_peak_rss_bytes": 6 * GIB,
        "loader_peak_rss_bytes": GIB,
        "store_bytes": 3 * GIB,
        "projection": {"build_seconds": 4.2, "array_bytes": 50 << 20},
        "api": {"page": latency, "network": latency, "path": latency},
    }


def _scale(runs: list[dict[str, Any]], not_run: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "command": "python -m benchmarks.bench_scale --sizes 100k,1M --max-minutes 60",
        "date": "2026-12-02T04:00:00+00:00",
        "machine": {"platform": "x86_64, 2 cores", "memory_bytes": 24 * GIB},
        "runs": runs,
        "not_run": not_run,
        "notes": ["A first attempt at 1M was stopped."],
    }


def test_the_table_has_a_row_a_size_with_ratios_to_the_first() -> None:
    runs = [_run(100_000, 800.0), _run(1_000_000, 9600.0)]
    assert time_per_paper_ratios(runs) == pytest.approx([1.0, 1.2])
    text = "\n".join(scale_section(_scale(runs, [{"papers": 2_700_000, "reason": "no room"}])))
    assert "--sizes 100k,1M" in text and "24.00 GiB" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "," in line[:12]]
    assert [row.split(" | ")[0] for row in rows] == ["| 100,000", "| 1,000,000", "| 2,700,000"]
    assert "1.20×" in rows[1] and "6881m / 9g" in rows[1] and "10.0 / 40.0" in rows[1]
    assert "not run: no room" in rows[2]
    assert "\nA first attempt at 1M was stopped.\n" in text
    targets = {name: (value, met) for name, value, met in scale_targets(_scale(runs, []))}
    rate = next(v for k, v in targets.items() if "papers/s" in k)
    assert rate == ("125 (100,000), 104 (1,000,000)", False)
    growth = next(v for k, v in targets.items() if "1M" in k)
    assert growth == ("1.20×", True)


def test_a_run_without_1m_says_the_growth_target_was_not_measured() -> None:
    runs = [_run(100_000, 800.0), _run(300_000, 3000.0)]
    targets = scale_targets(_scale(runs, []))
    [(_, value, met)] = [row for row in targets if "1M" in row[0]]
    assert value == "not measured; largest size run 300,000: 1.25×" and not met
    assert scale_section({}) == [] and scale_targets({}) == []


def test_the_scale_section_is_in_benchmarks_md(tmp_path: Any) -> None:
    results = {
        "sizes": [10_000],
        "machine": "x86_64, 2 cores",
        "date": "2026-12-02T03:00:00+00:00",
        "scale": _scale([_run(100_000, 800.0)], []),
    }
    write_report(results, tmp_path / "BENCHMARKS.md")
    text = (tmp_path / "BENCHMARKS.md").read_text()
    assert "## Scale: the four-source load" in text
    assert "| scale: ≥ 1,000 papers/s, four sources | 125 (100,000) | no |" in text


def test_a_new_scale_run_replaces_only_its_section_and_keeps_the_notes(tmp_path: Any) -> None:
    report = tmp_path / "BENCHMARKS.md"
    results = {
        "sizes": [10_000],
        "machine": "x86_64, 2 cores",
        "date": "2026-12-02T03:00:00+00:00",
        "extras_date": "2026-12-02T04:00:00+00:00",
        "extras": {"hyperauthor": {"seconds": 1.0}},
        "scale": _scale([_run(100_000, 800.0)], []),
    }
    write_report(results, report)
    written = report.read_text()
    before, after = written.split(SCALE_TITLE)
    note = "A note written by hand under the scale section's table.\n"
    marker = "\nThe sections from here to the targets"
    report.write_text(before + SCALE_TITLE + after.replace(marker, "\n" + note + marker, 1))
    report.write_text(report.read_text() + "\nA closing note.\n")
    replace_section(report, SCALE_TITLE, scale_section(_scale([_run(100_000, 400.0)], [])))
    text = report.read_text()
    assert text.count(SCALE_TITLE) == 1
    assert "| 100,000 | 400 |" in text and "| 100,000 | 800 |" not in text
    assert note not in text  # inside the section: the section is the run's own
    assert text.startswith(before) and text.endswith("\nA closing note.\n")
    assert "The sections from here to the targets were measured at" in text


def test_every_size_is_judged_check_by_check_from_the_largest_measured_size() -> None:
    measured = {
        **_run(100_000, 1000.0),
        "loader_peak_rss_bytes": GIB,
        "data_dir_bytes": 10 * GIB,
    }
    scale = assess(
        _scale([_run(10_000, 50.0), measured], []), [300_000, 3_000_000], 50 * GIB, 24 * GIB
    )
    fit = scale["fit"]
    assert fit["from_papers"] == 100_000 and scale["runs"][1] is measured
    small, huge = fit["sizes"]
    assert small["expected_seconds"] == 3000 and small["within_hour"]
    assert small["disk_bytes"] == 30 * GIB and small["fits_disk"]
    assert not huge["within_hour"] and not huge["fits_disk"] and not huge["generator"]
    assert huge["memory_bytes"] > small["memory_bytes"]
    text = "\n".join(scale_section(scale))
    assert "**Which sizes fit**" in text and "(100,000 papers:" in text
    row = next(line for line in text.splitlines() if line.startswith("| 3,000,000 | 500 |"))
    assert row.count("**no**") >= 3


def test_sizes_are_judged_at_the_default_costs_when_none_was_measured() -> None:
    fit = assess({"runs": []}, [100_000], 100 * GIB, 24 * GIB)["fit"]
    assert fit["from_papers"] is None
    assert fit["sizes"][0]["expected_seconds"] == round(100_000 / 120)
    assert "default per-paper costs" in "\n".join(fit_lines(fit))
