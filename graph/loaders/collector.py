"""A batch's write with CPython's cyclic garbage collector held off.

A batch builds and drops hundreds of thousands of small objects (records, slots, planned
rows, the driver's messages). Every so many allocations the collector walks the objects
alive, and its oldest generation holds everything the process keeps (caches, an index of
the store's institutions): a 5,000-author paper spent about a third of its Python time
collecting. A batch's own objects are freed by reference counting when it ends, so nothing
waits for a collection; the collector resumes once the last batch in flight is done.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


class _Hold:
    """How many batches hold the collector off, and whether it ran before the first."""

    def __init__(self) -> None:
        self.depth = 0
        self.was_enabled = False


_HOLD = _Hold()


@contextmanager
def collector_held() -> Iterator[None]:
    """Hold the collector off for the block; batches may nest or run at once."""
    if _HOLD.depth == 0:
        _HOLD.was_enabled = gc.isenabled()
        gc.disable()
    _HOLD.depth += 1
    try:
        yield
    finally:
        _HOLD.depth -= 1
        if _HOLD.depth == 0 and _HOLD.was_enabled:
            gc.enable()
