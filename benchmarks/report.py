"""BENCHMARKS.md from the results of ``benchmarks.run``."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks import extras, peer_table
from benchmarks.formats import figure as _f
from benchmarks.formats import met as _met
from benchmarks.scale_report import SCALE_TITLE, scale_section, scale_targets

LOAD_TITLE = "## Loading (issue: loaders)"
API_TITLE = "## GraphQL API over HTTP (issue: API)"
TARGETS_TITLE = "## Against the targets (this run)"


def _load(results: dict[str, Any]) -> list[str]:
    when = results.get("load_date")
    lines = [
        LOAD_TITLE,
        "",
        "Corpus: the synthetic demo corpus's OpenAlex works (every authorship with author ids and",
        "institutions), written by our pipeline with AUTHORED, AFFILIATED and COAUTHOR edges;",
        "side by side with the floor (bare `UNWIND … CREATE` of the same rows, already resolved)",
        "and the neomodel way (one `save()`/`connect()` per object) on a sample of the same works.",
        "Ours runs as loads run (papers embedded, researchers' topics computed) and, apart, with",
        "the embedding off. Each side runs on a freshly started local server with an empty store,",
        "after a warm-up of the same kind on 1,000 works (50 for neomodel) that is then cleared.",
        "The sides run in turn (floor, neomodel, ours without embedding, ours; again …) and each",
        "counts with its median run."
        + (f" Measured again on its own (`make bench-load`) at {when}." if when else ""),
        "",
        "| corpus papers | works loaded | ours (s) | ours papers/s | ours without embedding (s) "
        "| floor (s) | neomodel s/paper (sample) | ours vs neomodel | ours vs floor "
        "| without embedding vs floor | embedding's cost |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in results.get("load", []):
        per = row["per_paper"]
        plain = row.get("ours_no_embed")
        lines.append(
            f"| {row['corpus_papers']:,} | {row['works']:,} | {_f(row['ours']['seconds'], 1)} | "
            f"{_f(row['works'] / row['ours']['seconds'], 0)} | "
            f"{_f(plain['seconds'], 1) if plain else 'not run'} | "
            f"{_f(row['floor']['seconds'], 1)} | "
            f"{_f(per['neomodel'], 4)} ({row['neomodel']['papers']}) | "
            f"**{_f(row['speedup_vs_neomodel'], 1)}× faster** | "
            f"**{_f(row['ratio_vs_floor'], 1)}× the floor** | "
            + (
                f"{_f(row['ratio_vs_floor_no_embed'], 1)}× | {_f(row['embedding_cost'])}× |"
                if plain
                else "— | — |"
            )
        )
    lines.append("")
    base = results.get("load_baseline")
    if base:
        lines += [
            f"The same benchmark before the write plan and the embedding (commit {base['commit']}, "
            f"`make bench` at {base['date']}), the baseline of the ratios above: "
            + "; ".join(
                f"{row['corpus_papers']:,}: ours {_f(row['ours'], 1)} s, floor "
                f"{_f(row['floor'], 1)} s, {_f(row['ratio_vs_floor'], 1)}× the floor"
                for row in base["rows"]
            )
            + ".",
            "",
        ]
    for row in results.get("load", []):
        neo = row["neomodel"]
        if "mean_authors" in neo:
            lines.append(
                f"- {row['corpus_papers']:,}: the neomodel sample is {neo['papers']} works drawn "
                f"at random (seed 0), {_f(neo['mean_authors'])} authors a work against "
                f"{_f(row['mean_authors'])} in the whole corpus."
            )
    sides = (
        ("floor", "floor"),
        ("neomodel", "neomodel"),
        ("ours_no_embed", "ours without embedding"),
        ("ours", "ours"),
    )
    for row in results.get("load", []):
        if "runs" in row["ours"]:
            lines.append(
                f"- {row['corpus_papers']:,}, every run in seconds: "
                + "; ".join(
                    f"{label} " + ", ".join(_f(x, 1) for x in row[side]["runs"])
                    for side, label in sides
                    if side in row
                )
                + "."
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


def replace_section(path: Path, title: str, lines: list[str], *, until: str | None = None) -> None:
    """Put ``lines`` (a section starting with ``title``) in place of that section of
    ``path``, or of the sections from it to the one titled ``until``, leaving every other
    section as it is, the notes written beside the generated ones too."""
    text = path.read_text()
    start = text.index(title)
    if until is not None:
        end = text.index("\n" + until, start)
    else:
        ends = [
            found
            for found in (
                text.find("\n## ", start + len(title)),
                text.find("\n" + extras.DATED_SECTIONS, start),
            )
            if found >= 0
        ]
        end = min(ends) if ends else len(text)
    while lines and not lines[0]:
        lines = lines[1:]
    while lines and not lines[-1]:
        lines = lines[:-1]
    path.write_text(text[:start] + "\n".join(lines) + "\n" + text[end:])


def replace_load_section(results: dict[str, Any], path: Path) -> None:
    """This run's loading section in place of the one in ``path`` (``make bench-load``)."""
    replace_section(path, LOAD_TITLE, _load(results))


