"""Stable names for live load chunks.

A load's checkpoint skips chunks by name, so a name must come out the same every time the
same command runs: it is built from what was asked (the source, the mode, the ids or the
query) and the chunk's place in the walk, never from the time or from what came back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from scholargraph.graph.records import Batch, Rejection


def ids_digest(ids: Iterable[str]) -> str:
    """Twelve hex digits telling one request's ids, in order, from another's.

    >>> ids_digest(["2301.08658", "2401.00001"])
    '070b8a431852'
    """
    return hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()[:12]


def unique(items: Iterable[str]) -> list[str]:
    """``items`` without repeats, first occurrence kept."""
    return list(dict.fromkeys(items))


def unreadable_chunk(source: str, rejected: list[Rejection]) -> tuple[str, Batch]:
    """The chunk that reports ids set aside before any request, named by those ids."""
    return f"{source}:unreadable:{ids_digest(r.ref for r in rejected)}", Batch(rejected=rejected)
