"""The scale section of BENCHMARKS.md, from ``results.json``'s ``scale`` (``make bench-scale``)."""

from __future__ import annotations

import json
from typing import Any

PAPERS_PER_SECOND_TARGET = 1000
GROWTH_TARGET = 1.2  # time per paper at 1M over 100k
GIB = 1 << 30


def _gib(value: Any) -> str:
    return f"{value / GIB:,.2f}" if isinstance(value, int | float) else "–"


def _ms(api: dict[str, Any], step: str) -> str:
    figures = api.get(step)
    if not isinstance(figures, dict) or "p50_ms" not in figures:
        return "–"
    return f"{figures['p50_ms']:,.1f} / {figures['p99_ms']:,.1f}"


def time_per_paper_ratios(runs: list[dict[str, Any]]) -> list[float]:
    """Each measured size's load time per paper over the smallest's (1.0 = linear)."""
    loaded = [run for run in runs if "load_seconds" in run]
    if not loaded:
        return []
    first = loaded[0]["load_seconds"] / loaded[0]["papers"]
    return [run["load_seconds"] / run["papers"] / first for run in loaded]


def scale_targets(scale: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """(target, measured, met) rows for the targets table."""
    loaded = [run for run in scale.get("runs", []) if "load_seconds" in run]
    if not loaded:
        return []
    rows = [
        (
            f"scale: ≥ {PAPERS_PER_SECOND_TARGET:,} papers/s, four sources",
            ", ".join(f"{run['papers_per_second']:,.0f} ({run['papers']:,})" for run in loaded),
            min(run["papers_per_second"] for run in loaded) >= PAPERS_PER_SECOND_TARGET,
        )
    ]
    ratios = time_per_paper_ratios(loaded)
    name = f"scale: time per paper 1M vs {loaded[0]['papers']:,} ≤ {GROWTH_TARGET}×"
    million = [i for i, run in enumerate(loaded) if run["papers"] >= 1_000_000]
    if million:
        ratio = ratios[million[0]]
        rows.append((name, f"{ratio:.2f}×", ratio <= GROWTH_TARGET))
    else:
        largest = f"not measured; largest size run {loaded[-1]['papers']:,}"
        if len(loaded) > 1:
            largest += f": {ratios[-1]:.2f}×"
        rows.append((name, largest, False))
    return rows


def _yes(value: bool) -> str:
    return "yes" if value else "**no**"


def fit_lines(fit: dict[str, Any] | None) -> list[str]:
    """Which sizes fit this machine, check by check (``bench_scale.assess``)."""
    if not fit:
        return []
    basis = fit.get("from_papers")
    costs = (
        f"the per-paper costs of the largest size measured ({basis:,} papers: its load time, "
        "store, data directory and loader memory)"
        if basis
        else "default per-paper costs (no size measured)"
    )
    lines = [
        "",
        f"**Which sizes fit** (judged at {fit['date']} from {costs}; memory against the "
        "machine's, the data directory against the disk free then, the load against the "
        "target's hour; an expected time is a lower bound where time per paper grows with the "
        "corpus):",
        "",
        "| corpus papers | expected load (min) | within the hour | expected memory / machine "
        "(GiB) | fits memory | expected data directory / free disk (GiB) | fits disk "
        "| generator |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for size in fit.get("sizes", []):
        lines.append(
            f"| {size['papers']:,} | {size['expected_seconds'] / 60:,.0f} | "
            f"{_yes(size['within_hour'])} | {_gib(size['memory_bytes'])} / "
            f"{_gib(size['machine_memory_bytes'])} | {_yes(size['fits_memory'])} | "
            f"{_gib(size['disk_bytes'])} / {_gib(size['free_disk_bytes'])} | "
            f"{_yes(size['fits_disk'])} | {_yes(size['generator'])} |"
        )
    return lines


SCALE_TITLE = "## Scale: the four-source load from 100k papers up (issue: scale)"


def scale_section(scale: dict[str, Any]) -> list[str]:
    if not scale:
        return []
    machine = scale.get("machine", {})
    lines = [
        "",
        SCALE_TITLE,
        "",
        f"`{scale['command']}` (`make bench-scale`) at {scale['date']}, on "
        f"{machine.get('platform', '?')} with {_gib(machine.get('memory_bytes'))} GiB of "
        f"memory ({_gib(machine.get('available_bytes_at_start'))} GiB available at the start: "
        "the machine is shared). Each size: the demo corpus (seed 1) loaded by `scholargraph "
        "demo` (ROR, OpenAlex, S2, arXiv, embedding included) into a fresh local Neo4j started "
        "by the launcher with the memory plan's heap and page cache for that size "
        "(`graph/memory.py`); then `scholargraph db analyze`, the coauthor projection read "
        "once in the benchmark's process, and `make bench`'s API steps (`bench_api`, two "
        "workers) on that store. Peak resident memory is the kernel's high-water mark "
        "(`VmHWM` of the Neo4j process, `wait4` of the loader process).",
        "",
        "| corpus papers | load (s) | papers/s | time per paper vs first | heap / page cache "
        "| Neo4j peak RSS (GiB) | loader peak RSS (GiB) | store on disk (GiB) | projection "
        "build (s) / arrays (MiB) | page p50/p99 (ms) | network p50/p99 (ms) | path p50/p99 "
        "(ms) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ratios = iter(time_per_paper_ratios(scale.get("runs", [])))
    for run in scale.get("runs", []):
        plan = run.get("memory_plan", {})
        if "load_seconds" not in run:
            lines.append(
                f"| {run['papers']:,} | did not finish: {run.get('error', '?')[:200]} "
                "| | | | | | | | | | |"
            )
            continue
        api, projection = run.get("api", {}), run.get("projection", {})
        lines.append(
            f"| {run['papers']:,} | {run['load_seconds']:,.0f} | "
            f"{run['papers_per_second']:,.0f} | {next(ratios):.2f}× | "
            f"{plan.get('heap', '?')} / {plan.get('pagecache', '?')} | "
            f"{_gib(run.get('neo4j_peak_rss_bytes'))} | {_gib(run.get('loader_peak_rss_bytes'))} | "
            f"{_gib(run.get('store_bytes'))} | {projection.get('build_seconds', '–')} / "
            f"{projection.get('array_bytes', 0) / (1 << 20):,.0f} | {_ms(api, 'page')} | "
            f"{_ms(api, 'network')} | {_ms(api, 'path')} |"
        )
    for skipped in scale.get("not_run", []):
        lines.append(
            f"| {skipped['papers']:,} | not run: {skipped['reason']} | | | | | | | | | | |"
        )
    lines += fit_lines(scale.get("fit"))
    lines += [f"\n{note}" for note in scale.get("notes", [])]
    lines += [
        "",
        f"Targets: ≥ {PAPERS_PER_SECOND_TARGET:,} papers/s; time per paper at 1M ≤ "
        f"{GROWTH_TARGET}× that at 100k. The whole record of each size (sources, graph counts, "
        "the projection, every API figure, the site pages):",
        "",
        "```json",
        json.dumps(
            [{k: v for k, v in run.items() if k != "api"} for run in scale.get("runs", [])],
            indent=2,
            default=str,
        ),
        "```",
    ]
    return lines