def replace_api_sections(results: dict[str, Any], path: Path) -> None:
    """This run's API, site, export and local Neo4j sections in place of those in ``path``
    (``make bench-api``), up to the scale section."""
    replace_section(path, API_TITLE, _api(results) + _rest(results), until=SCALE_TITLE)


def replace_extra_sections(measured: dict[str, Any], when: str, path: Path) -> None:
    """The sections of the standalone benchmarks in ``measured`` (by key) in place of those
    in ``path``, each dated ``when``."""
    for extra in extras.EXTRAS:
        if extra.key in measured:
            lines = extras.report({extra.key: measured[extra.key]}, dates={extra.key: when})
            replace_section(path, f"## {extra.title}", lines)


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
        API_TITLE,
        "",
        "On the graph of the largest load above, after `scholargraph db analyze`; "
        "`python -m benchmarks.bench_api` against `scholargraph serve` (one worker), once "
        "`/readyz` reports the server's coauthor projection read (`projection_ready_seconds` "
        "after the server started; until then networks are walked on the database).",
        *_api_again(results),
        "",
        "```json",
    ]
    import json

    lines += [
        json.dumps(api, indent=2),
        "```",
        "",
        "After 20 s of page requests and their direct statements in turn (the server's JVM "
        "compiles its hot paths over thousands of statements), 10 networks and 50 paths, "
        "`page` is 300 page queries one after another; the overhead compares "
        "`page_paired` with `page_direct`, page queries over HTTP and their statements "
        "straight through the driver, sent in turn (300 each).",
        "",
        "`network` is `network(depth: 2, maxNodes: 500)` as the page asks for it (its "
        "`graphology` value); `network_typed` is the same networks, same centres, as typed "
        "`nodes { … }` and `edges { … }` fields.",
        "",
        "Targets: page p50 ≤ 15 ms, p99 ≤ 60 ms; network p50 ≤ 50 ms; path p50 ≤ 30 ms;"
        " API over direct Cypher ≤ 2× at p50.",
    ]
    site = api.get("site")
    if site:
        lines += [
            "",
            "## Reference site pages over HTTP (issue: reference site)",
            "",
            "The same server and researchers; `python -m benchmarks.bench_site --url … "
            "--ids-file …`: each researcher's page as HTML at its canonical address and as "
            "JSON, the GraphQL page query sent in turn with the HTML page "
            "(`html_over_graphql_p50`), a paper page of each, and the page asked again with "
            "its `ETag` (304).",
            "",
            "```json",
            json.dumps(site, indent=2),
            "```",
            "",
            "Targets: researcher page HTML p50 ≤ 20 ms, p99 ≤ 60 ms.",
        ]
    return lines


def _api_again(results: dict[str, Any]) -> list[str]:
    """The line saying the API figures were measured on their own, after the full run."""
    when, load = results.get("api_date"), results.get("api_load")
    if not when or not load:
        return []
    return [
        "",
        f"Measured again on its own at {when} by `make bench-api` (`python -m benchmarks.run "
        f"--api-only`): a fresh store of the {load['corpus_papers']:,}-paper corpus's "
        f"{load['works']:,} works, loaded once by our pipeline in {_f(load['seconds'], 1)} s "
        "after the same warm-up, then the steps below and the export of the next section; "
        "the load figures above are the full run's.",
    ]


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


