"""``make bench-load``'s section of BENCHMARKS.md: what it prints, and what it leaves alone
(no timing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.report import LOAD_TITLE, replace_load_section, replace_section


def _side(seconds: float) -> dict[str, Any]:
    return {"seconds": seconds, "papers": 7_025, "runs": [seconds + 1, seconds]}


def _row() -> dict[str, Any]:
    stats = {"nodes": {"Paper": 7_025}, "relationships": {"AUTHORED": 30_092}}
    return {
        "corpus_papers": 10_000,
        "works": 7_025,
        "mean_authors": 4.28,
        "ours": {**_side(40.0), "stats": stats},
        "ours_no_embed": _side(32.0),
        "floor": _side(8.0),
        "neomodel": {**_side(30.0), "papers": 300, "mean_authors": 3.9},
        "per_paper": {"neomodel": 0.1},
        "speedup_vs_neomodel": 17.6,
        "ratio_vs_floor": 5.0,
        "ratio_vs_floor_no_embed": 4.0,
        "embedding_cost": 1.25,
    }


def test_the_load_section_shows_both_of_our_runs_against_the_floor_and_the_baseline(
    tmp_path: Path,
) -> None:
    report = tmp_path / "BENCHMARKS.md"
    report.write_text(
        f"# Benchmarks\n\nMade by make bench.\n\n{LOAD_TITLE}\n\nold table\n\n"
        "## Identity resolution (issue: identity)\n\nkept\n"
    )
    results = {
        "load": [_row()],
        "load_date": "2026-12-05T21:00:00+00:00",
        "load_baseline": {
            "commit": "e68a76c",
            "date": "2026-11-30T09:57:29+00:00",
            "rows": [{"corpus_papers": 10_000, "ours": 18.6, "floor": 5.3, "ratio_vs_floor": 3.52}],
        },
    }
    replace_load_section(results, report)
    text = report.read_text()
    assert "old table" not in text and text.count(LOAD_TITLE) == 1
    assert text.startswith("# Benchmarks\n\nMade by make bench.\n\n")
    assert text.endswith("## Identity resolution (issue: identity)\n\nkept\n")
    assert (
        "| 10,000 | 7,025 | 40.0 | 176 | 32.0 | 8.0 | 0.1000 (300) | **17.6× faster** "
        "| **5.0× the floor** | 4.0× | 1.25× |"
    ) in text
    assert "10,000: ours 18.6 s, floor 5.3 s, 3.5× the floor" in text
    assert "floor 9.0, 8.0; neomodel 31.0, 30.0; ours without embedding 33.0, 32.0" in text
    assert "(`make bench-load`) at 2026-12-05T21:00:00+00:00" in text


def test_a_span_of_sections_is_replaced_up_to_the_one_named(tmp_path: Path) -> None:
    report = tmp_path / "BENCHMARKS.md"
    report.write_text(
        "# Benchmarks\n\n## A\n\nkept a\n\n## B\n\nold b\n\n## C\n\nold c, and a note\n\n"
        "## D\n\nkept d\n"
    )
    replace_section(
        report, "## B", ["", "## B", "", "new b", "", "## C", "", "new c", ""], until="## D"
    )
    assert report.read_text() == (
        "# Benchmarks\n\n## A\n\nkept a\n\n## B\n\nnew b\n\n## C\n\nnew c\n\n## D\n\nkept d\n"
    )


def test_one_standalone_benchmark_run_again_replaces_its_section_only(tmp_path: Path) -> None:
    from benchmarks import extras
    from benchmarks.report import replace_extra_sections

    peer = next(e for e in extras.EXTRAS if e.module == "bench_peer")
    report = tmp_path / "BENCHMARKS.md"
    report.write_text(
        f"# Benchmarks\n\n## Loading\n\nkept\n\n## {peer.title}\n\nold figures\n\n"
        "## A note written by hand\n\nkept too\n\n## Against the targets (this run)\n\nkept\n"
    )
    replace_extra_sections({peer.key: {"error": "node is not on PATH"}}, "2026-12-06", report)
    text = report.read_text()
    assert "old figures" not in text
    assert "Measured again on its own at 2026-12-06." in text
    assert '"error": "node is not on PATH"' in text
    assert text.startswith("# Benchmarks\n\n## Loading\n\nkept\n\n")
    assert text.endswith(
        "## A note written by hand\n\nkept too\n\n## Against the targets (this run)\n\nkept\n"
    )


def test_a_whole_report_written_again_keeps_what_was_written_by_hand(tmp_path: Path) -> None:
    from benchmarks.report import TARGETS_TITLE, write_report

    results = {
        "sizes": [10_000],
        "machine": "x86_64, 2 cores",
        "date": "2026-12-06T08:00:00+00:00",
        "load": [_row()],
    }
    report = tmp_path / "BENCHMARKS.md"
    write_report(results, report)
    first = report.read_text()
    hand_row = "| write plan: a hand-kept target | 1.0× | yes |"
    with_notes = (
        first.replace(
            "\n## Identity resolution",
            "\n## Where the time goes (by hand)\n\nthe reasons\n\n## Identity resolution",
        )
        + f"{hand_row}\n\n## A closing note\n\nkept last\n"
    )
    report.write_text(with_notes.replace("5.0× the floor", "9.9× the floor"))
    results["load"][0]["ratio_vs_floor"] = 6.0
    write_report(results, report)
    text = report.read_text()
    # The sections the results make are made again; the others stay where they were.
    assert "9.9× the floor" not in text and "**6.0× the floor**" in text
    assert text.index(LOAD_TITLE) < text.index("## Where the time goes (by hand)\n\nthe reasons")
    assert text.index("the reasons") < text.index("## Identity resolution")
    targets = text[text.index(TARGETS_TITLE) :]
    assert "| loads: within 4× of the bare-CREATE floor | 6.0× (10k) | no |" in targets
    assert targets.index("| loads: within 4×") < targets.index(hand_row)
    assert text.endswith(f"{hand_row}\n\n## A closing note\n\nkept last\n")
    # Written again from the same results, it is the same.
    write_report(results, report)
    assert report.read_text() == text
