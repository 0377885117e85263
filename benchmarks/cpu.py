"""CPU time a process and all its descendants have used, read from ``/proc`` (Linux).

A server's CPU per request is what bounds its throughput on a machine of few cores: with
``n`` cores shared by the API, Neo4j and the clients, requests a second cannot pass
``n`` divided by the CPU seconds they cost in all three.
"""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
PROC = Path("/proc")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, user + system CPU seconds) of a live process, or None."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # the command name sits in parentheses and may hold spaces; the fields follow it
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by ``pid`` and every live descendant of it."""
    parents: dict[int, list[int]] = {}
    used: dict[int, float] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        found = _stat(int(entry.name))
        if found is not None:
            parents.setdefault(found[0], []).append(int(entry.name))
            used[int(entry.name)] = found[1]
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += used.get(current, 0.0)
        todo += parents.get(current, [])
    return total