def _extra(found: dict[str, Any], module: str) -> dict[str, Any]:
    key = next((e.key for e in extras.EXTRAS if e.module == module), "")
    result = found.get(key, {})
    return result if isinstance(result, dict) and "error" not in result else {}


def _identity_quality_targets(found: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """The identity-quality issue's two targets, from the standalone benchmarks."""
    rows: list[tuple[str, str, bool]] = []
    same_name = _extra(found, "bench_disambiguation")
    if same_name:
        best = same_name.get("best_at_precision_target") or {}
        pooled = same_name["cross_validation"]["pooled_held_out"]
        rows.append(
            (
                "identity: S2AND qian B³ F1 ≥ 0.85 at B³ precision ≥ 0.95",
                f"{_f(best.get('b3_f1', 0.0), 3)} at {_f(best.get('b3_precision', 0.0), 3)} "
                f"(threshold {best.get('threshold', '—')}); cross-validated "
                f"{_f(pooled['b3_f1'], 3)} at {_f(pooled['b3_precision'], 3)}",
                pooled["b3_f1"] >= 0.85 and pooled["b3_precision"] >= 0.95,
            )
        )
    matching = _extra(found, "bench_affiliations")
    if matching:
        held = [matching[s]["held_out"]["in_index"] for s in ("crossref_2024_02_19", "names")]
        rows.append(
            (
                "affiliations: precision ≥ 0.95 at recall ≥ 0.85, in-dump, held out",
                ", ".join(f"{_f(h['precision'], 3)} / {_f(h['recall'], 3)}" for h in held)
                + " (Crossref strings, names)",
                all(h["precision"] >= 0.95 and h["recall"] >= 0.85 for h in held),
            )
        )
    return rows


def _targets(results: dict[str, Any]) -> list[str]:
    """Every figure an issue names, against its target, from this run."""
    rows: list[tuple[str, str, bool]] = []
    loads = results.get("load", [])
    if loads:
        speedups = [r["speedup_vs_neomodel"] for r in loads]
        ratios = [r["ratio_vs_floor"] for r in loads]
        sizes = [f"{r['corpus_papers'] // 1000}k" for r in loads]
        rows.append(
            (
                "loads: ours vs neomodel ≥ 30×",
                ", ".join(f"{_f(x, 1)}× ({n})" for x, n in zip(speedups, sizes, strict=True)),
                min(speedups) >= 30,
            )
        )
        rows.append(
            (
                "loads: within 4× of the bare-CREATE floor",
                ", ".join(f"{_f(x, 1)}× ({n})" for x, n in zip(ratios, sizes, strict=True)),
                max(ratios) <= 4,
            )
        )
        costs = [r["embedding_cost"] for r in loads if "embedding_cost" in r]
        if costs:
            rows.append(
                (
                    "semantic: one source's load (OpenAlex works) with embedding within 10 % "
                    "of it without",
                    ", ".join(
                        f"{_f(r['embedding_cost'])}× ({r['corpus_papers'] // 1000}k)"
                        for r in loads
                        if "embedding_cost" in r
                    ),
                    max(costs) <= 1.1,
                )
            )
        big = max(loads, key=lambda r: r["corpus_papers"])
        if big["corpus_papers"] >= 100_000:
            rows.append(
                (
                    "loads: 100k papers in under 3 minutes",
                    f"{big['works']:,} works of the {big['corpus_papers']:,} corpus in "
                    f"{_f(big['ours']['seconds'], 0)} s",
                    big["ours"]["seconds"] < 180,
                )
            )
        if len(loads) >= 2:
            a, b = loads[0], loads[-1]
            growth = (b["ours"]["seconds"] / a["ours"]["seconds"]) / (b["works"] / a["works"])
            rows.append(
                ("loads: time linear in corpus size", f"{_f(growth)}× per paper", growth <= 1.2)
            )
    qian = results.get("identity_qian")
    if qian:
        model = qian.get("model", {})
        if model:
            rows.append(
                (
                    "identity: S2AND qian B³ F1 ≥ 0.80, B³ precision ≥ 0.90",
                    f"{_f(model['b3_f1'], 3)} / {_f(model['b3_precision'], 3)}",
                    model["b3_f1"] >= 0.8 and model["b3_precision"] >= 0.9,
                )
            )
    api = results.get("api")
    if api:
        page, net, path = api["page"], api["network"], api["path"]
        rows += [
            (
                "API: page p50 ≤ 15 ms, p99 ≤ 60 ms",
                f"{_f(page['p50_ms'], 1)} / {_f(page['p99_ms'], 1)} ms",
                page["p50_ms"] <= 15 and page["p99_ms"] <= 60,
            ),
            (
                "API: network(depth 2, 500) p50 ≤ 50 ms",
                f"{_f(net['p50_ms'], 0)} ms (typed fields: "
                f"{_f(api.get('network_typed', {}).get('p50_ms', 0), 0)} ms)",
                net["p50_ms"] <= 50,
            ),
            (
                "API: collaborationPath p50 ≤ 30 ms",
                f"{_f(path['p50_ms'], 1)} ms",
                path["p50_ms"] <= 30,
            ),
            (
                "API over direct Cypher ≤ 2× at p50",
                f"{_f(api['overhead_p50'])}× "
                f"({_f(api.get('page_paired', page)['p50_ms'], 1)} over "
                f"{_f(api['page_direct']['p50_ms'], 1)} ms, in turn)",
                api["overhead_p50"] <= 2,
            ),
        ]
    site = (api or {}).get("site", {})
    if site.get("researcher_html"):
        html = site["researcher_html"]
        rows.append(
            (
                "site: researcher page HTML p50 ≤ 20 ms, p99 ≤ 60 ms",
                f"{_f(html['p50_ms'], 1)} / {_f(html['p99_ms'], 1)} ms "
                f"({_f(site['html_over_graphql_p50'])}× the GraphQL page, in turn)",
                html["p50_ms"] <= 20 and html["p99_ms"] <= 60,
            )
        )
    peer = next((e.key for e in extras.EXTRAS if e.module == "bench_peer"), "")
    rows += peer_table.targets(results.get("extras", {}).get(peer, {}))
    rows += _identity_quality_targets(results.get("extras", {}))
    rows += scale_targets(results.get("scale", {}))
    lay = results.get("layout")
    if lay:
        total = lay["median_seconds"]["total"]
        rows.append(
            (
                f"page: {lay['nodes']:,}-node build + communities + layout < 1 s",
                f"{_f(total, 2)} s",
                total < 1,
            )
        )
    if not rows:
        return []
    lines = ["", TARGETS_TITLE, "", "| target | measured | met? |"]
    lines.append("|---|---|---|")
    lines += [f"| {name} | {value} | {_met(ok)} |" for name, value, ok in rows]
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
    lines += scale_section(results.get("scale", {}))
    lines += extras.report(
        results.get("extras", {}), results.get("extras_date"), results.get("extras_dates")
    )
    lines += _targets(results)
    text = "\n".join(lines) + "\n"
    path.write_text(with_hand_kept(path.read_text(), text) if path.exists() else text)


def with_hand_kept(old: str, new: str) -> str:
    """``new`` (a whole report made from results) with what ``old`` holds that no results
    make: each section written by hand, after the section it followed, and each row of the
    targets table whose target ``new`` does not measure, after ``new``'s rows."""
    made = _sections(new)
    titles = {title for title, _ in made}
    kept: dict[str, list[str]] = defaultdict(list)
    anchor = ""
    before = _sections(old)
    for title, body in before:
        if title in titles:
            anchor = title
        else:
            kept[anchor].append(body)
    old_rows = _target_rows(dict(before).get(TARGETS_TITLE, ""))
    parts: list[str] = []
    for title, body in made:
        if title == TARGETS_TITLE:
            measured = _target_rows(body)
            body = "\n".join([body, *(row for t, row in old_rows.items() if t not in measured)])
        parts += [body, *kept.get(title, [])]
    return "\n\n".join(parts) + "\n"


def _sections(text: str) -> list[tuple[str, str]]:
    """Each ``## `` section of a report as (its title line, its text), the text before the
    first titled ``""``; trailing blank lines dropped."""
    found = re.split(r"(?m)^(?=## )", text)
    return [
        (part.split("\n", 1)[0] if part.startswith("## ") else "", part.rstrip())
        for part in found
        if part.strip()
    ]


def _target_rows(section: str) -> dict[str, str]:
    """A targets table's rows by their target."""
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]
    return {row.split(" | ", 1)[0]: row for row in rows}
