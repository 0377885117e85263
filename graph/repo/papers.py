"""Paper lists: filters, two sort orders, keyset pages; and the authors of papers."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo.models import Author, AuthoredPaper, Authorship, Paper, Researcher, Row
from scholargraph.graph.repo.pages import Page, PageRequest, decode_cursor, encode_cursor
from scholargraph.queries import read_papers as q

PaperSort = Literal["newest", "cited"]


@dataclass(frozen=True, slots=True)
class PaperFilter:
    """Papers by a researcher, at an institution (see :mod:`queries.read_papers`), in a
    category (primary or cross-listed) and within a year range; unset fields do not filter."""

    researcher: int | None = None
    institution: int | None = None
    category: str | None = None
    year_from: int | None = None
    year_to: int | None = None

    def __post_init__(self) -> None:
        low, high = self.year_from, self.year_to
        if low is not None and high is not None and low > high:
            raise BadInput(f"yearFrom {low} is after yearTo {high}")

    @property
    def start(self) -> str:
        """Where the query starts: the most selective thing the filter names."""
        if self.researcher is not None:
            return "researcher"
        if self.institution is not None:
            return "institution"
        if self.category is not None:
            return "category"
        return "all"


def _cursor_tag(sort: PaperSort) -> str:
    return f"papers:{sort}"


async def paper_pages(
    db: Database, filters: Sequence[PaperFilter], sort: PaperSort, request: PageRequest
) -> list[Page[AuthoredPaper]]:
    """One page per filter (newest first, or most cited first; ties by key)."""
    if sort not in ("newest", "cited"):
        raise BadInput(f"sort must be newest or cited, not {sort!r}")
    after_sort, after_key = (
        decode_cursor(request.after, _cursor_tag(sort)) if request.after else (None, None)
    )
    pages: list[Page[AuthoredPaper] | None] = [None] * len(filters)
    for start, group in _by_start(filters).items():
        rows = [
            {**asdict(filters[i]), "index": i, "after_sort": after_sort, "after_key": after_key}
            for i in group
        ]
        result = await db.run(
            q.PAGES[start], {"filters": rows, "sort": sort, "limit": request.fetch}
        )
        for row in result:
            pages[row["index"]] = Page.from_rows(
                row["rows"], request, make=_authored, cursor=lambda r: _cursor(sort, r)
            )
    return [page if page is not None else _empty(request) for page in pages]


async def paper_counts(db: Database, filters: Sequence[PaperFilter]) -> list[int]:
    counts = [0] * len(filters)
    for start, group in _by_start(filters).items():
        rows = [{**asdict(filters[i]), "index": i} for i in group]
        for row in await db.run(q.COUNTS[start], {"filters": rows}):
            counts[row["index"]] = row["total"]
    return counts


def _by_start(filters: Sequence[PaperFilter]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for index, paper_filter in enumerate(filters):
        groups[paper_filter.start].append(index)
    return groups


def _authored(row: Row) -> AuthoredPaper:
    authorship = row.get("authorship")
    return AuthoredPaper(
        Paper.from_row(row["paper"]), Authorship.from_row(authorship) if authorship else None
    )


def _cursor(sort: PaperSort, row: Row) -> str:
    return encode_cursor(_cursor_tag(sort), row["sort"], row["paper"]["key"])


def _empty(request: PageRequest) -> Page[Any]:
    return Page(edges=[], has_next=False, has_previous=request.after is not None)


async def author_pages(
    db: Database, keys: Sequence[str], request: PageRequest, *, brief: bool = False
) -> dict[str, Page[Author]]:
    """The matched authors of each paper in author order (a page after a cursor, or before
    one when the request pages backward). ``brief``: each author's id, name and slug only
    (the rest of the :class:`Researcher` is its defaults), for callers that show no more."""
    if request.backward:
        (before,) = decode_cursor(request.before, "authors", arity=1) if request.before else (None,)
        params = {"keys": list(keys), "before": before, "limit": request.fetch}
        rows = await db.run(
            q.BRIEF_AUTHOR_PAGES_BACKWARD if brief else q.AUTHOR_PAGES_BACKWARD, params
        )
    else:
        (after,) = decode_cursor(request.after, "authors", arity=1) if request.after else (None,)
        params = {"keys": list(keys), "after": after, "limit": request.fetch}
        rows = await db.run(q.BRIEF_AUTHOR_PAGES if brief else q.AUTHOR_PAGES, params)

    def make(row: Row) -> Author:
        return Author(
            Researcher.from_row(row["researcher"]), Authorship.from_row(row["authorship"])
        )

    def cursor(row: Row) -> str:
        return encode_cursor("authors", row["authorship"]["position"])

    return {
        row["key"]: Page.from_rows(
            row["rows"], request, make=make, cursor=cursor, total=row["total"]
        )
        for row in rows
    }
