"""``neo4j-admin database import full``, run from the jars the local server runs on.

The tool writes a new store into a server home (the folder the launcher is given as
``--home``): ``<home>/data/databases/neo4j``. Nothing may run on that home meanwhile. It is
told to stop at the first bad entry (``--bad-tolerance=0``, ``--strict``): the files come
from a store, so a bad entry is a fault of the files, never data to leave out.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from scholargraph.graph.bulk.fields import ARRAY_DELIMITER
from scholargraph.graph.bulk.files import ImportSet
from scholargraph.graph.errors import BulkError
from scholargraph.graph.localserver.jars import classpath, find_java, install

ADMIN_CLASS = "org.neo4j.cli.AdminTool"
DATABASE = "neo4j"
LOG_FILE = "import.log"
# The tool's own structures are off the heap; its heap holds little.
TOOL_HEAP = "1g"
_DONE = re.compile(r"IMPORT DONE in (.+?)\.\s*$", re.M)


@dataclass(frozen=True, slots=True)
class ImportRun:
    seconds: float
    log: Path


def import_command(neo4j_home: Path, home: Path, files: ImportSet, off_heap: str) -> list[str]:
    delimiter = f"U+{ord(ARRAY_DELIMITER):04X}"
    multiline = (
        [
            "--multiline-fields-format=v2",
            "--multiline-fields=" + ",".join(map(str, files.multiline)),
        ]
        if files.multiline
        else []
    )
    return [
        find_java(),
        f"-Xmx{TOOL_HEAP}",
        "-cp",
        classpath(neo4j_home),
        ADMIN_CLASS,
        "database",
        "import",
        "full",
        DATABASE,  # before the file lists, which take every argument after them
        "--verbose",  # a bad entry's file, line and field, not only "Error in input data"
        "--id-type=integer",
        f"--array-delimiter={delimiter}",
        "--bad-tolerance=0",
        "--strict=true",
        "--overwrite-destination=true",
        f"--max-off-heap-memory={off_heap}",
        f"--report-file={home / 'import.report'}",
        *multiline,
        *(f"--nodes={path}" for path in files.nodes),
        *(f"--relationships={kind}={path}" for kind, path in files.relationships),
    ]


def run_import(
    neo4j_home: Path, home: Path, files: ImportSet, *, off_heap: str = "2g"
) -> ImportRun:
    """Write the files into a new store in ``home``; :class:`BulkError` with the tool's last
    lines if it fails."""
    install(neo4j_home)
    conf = home / "conf"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "neo4j.conf").touch()
    log = home / LOG_FILE
    began = time.perf_counter()
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            import_command(neo4j_home, home, files, off_heap),
            stdout=out,
            stderr=subprocess.STDOUT,
            env=dict(os.environ, NEO4J_HOME=str(home), NEO4J_CONF=str(conf)),
            check=False,
        )
    seconds = time.perf_counter() - began
    text = log.read_text(encoding="utf-8", errors="replace")
    if done.returncode != 0 or not _DONE.search(text):
        raise BulkError(
            f"neo4j-admin database import failed (exit {done.returncode}; all it said is in "
            f"{log}):\n{reason(text)}"
        )
    return ImportRun(seconds, log)


def reason(log: str) -> str:
    """The tool's first cause (file, line, field, error), else its last lines; without
    progress bars and stack frames."""
    lines = [
        line
        for line in log.splitlines()
        if line.strip()
        and ".........." not in line
        and not line.lstrip().startswith(("at ", "..."))
    ]
    first = next((i for i, line in enumerate(lines) if line.startswith("Caused by:")), None)
    if first is None:
        return "\n".join(lines[-15:])
    end = next(
        (i for i in range(first + 1, len(lines)) if lines[i].startswith("Caused by:")), len(lines)
    )
    return "\n".join(lines[first:end])
