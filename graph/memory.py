"""The local Neo4j's heap and page cache, planned from the machine's memory when not set.

Neo4j's own guidance (Operations Manual, *Memory configuration*): the heap's initial size
equal to its maximum, and at most 31 GiB so the JVM keeps compressed object pointers; the
page cache the size of the store plus room for it to grow, so that reads come from memory;
the rest for the operating system and the machine's other processes. Here those are
scholargraph's own: a loader (its batches and identity state) and the API workers, which map
one shared coauthor projection between them. The plan, a pure function of total memory and
the store's size::

    total memory
    ├── operating system      10 %, between 1 and 8 GiB
    ├── scholargraph          20 %, between 1 and 16 GiB (loader, API workers, projection)
    └── Neo4j                 the rest ("available"), at least 640 MiB
        ├── heap              40 % of available, between 512 MiB and 31 GiB
        └── page cache        the store + max(half the store, 2 GiB), at most the
                              remainder; the whole remainder when the store's size is
                              unknown or it is empty (a load is about to grow it)

Neo4j takes page-cache memory only as it reads pages, so a page cache larger than the store
costs nothing until the store grows into it. Set ``SCHOLARGRAPH_NEO4J_HEAP`` or
``SCHOLARGRAPH_NEO4J_PAGECACHE`` (or ``neo4j start --heap/--pagecache``) to choose yourself:
a setting given wins over the plan.

>>> plan = plan_memory(24 * GIB)
>>> plan.heap_setting, plan.pagecache_setting
('6881m', '10322m')
>>> plan_memory(24 * GIB, store=3 * GIB).pagecache_setting
'5g'
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from scholargraph.graph.errors import ConfigError

MIB = 1 << 20
GIB = 1 << 30
MAX_HEAP = 31 * GIB  # above this the JVM loses compressed object pointers
MIN_HEAP = 512 * MIB
MIN_PAGECACHE = 128 * MIB
_SIZE = re.compile(r"(\d+)\s*([kmg]?)b?", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": MIB, "g": GIB}


def parse_size(text: str) -> int:
    """Bytes of a JVM-style size: ``512m``, ``3g``, ``2048k`` or plain bytes.

    >>> parse_size("3g"), parse_size("512M"), parse_size("1024")
    (3221225472, 536870912, 1024)
    """
    found = _SIZE.fullmatch(text.strip())
    if not found:
        raise ConfigError(f"{text!r} is not a memory size; write it as 512m, 4g or 2048k")
    return int(found[1]) * _UNITS[found[2].lower()]


def format_size(size: int) -> str:
    """A size as the JVM and Neo4j read it, in whole GiB where exact, else whole MiB."""
    if size % GIB == 0:
        return f"{size // GIB}g"
    return f"{size // MIB}m"


@dataclass(frozen=True, slots=True)
class MemoryPlan:
    """Bytes for each share of the machine (see the module's tree)."""

    total: int
    system: int
    scholargraph: int
    heap: int
    pagecache: int

    @property
    def heap_setting(self) -> str:
        return format_size(self.heap)

    @property
    def pagecache_setting(self) -> str:
        return format_size(self.pagecache)


def _clamp(value: float, low: int, high: int) -> int:
    return int(min(max(value, low), high))


def plan_memory(total: int, store: int | None = None) -> MemoryPlan:
    """The shares of ``total`` bytes of memory, for a store of ``store`` bytes if known."""
    system = _clamp(total * 0.1, GIB, 8 * GIB)
    ours = _clamp(total * 0.2, GIB, 16 * GIB)
    available = max(total - system - ours, MIN_HEAP + MIN_PAGECACHE)
    heap = _mib(_clamp(available * 0.4, MIN_HEAP, MAX_HEAP))
    rest = max(available - heap, MIN_PAGECACHE)
    if store:
        rest = min(rest, max(store + max(store // 2, 2 * GIB), MIN_PAGECACHE))
    return MemoryPlan(total, system, ours, heap, _mib(rest))


def _mib(size: int) -> int:
    return size - size % MIB


def machine_memory() -> int:
    """Total memory this process may use: the machine's, or its control group's limit."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
    except OSError:
        return total
    return min(total, int(limit)) if limit.isdigit() else total


def store_bytes(data_dir: Path) -> int | None:
    """Bytes of the local server's store files (its databases, not its transaction logs),
    or None when there is no store yet."""
    databases = data_dir / "data" / "databases"
    if not databases.is_dir():
        return None
    return sum(path.stat().st_size for path in databases.rglob("*") if path.is_file())


def server_memory(
    heap: str | None, pagecache: str | None, data_dir: Path, total: int | None = None
) -> tuple[str, str]:
    """The heap and page cache to start the local server with: the settings given, and the
    plan's for the ones left unset."""
    if heap and pagecache:
        return heap, pagecache
    plan = plan_memory(machine_memory() if total is None else total, store_bytes(data_dir))
    return heap or plan.heap_setting, pagecache or plan.pagecache_setting
