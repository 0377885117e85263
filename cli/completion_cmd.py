"""``scholargraph completion bash|zsh|tcsh`` — a shell completion script, from the parser."""

from __future__ import annotations

import argparse
import sys

import shtab

from scholargraph.graph.config import Settings

SHELLS = ("bash", "zsh", "tcsh")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description=(
            "Print a completion script for SHELL. bash: "
            'eval "$(scholargraph completion bash)" in ~/.bashrc; zsh: '
            "scholargraph completion zsh > ~/.zfunc/_scholargraph (a folder on $fpath)."
        ),
    )
    parser.add_argument("shell", choices=SHELLS)
    parser.set_defaults(run=_completion)


def _completion(args: argparse.Namespace, settings: Settings) -> int:
    from scholargraph.cli.main import build_parser

    sys.stdout.write(shtab.complete(build_parser(), shell=args.shell))
    return 0
