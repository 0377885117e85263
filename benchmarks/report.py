"""BENCHMARKS.md from the results of ``benchmarks.run``."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _f(value: Any, digits: int = 2) -> str:
    return f"{value:,.{digits}f}" if isinstance(value, int | float) else str(value)


def _load(results: dict[str, Any]) -> list[str]:
    lines = [
        "## Loading (issue: loaders)",
        "",
        "Corpus: the synthetic demo corpus's OpenAlex works (every authorship with author ids and",
        "institutions), written by our pipeline with AUTHORED, AFFILIATED and COAUTHOR edges;",
        "side by side with the floor (bare `UNWIND … CREATE` of the same rows, already resolved)",
        "and the neomodel way (one `save()`/`connect()` per object) on a sample of the same works.",
        "",
        "| corpus papers | works loaded | ours (s) | ours papers/s | floor (s) | neomodel s/paper "
        "(sample) | ours vs neomodel | ours vs floor |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in results.get("load", []):
        per = row["per_paper"]
        lines.append(
            f"| {row['corpus_papers']:,} | {row['works']:,} | {_f(row['ours']['seconds'], 1)} | "
            f"{_f(row['works'] / row['ours']['seconds'], 0)} | {_f(row['floor']['seconds'], 1)} | "
            f"{_f(per['neomodel'], 4)} ({row['neomodel']['papers']}) | "
            f"**{_f(row['speedup_vs_neomodel'], 1)}× faster** | "
            f"**{_f(row['ratio_vs_floor'], 1)}× the floor** |"
        )
    lines.append("")
    for row in results.get("load", []):
        neo = row["neomodel"]
        if "mean_authors" in neo:
            lines.append(
                f"- {row['corpus_papers']:,}: the neomodel sample is {neo['papers']} works drawn "
                f"at random (seed 0), {_f(neo['mean_authors'])} authors a work against "
                f"{_f(row['mean_authors'])} in the whole corpus."
            )
    for row in results.get("load", []):
        stats = row["ours"]["stats"]
        lines.append("")
        lines.append(
            f"{row['corpus_papers']:,}-paper corpus, our graph: "
            + ", ".join(f"{k} {v:,}" for k, v in sorted(stats["nodes"].items()))
            + "; "
            + ", ".join(f"{k} {v:,}" for k, v in sorted(stats["relationships"].items()))
        )
    sizes = results.get("load", [])
    if len(sizes) >= 2:
        a, b = sizes[0], sizes[-1]
        growth = (b["ours"]["seconds"] / a["ours"]["seconds"]) / (b["works"] / a["works"])
        lines += [
            "",
            f"Time per paper at {b['corpus_papers']:,} over {a['corpus_papers']:,}: "
            f"{_f(growth)} (1.0 = linear).",
        ]
    return lines


def _identity(results: dict[str, Any]) -> list[str]:
    lines = ["", "## Identity resolution (issue: identity)", ""]
    qian = results.get("identity_qian")
    if qian:
        lines += [
            "S2AND `qian` block (3,071 signatures, 574 people; names, affiliations, positions):",
            "`scholargraph eval disambiguation --signatures …/qian/signatures.json "
            "--clusters …/qian/clusters.json --baselines`",
            "",
            "| method | B³ P | B³ R | B³ F1 | pairwise P | pairwise R | pairwise F1 |",
            "|---|---|---|---|---|---|---|",
        ]
        for method, r in qian.items():
            lines.append(
                f"| {method} | {_f(r['b3_precision'], 3)} | {_f(r['b3_recall'], 3)} | "
                f"{_f(r['b3_f1'], 3)} | {_f(r['pairwise_precision'], 3)} | "
                f"{_f(r['pairwise_recall'], 3)} | {_f(r['pairwise_f1'], 3)} |"
            )
        lines += ["", "Targets: B³ F1 ≥ 0.80 with B³ precision ≥ 0.90."]
    demo = results.get("identity_demo")
    if demo:
        lines += [
            "",
            f"Through the real loaders on the {demo['papers']:,}-paper demo corpus (arXiv, S2, "
            f"OpenAlex, ROR; {demo['people']:,} people; every arXiv author slot scored against "
            f"the corpus's truth), loaded in {_f(demo['seconds'], 1)} s: B³ precision "
            f"{_f(demo['b3_precision'], 3)}, recall {_f(demo['b3_recall'], 3)}, F1 "
            f"{_f(demo['b3_f1'], 3)}; pairwise precision {_f(demo['pairwise_precision'], 3)}, "
            f"recall {_f(demo['pairwise_recall'], 3)}.",
        ]
    return lines


def _api(results: dict[str, Any]) -> list[str]:
    api = results.get("api")
    if not api:
        return []
    lines = [
        "",
        "## GraphQL API over HTTP (issue: API)",
        "",
        "On the graph of the largest load above; `python -m benchmarks.bench_api` "
        "against `scholargraph serve` (one worker).",
        "",
        "```json",
    ]
    import json

    lines += [
        json.dumps(api, indent=2),
        "```",
        "",
        "`network` is `network(depth: 2, maxNodes: 500)` as the page asks for it (its "
        "`graphology` value); `network_typed` is the same networks, same centres, as typed "
        "`nodes { … }` and `edges { … }` fields.",
        "",
        "Targets: page p50 ≤ 15 ms, p99 ≤ 60 ms; network p50 ≤ 50 ms; path p50 ≤ 30 ms;"
        " API over direct Cypher ≤ 2× at p50.",
    ]
    return lines


def _rest(results: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    export = results.get("export")
    if export:
        lines += [
            "",
            "## Analyst exports and the page's layout (issue: explorer)",
            "",
            f"Whole coauthor graph of the largest load: {export['nodes']:,} researchers, "
            f"{export['edges']:,} ties; fetched in {_f(export['fetch_seconds'], 1)} s, "
            f"written as GraphML in {_f(export['graphml_seconds'], 1)} s.",
        ]
    lay = results.get("layout")
    if lay:
        med = lay["median_seconds"]
        lines += [
            "",
            f"`python -m benchmarks.bench_layout`: {lay['nodes']:,} nodes, "
            f"{lay['edges']:,} edges — build {_f(med['build'], 3)} s, communities "
            f"{_f(med['communities'], 3)} s, ForceAtlas2 ({lay['max_iter']} iterations) "
            f"{_f(med['layout'], 3)} s, **total {_f(med['total'], 3)} s** (median of "
            f"{lay['runs']}; target under 1 s).",
        ]
    if results.get("neo4j_start_seconds") is not None:
        rss = results.get("neo4j_rss_bytes") or 0
        lines += [
            "",
            "## Local Neo4j",
            "",
            f"Cold start of the local Neo4j 5.26 server (Bolt answering): "
            f"{_f(results['neo4j_start_seconds'], 1)} s; resident memory after the "
            f"benchmarks: {rss / 2**20:,.0f} MiB (heap 3g, page cache 2g for the run).",
        ]
    return lines


def write_report(results: dict[str, Any], path: Path) -> None:
    lines = [
        "# Benchmarks",
        "",
        f"Made by `make bench` (`python -m benchmarks.run`, sizes {results['sizes']}) on "
        f"{results['machine']} at {results['date']}. Noisy machines: compare ratios measured "
        "in the same run, not absolute seconds across runs.",
        "",
    ]
    lines += _load(results) + _identity(results) + _api(results) + _rest(results)
    path.write_text("\n".join(lines) + "\n")
