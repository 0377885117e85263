"""Reads only the reference site makes: the researcher and institution indexes, the keys its
sitemaps list, the entities nearest to an address that names none, and the graph's state.

Everything a page shows of one entity comes from the repositories the API uses
(:mod:`graph.repo.entities`, :mod:`graph.repo.researchers`, :mod:`graph.repo.papers`, …);
these are the lists no API field gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Generic, Literal, TypeVar

from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo.models import Institution, Paper, Researcher
from scholargraph.queries import read_entities
from scholargraph.queries import read_site as q

T = TypeVar("T")
ResearcherSort = Literal["papers", "citations", "name"]
InstitutionSort = Literal["researchers", "name"]
SitemapKind = Literal["researchers", "papers", "institutions"]
RESEARCHER_SORTS: tuple[ResearcherSort, ...] = ("papers", "citations", "name")
INSTITUTION_SORTS: tuple[InstitutionSort, ...] = ("researchers", "name")
SITEMAP_KINDS: tuple[SitemapKind, ...] = ("researchers", "papers", "institutions")


@dataclass(frozen=True, slots=True)
class NumberedPage(Generic[T]):
    """Page ``number`` (from 1) of a list of ``total`` items, ``size`` a page."""

    items: tuple[T, ...]
    number: int
    size: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))


@dataclass(frozen=True, slots=True)
class InstitutionCount:
    institution: Institution
    researchers: int


def _check_page(number: int, size: int) -> None:
    if number < 1:
        raise BadInput(f"page must be 1 or more, not {number}")
    if not 1 <= size <= 200:
        raise BadInput(f"a page holds 1 to 200 items, not {size}")


async def researcher_index(
    db: Database, sort: ResearcherSort, number: int, size: int
) -> NumberedPage[Researcher]:
    """Researchers (merged-away records aside), most papers, most citations or by name."""
    if sort not in RESEARCHER_SORTS:
        raise BadInput(f"sort researchers by {', '.join(RESEARCHER_SORTS)}, not {sort!r}")
    _check_page(number, size)
    rows = await db.run(q.RESEARCHER_INDEX[sort], {"skip": (number - 1) * size, "limit": size})
    row = rows[0]
    items = tuple(Researcher.from_row(r) for r in row["rows"])
    return NumberedPage(items, number, size, row["total"])


async def institution_index(
    db: Database, sort: InstitutionSort, number: int, size: int
) -> NumberedPage[InstitutionCount]:
    """Institutions, most affiliated researchers first or by name."""
    if sort not in INSTITUTION_SORTS:
        raise BadInput(f"sort institutions by {', '.join(INSTITUTION_SORTS)}, not {sort!r}")
    _check_page(number, size)
    rows = await db.run(q.INSTITUTION_INDEX[sort], {"skip": (number - 1) * size, "limit": size})
    row = rows[0]
    items = tuple(
        InstitutionCount(Institution.from_row(r["institution"]), r["members"]) for r in row["rows"]
    )
    return NumberedPage(items, number, size, row["total"])


@dataclass(frozen=True, slots=True)
class SitemapChunks:
    """How a kind's sitemap is cut: ``total`` entities, chunk ``k`` holding those after
    ``afters[k]`` (``None`` for the first chunk), ``size`` at most."""

    kind: SitemapKind
    total: int
    size: int
    afters: tuple[int | str | None, ...]


async def sitemap_chunks(db: Database, kind: SitemapKind, size: int) -> SitemapChunks:
    if size < 1:
        raise BadInput(f"a sitemap chunk holds at least one URL, not {size}")
    rows = await db.run(q.SITEMAP_CHUNKS[kind], {"size": size})
    total = rows[0]["total"] if rows else 0
    afters = (None, *rows[0]["afters"]) if total else ()
    return SitemapChunks(kind, total, size, afters)


@dataclass(frozen=True, slots=True)
class SitemapEntry:
    """One URL of a sitemap: the entity's key, its slug or title, and when it last changed
    when the graph knows (a paper's latest version)."""

    key: int | str
    name: str
    modified: date | None


_SITEMAP_READS = {
    "researchers": (q.SITEMAP_RESEARCHERS, 0),
    "papers": (q.SITEMAP_PAPERS, ""),
    "institutions": (q.SITEMAP_INSTITUTIONS, 0),
}


async def sitemap_slice(
    db: Database, kind: SitemapKind, after: int | str | None, limit: int
) -> list[SitemapEntry]:
    """The next ``limit`` entities of a kind after the key ``after``, in key order."""
    query, start = _SITEMAP_READS[kind]
    rows = await db.run_rows(query, {"after": start if after is None else after, "limit": limit})
    return [
        SitemapEntry(
            row["key"],
            row.get("slug") or row.get("title") or "",
            date.fromisoformat(row["modified"]) if row.get("modified") else None,
        )
        for row in rows
    ]


async def nearest_researchers(db: Database, researcher_id: int, limit: int = 2) -> list[Researcher]:
    """Researchers whose ids sit nearest to one that names nobody, nearest first."""
    rows = await db.run_rows(q.NEAREST_RESEARCHERS, {"id": researcher_id, "limit": limit})
    return [Researcher.from_row(r) for r in rows]


async def nearest_papers(db: Database, key: str, limit: int = 2) -> list[Paper]:
    """Papers whose keys sort just before and after one that names none."""
    rows = await db.run_rows(q.NEAREST_PAPERS, {"key": key, "limit": limit})
    return [Paper.from_row(r) for r in rows]


async def nearest_institutions(
    db: Database, institution_id: int, limit: int = 2
) -> list[Institution]:
    rows = await db.run_rows(q.NEAREST_INSTITUTIONS, {"id": institution_id, "limit": limit})
    return [Institution.from_row(r) for r in rows]


async def paper_by_key(db: Database, key: str) -> Paper | None:
    """A paper by its key exactly as stored, whatever form it has (a key that is no arXiv id
    form a reader would type still has its page)."""
    rows = await db.run(read_entities.PAPER_BY_ID, {"key": key, "doi": None})
    return Paper.from_row(rows[0]["paper"]) if rows else None


async def graph_state(db: Database) -> frozenset[str]:
    """The bookmark of the graph as it is now: it changes whenever a write lands."""
    _, bookmark = await db.run_seen(q.GRAPH_STATE)
    return bookmark
