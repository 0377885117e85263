"""The options every command takes, before or after its name, and what they set.

``-q``/``--quiet`` hides progress bars and status lines; ``-v``/``--verbose`` (repeatable)
turns logging up a step each time; ``--log-level`` names the level outright and wins over
both. Output a command was asked for (a table, ``--json``) and errors and warnings are
always shown.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from rich.console import Console

from scholargraph.graph.errors import BadInput, ConfigError
from scholargraph.graph.memory import parse_size

LEVELS = ("debug", "info", "warning", "error", "critical")
# Options given after the command name land under these names: argparse would otherwise let
# the subcommand's defaults overwrite what was given before it.
_AFTER = "_after"


def add_global_options(parser: argparse.ArgumentParser, *, after: bool = False) -> None:
    suffix = _AFTER if after else ""
    default: object = argparse.SUPPRESS if after else None
    group = parser.add_argument_group("output")
    group.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        dest=f"quiet{suffix}",
        default=default if after else False,
        help="no progress bars or status lines; errors and warnings still go to stderr",
    )
    group.add_argument(
        "-v",
        "--verbose",
        action="count",
        dest=f"verbose{suffix}",
        default=default if after else 0,
        help="log more: -v info, -vv debug",
    )
    group.add_argument(
        "--log-level",
        type=str.lower,
        choices=LEVELS,
        dest=f"log_level{suffix}",
        default=default,
        metavar="LEVEL",
        help=f"logging level, one of {', '.join(LEVELS)} (default warning)",
    )


def add_to_every_command(parser: argparse.ArgumentParser) -> None:
    """The global options on each leaf command too, so they may follow its name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                if any(isinstance(a, argparse._SubParsersAction) for a in child._actions):
                    add_to_every_command(child)
                else:
                    add_global_options(child, after=True)


@dataclass(frozen=True)
class Output:
    quiet: bool
    level: int
    chosen: bool  # a level asked for, by -v or --log-level (else the default)


def resolve(args: argparse.Namespace) -> Output:
    """What the options given before and after the command name add up to; sets
    ``args.quiet`` for the commands."""
    quiet = bool(args.quiet or getattr(args, f"quiet{_AFTER}", False))
    verbose = int(args.verbose) + int(getattr(args, f"verbose{_AFTER}", 0))
    named = getattr(args, f"log_level{_AFTER}", None) or args.log_level
    if named:
        level = logging.getLevelNamesMapping()[named.upper()]
    elif verbose:
        level = logging.DEBUG if verbose > 1 else logging.INFO
    else:
        level = logging.ERROR if quiet else logging.WARNING
    args.quiet = quiet
    return Output(quiet=quiet, level=level, chosen=bool(named or verbose))


def configure_logging(output: Output) -> None:
    root = logging.getLogger()
    root.setLevel(output.level)
    if not root.handlers:  # a host that set up logging (a notebook, a test) keeps its own
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    # The driver logs each retry of a lost connection; the command says it once. Its
    # own messages show only when debugging.
    driver = logging.DEBUG if output.level <= logging.DEBUG else logging.ERROR
    logging.getLogger("neo4j").setLevel(driver)


def uvicorn_level(output: Output) -> str:
    """The server's own log: its start line and access log (info) unless told otherwise."""
    if not output.chosen and not output.quiet:
        return "info"
    return logging.getLevelName(output.level).lower()


def status(args: argparse.Namespace) -> Console:
    """Where status lines go: stdout, or nowhere under ``--quiet`` or ``--json``."""
    return Console(quiet=bool(args.quiet or getattr(args, "json", False)))


def print_json(payload: object) -> None:
    """The one thing a ``--json`` command writes on stdout."""
    sys.stdout.write(json.dumps(payload, default=str, ensure_ascii=False) + "\n")


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def port(text: str) -> int:
    """A TCP port, 1–65535."""
    return _bounded(text, 1, 65535, "a port number")


def memory_size(text: str) -> str:
    """A JVM-style memory size (512m, 4g), kept as written."""
    try:
        parse_size(text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def at_least(minimum: int, what: str = "a whole number") -> Callable[[str], int]:
    def parse(text: str) -> int:
        return _bounded(text, minimum, None, what)

    parse.__name__ = what
    return parse


def between(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    def parse(text: str) -> int:
        return _bounded(text, low, high, what)

    parse.__name__ = what
    return parse


def _bounded(text: str, low: int, high: int | None, what: str) -> int:
    span = f"{low}–{high}" if high is not None else f"{low} or more"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what} ({span}), got {text!r}") from None
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"expected {what} ({span}), got {value}")
    return value


def optional_date(text: str | None, option: str) -> date | None:
    """The date an option gives (``YYYY-MM-DD``), or ``None`` when it is not given."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise BadInput(f"{option} {text!r} is not a date; expected YYYY-MM-DD") from None
