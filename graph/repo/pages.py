"""Keyset pagination: opaque cursors and pages.

A cursor is the sort key of the last item seen, tagged with the list it belongs to, as
URL-safe base64 of JSON. The next page asks the database for items after that key, so a page
costs the same however deep it is, and items inserted meanwhile neither repeat nor vanish.

>>> cursor = encode_cursor("coauthors", 3, 2004394)
>>> decode_cursor(cursor, "coauthors")
[3, 2004394]
>>> decode_cursor(cursor, "papers:newest")
Traceback (most recent call last):
...
scholargraph.graph.errors.BadInput: the cursor 'WyJjb2F1dGhvcnMiLDMsMjAwNDM5NF0' \
belongs to another list (coauthors); pass back an endCursor of this very field
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import orjson

from scholargraph.graph.errors import BadInput

T = TypeVar("T")
U = TypeVar("U")
MAX_CURSOR_CHARS = 1000  # ours are under 200
_INT64 = range(-(2**63), 2**63)


def encode_cursor(tag: str, *key: Any) -> str:
    raw = json.dumps([tag, *key], separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, tag: str, arity: int = 2) -> list[Any]:
    """The sort key inside ``cursor``; :class:`BadInput` when it is not one of ``tag``'s.

    A key holds only what the database can take back: strings of Unicode text, finite
    numbers, integers of 64 bits.
    """
    not_a_cursor = BadInput(
        f"{_shown(cursor)} is not a cursor; pass back an endCursor this API returned"
    )
    if len(cursor) > MAX_CURSOR_CHARS:
        raise not_a_cursor
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = orjson.loads(base64.urlsafe_b64decode(padded.encode()))
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise not_a_cursor from None
    if not isinstance(values, list) or not values or not isinstance(values[0], str):
        raise not_a_cursor
    if not all(_is_key_part(value) for value in values[1:]):
        raise not_a_cursor
    if values[0] != tag:
        raise BadInput(
            f"the cursor {cursor!r} belongs to another list ({values[0]}); pass back an "
            f"endCursor of this very field"
        )
    if len(values) != arity + 1:
        raise not_a_cursor
    return values[1:]


def _is_key_part(value: Any) -> bool:
    if value is None or isinstance(value, bool | str):
        return True
    if isinstance(value, int):
        return value in _INT64
    return isinstance(value, float) and math.isfinite(value)


def _shown(cursor: str) -> str:
    return repr(cursor) if len(cursor) <= 60 else f"{cursor[:60]!r}… ({len(cursor):,} characters)"


@dataclass(frozen=True, slots=True)
class PageRequest:
    """``first`` items after the cursor ``after`` (``None``: from the start); ``backward``,
    the ``first`` items just before the cursor ``before`` (``None``: the end of the list)."""

    first: int
    after: str | None = None
    before: str | None = None
    backward: bool = False

    def __post_init__(self) -> None:
        if self.first < 0:
            raise BadInput(f"first must be 0 or more, not {self.first}")

    @property
    def fetch(self) -> int:
        """Rows to ask for: one more than the page, to learn whether another page follows."""
        return self.first + 1


@dataclass(frozen=True, slots=True)
class Edge(Generic[T]):
    cursor: str
    node: T


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    edges: list[Edge[T]]
    has_next: bool
    has_previous: bool
    total: int | None = field(default=None)

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[U],
        request: PageRequest,
        *,
        make: Callable[[U], T],
        cursor: Callable[[U], str],
        total: int | None = None,
    ) -> Page[T]:
        kept = list(rows[: request.first])
        more = len(rows) > request.first
        if request.backward:
            # asked for in reverse order, nearest the cursor first
            kept.reverse()
        return cls(
            edges=[Edge(cursor(row), make(row)) for row in kept],
            has_next=request.before is not None if request.backward else more,
            has_previous=more if request.backward else request.after is not None,
            total=total,
        )

    @property
    def nodes(self) -> list[T]:
        return [edge.node for edge in self.edges]
