"""The conventions every command keeps: -q/-v/--log-level before or after its name, --json
that is JSON and nothing else, validated numbers, progress bars that know their total, shell
completion. Through the real entry point: ``main()`` for what the parser decides, a real
process for what a command does."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scholargraph.cli.main import build_parser, main
from scholargraph.cli.options import resolve
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import demo_records, write_demo_files
from scholargraph.graph.repo.site import researcher_index
from tests.test_cli import scholargraph

ROOT = Path(__file__).resolve().parents[1]
# What a leaf command needs to parse, so that its own options can be tried.
REQUIRED: dict[tuple[str, ...], list[str]] = {
    ("load",): ["arxiv"],
    ("researchers", "merge"): ["1", "2", "--reason", "r"],
    ("researchers", "split"): ["1", "--papers", "p", "--reason", "r"],
    ("researchers", "distinct"): ["1", "2", "--reason", "r"],
    ("researchers", "pin"): ["1", "p", "--reason", "r"],
    ("researchers", "why"): ["1"],
    ("eval", "disambiguation"): ["--signatures", "s", "--clusters", "c"],
    ("eval", "affiliations"): ["--gold", "g"],
    ("completion",): ["bash"],
}
# Commands that report nothing to parse: a server, and a script for the shell.
NOT_REPORTING = {("serve",), ("completion",)}
# export reports the files it wrote; with --output - the graph itself is the output.
WRITES_FILES: set[tuple[str, ...]] = set()


def leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return [path]
    for name, child in subs[0].choices.items():
        found += leaves(child, (*path, name))
    return found


COMMANDS = leaves(build_parser())


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_every_command_is_covered() -> None:
    assert len(COMMANDS) >= 20
    assert ("db", "stats") in COMMANDS and ("completion",) in COMMANDS


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_takes_the_output_options_after_its_name(command: tuple[str, ...]) -> None:
    parser = build_parser()
    argv = [*command, *REQUIRED.get(command, []), "-q", "-v", "-v", "--log-level", "INFO"]
    args = parser.parse_args(argv)
    output = resolve(args)
    assert output.quiet and args.quiet
    assert output.level == logging.INFO  # the level named outright wins over -v


@pytest.mark.parametrize(
    "command", [c for c in COMMANDS if c not in NOT_REPORTING | WRITES_FILES], ids=" ".join
)
def test_every_command_that_reports_takes_json(command: tuple[str, ...]) -> None:
    args = build_parser().parse_args([*command, *REQUIRED.get(command, []), "--json"])
    assert args.json is True


@pytest.mark.parametrize("command", sorted(NOT_REPORTING), ids=" ".join)
def test_commands_that_report_nothing_refuse_json(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    err = usage_error(capsys, *command, *REQUIRED.get(command, []), "--json")
    assert "unrecognized arguments: --json" in err


@pytest.mark.parametrize(
    ("argv", "level", "quiet"),
    [
        (["db", "stats"], logging.WARNING, False),
        (["-v", "db", "stats"], logging.INFO, False),
        (["-v", "db", "stats", "-v"], logging.DEBUG, False),  # before and after add up
        (["db", "stats", "-vv"], logging.DEBUG, False),
        (["-q", "db", "stats"], logging.ERROR, True),
        (["db", "stats", "--quiet"], logging.ERROR, True),
        (["--log-level", "debug", "db", "stats", "-q"], logging.DEBUG, True),
        (
            ["--log-level", "debug", "db", "stats", "--log-level", "critical"],
            logging.CRITICAL,
            False,
        ),
    ],
)
def test_the_options_add_up_to_one_level(argv: list[str], level: int, quiet: bool) -> None:
    output = resolve(build_parser().parse_args(argv))
    assert (output.level, output.quiet) == (level, quiet)


def test_an_unknown_log_level_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    err = usage_error(capsys, "db", "stats", "--log-level", "loud")
    assert "invalid choice: 'loud'" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--port", "99999"], "--port: expected a port number (1–65535), got 99999"),
        (["serve", "--port", "0"], "--port: expected a port number (1–65535), got 0"),
        (["serve", "--port", "http"], "--port: expected a port number (1–65535), got 'http'"),
        (["serve", "--workers", "0"], "--workers: expected a number of workers (1 or more)"),
        (["neo4j", "start", "--bolt-port", "65536"], "--bolt-port: expected a port number"),
        (["demo", "--papers", "0"], "--papers: expected a number of papers (1–1000000), got 0"),
        (["demo", "--papers", "-5"], "--papers: expected a number of papers"),
        (["load", "arxiv", "--chunk-size", "0"], "--chunk-size: expected a number of records"),
        (["researchers", "why", "1", "--limit", "0"], "--limit: expected a number of papers"),
    ],
)
def test_numbers_out_of_range_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = usage_error(capsys, *argv)
    assert message in err
    assert err.splitlines()[0].startswith("usage: scholargraph")


def test_serve_on_a_port_past_65535_exits_2_before_anything_starts(tmp_path: Path) -> None:
    done = scholargraph(
        Settings(neo4j_uri="bolt://127.0.0.1:1"), "serve", "--port", "99999", home=str(tmp_path)
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines()[-1] == (
        "scholargraph serve: error: argument --port: expected a port number (1–65535), got 99999"
    )


def test_a_port_in_range_is_what_the_server_is_given() -> None:
    args = build_parser().parse_args(["serve", "--port", "65535", "--workers", "2"])
    assert (args.port, args.workers) == (65535, 2)


def test_bash_completion_completes_commands_and_options(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scholargraph", "completion", "bash"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    script = tmp_path / "scholargraph.bash"
    script.write_text(done.stdout)

    def complete(*words: str) -> list[str]:
        line = " ".join(f'"{w}"' for w in words)
        program = (
            f"source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
            '_shtab_scholargraph; printf "%s\\n" "${COMPREPLY[@]}"'
        )
        out = subprocess.run(
            ["bash", "-c", program], capture_output=True, text=True, timeout=60, check=True
        )
        return out.stdout.split()

    assert complete("scholargraph", "d") == ["db", "demo"]
    assert complete("scholargraph", "db", "") == ["init", "stats", "analyze", "embed"]
    assert "--port" in complete("scholargraph", "serve", "--p")
    assert "--log-level" in complete("scholargraph", "db", "stats", "--log")


def test_an_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert "invalid choice: 'fish'" in usage_error(capsys, "completion", "fish")


def test_a_malformed_source_url_is_one_line_and_status_1(tmp_path: Path) -> None:
    settings = Settings(neo4j_uri="bolt://127.0.0.1:1")
    done = scholargraph(
        settings, "load", "openalex", "--ids", "10.1/x", home=str(tmp_path),
        SCHOLARGRAPH_OPENALEX_API_URL="api.openalex.org",
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: SCHOLARGRAPH_OPENALEX_API_URL='api.openalex.org' must be an http:// or "
        "https:// URL, e.g. https://api.openalex.org"
    ]


# With the test session's Neo4j --------------------------------------------------------------


def bar_counts(stderr: str) -> list[tuple[int, str]]:
    """Every ``done/total`` a progress bar drew."""
    return [(int(d.replace(",", "")), t) for d, t in re.findall(r"([\d,]+)/([\d,]+|\?)", stderr)]


@pytest.mark.usefixtures("db")
def test_the_demo_bar_knows_its_total_and_quiet_hides_it(
    schema_ready: Settings, tmp_path: Path
) -> None:
    total = demo_records(write_demo_files(tmp_path / "demo", papers=120, seed=3))
    shown = scholargraph(schema_ready, "demo", "--papers", "120", "--seed", "3", home=str(tmp_path))
    assert shown.returncode == 0, shown.stderr
    assert (total, f"{total:,}") in bar_counts(shown.stderr), shown.stderr
    assert "/?" not in shown.stderr
    assert "papers created" in shown.stdout

    quiet = scholargraph(
        schema_ready, "-q", "demo", "--papers", "120", "--seed", "3", home=str(tmp_path)
    )
    assert quiet.returncode == 0, quiet.stderr
    assert (quiet.stdout, quiet.stderr) == ("", "")

    as_json = scholargraph(
        schema_ready, "demo", "--papers", "120", "--seed", "3", "--json", home=str(tmp_path)
    )
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert report["loaded"] is True
    assert set(report["sources"]) == {"ror", "openalex", "s2", "arxiv"}
    assert sum(s["records"] for s in report["sources"].values()) >= total

    again = scholargraph(
        schema_ready, "demo", "--papers", "120", "--seed", "3", "--if-empty", "--json",
        home=str(tmp_path),
    )  # fmt: skip
    assert json.loads(again.stdout) == {
        "loaded": False,
        "reason": "the graph already holds papers",
    }


@pytest.mark.usefixtures("db")
def test_a_file_load_bar_counts_to_the_files_records(
    schema_ready: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "s2"
    folder.mkdir()
    lines = [
        {
            "corpusid": 9000 + n,
            "title": f"Paper {n}",
            "year": 2020,
            "externalids": {"DOI": f"10.5555/bar.{n}"},
            "authors": [{"authorId": str(700 + n), "name": f"Ada Lovelace{n}"}],
        }
        for n in range(7)
    ]
    (folder / "papers-00001.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (folder / "README.txt").write_text("not data\n")
    done = scholargraph(
        schema_ready, "load", "s2", "--files", str(folder), "--chunk-size", "3", home=str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert (7, "7") in bar_counts(done.stderr), done.stderr
    quiet = scholargraph(
        schema_ready, "load", "s2", "--files", str(folder), "--restart", "--quiet",
        home=str(tmp_path),
    )  # fmt: skip
    assert quiet.stdout == ""
    assert bar_counts(quiet.stderr) == []


@pytest.mark.usefixtures("db")
def test_every_reporting_command_prints_json_and_nothing_else(
    schema_ready: Settings, tmp_path: Path
) -> None:
    home = str(tmp_path)
    loaded = scholargraph(schema_ready, "demo", "--papers", "40", "--seed", "9", home=home)
    assert loaded.returncode == 0, loaded.stderr

    async def two_researchers() -> list[int]:
        async with Database.connect(schema_ready) as db:
            page = await researcher_index(db, "papers", 1, 2)
        return [r.id for r in page.items]

    first, second = asyncio.run(two_researchers())
    runs = {
        ("db", "init"): {"uri": schema_ready.uri, "schema": "installed"},
        ("db", "analyze"): {"uri": schema_ready.uri, "statistics": "resampled", "plans": "dropped"},
        ("neo4j", "install"): {"uri": schema_ready.uri, "local": False, "neo4j_home": None},
        ("neo4j", "start"): {"uri": schema_ready.uri, "local": False, "running": True},
        ("neo4j", "status"): {"uri": schema_ready.uri, "local": False, "running": True},
        ("neo4j", "stop"): {"uri": schema_ready.uri, "local": False, "running": True},
    }
    for command, expected in runs.items():
        done = scholargraph(schema_ready, *command, "--json", home=home)
        assert done.returncode == 0, (command, done.stderr)
        assert json.loads(done.stdout) == expected, command

    stats = scholargraph(schema_ready, "-q", "db", "stats", "--json", home=home)
    assert json.loads(stats.stdout)["nodes"]["Paper"] == 40

    why = scholargraph(schema_ready, "researchers", "why", str(first), "--json", home=home)
    assert json.loads(why.stdout)["researcher"]["id"] == first

    decided = scholargraph(
        schema_ready, "researchers", "distinct", str(first), str(second),
        "--reason", "different people", "--actor", "curator:test", "--json", home=home,
    )  # fmt: skip
    assert decided.returncode == 0, decided.stderr
    event = json.loads(decided.stdout)
    assert event["kind"] == "distinct" and event["actor"] == "curator:test"
    assert {r["researcher"] for r in event["roles"]} == {first, second}

    out = tmp_path / "graph.gexf"
    exported = scholargraph(
        schema_ready, "export", "--format", "gexf", "--output", str(out), "--json", home=home
    )
    assert exported.returncode == 0, exported.stderr
    summary = json.loads(exported.stdout)
    assert summary["files"] == [str(out)] and summary["researchers"] > 0 and out.exists()
    both = scholargraph(schema_ready, "export", "--output", "-", "--json", home=home)
    assert both.returncode == 2 and "leave out --json" in both.stderr

    embedded = scholargraph(schema_ready, "db", "embed", "--json", home=home)
    assert json.loads(embedded.stdout)["papers_embedded"] == 0
