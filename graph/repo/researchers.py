"""What a researcher page shows, for many researchers at once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scholargraph.graph.db import Database
from scholargraph.graph.repo.models import (
    Affiliation,
    Coauthorship,
    Institution,
    Paper,
    Researcher,
    Row,
)
from scholargraph.graph.repo.pages import Page, PageRequest, decode_cursor, encode_cursor
from scholargraph.queries import read_researchers as q


@dataclass(frozen=True, slots=True)
class AuthorPositions:
    """Where a researcher stands on their author lists.

    ``first``, ``middle``, ``last`` and ``solo`` count the ``matched`` papers (every author
    slot linked to a researcher, so the position is known) whose author list is not in
    alphabetical order; ``alphabetical`` counts the matched papers whose list is, since there
    the position says nothing about the contribution. So ``first + middle + last + solo +
    alphabetical == matched <= papers``.
    """

    papers: int
    matched: int
    first: int
    middle: int
    last: int
    solo: int
    alphabetical: int


@dataclass(frozen=True, slots=True)
class FieldCount:
    """Papers of a researcher in one arXiv category (``primary_papers``: as primary)."""

    code: str
    papers: int
    primary_papers: int


@dataclass(frozen=True, slots=True)
class IdentifierLink:
    """An external author id merged into a researcher, with how it came to be."""

    key: str
    scheme: str
    value: str
    method: str | None
    source: str | None


@dataclass(frozen=True, slots=True)
class Profile:
    positions: AuthorPositions
    fields: tuple[FieldCount, ...]
    identifiers: tuple[IdentifierLink, ...]
    merged_from: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MostCited:
    """The most-cited papers, and the coverage of citation counts: ``citations`` in total
    across the ``counted`` of the researcher's ``papers`` that have a count."""

    papers: tuple[Paper, ...]
    counted: int
    citations: int
    total: int


async def profiles(db: Database, researcher_ids: Sequence[int]) -> dict[int, Profile]:
    rows = await db.run(q.PROFILES, {"ids": list(researcher_ids)})
    return {row["id"]: _profile(row) for row in rows}


def _profile(row: Row) -> Profile:
    positions = AuthorPositions(
        papers=row["papers"],
        matched=row["matched"],
        first=row["first"],
        middle=row["middle"],
        last=row["last"],
        solo=row["solo"],
        alphabetical=row["alphabetical"],
    )
    return Profile(
        positions=positions,
        fields=tuple(
            FieldCount(f["code"], f["papers"], f["primary_papers"]) for f in row["fields"]
        ),
        identifiers=tuple(
            IdentifierLink(i["key"], i["scheme"], i["value"], i.get("method"), i.get("source"))
            for i in sorted(row["identifiers"], key=lambda i: i["key"])
        ),
        merged_from=tuple(sorted(row["merged_from"])),
    )


async def most_cited(
    db: Database, researcher_ids: Sequence[int], limit: int
) -> dict[int, MostCited]:
    rows = await db.run(q.MOST_CITED, {"ids": list(researcher_ids), "limit": limit})
    return {
        row["id"]: MostCited(
            papers=tuple(Paper.from_row(p) for p in row["papers"]),
            counted=row["counted"],
            citations=row["citations"] or 0,
            total=row["total"],
        )
        for row in rows
    }


async def coauthor_pages(
    db: Database, researcher_ids: Sequence[int], request: PageRequest, min_joint_papers: int = 1
) -> dict[int, Page[Coauthorship]]:
    """Coauthors, most joint papers first (ties by id)."""
    after_joint, after_id = (
        decode_cursor(request.after, "coauthors") if request.after else (None, None)
    )
    rows = await db.run(
        q.COAUTHOR_PAGES,
        {
            "ids": list(researcher_ids),
            "limit": request.fetch,
            "min_joint": min_joint_papers,
            "after_joint": after_joint,
            "after_id": after_id,
        },
    )

    def make(row: Row) -> Coauthorship:
        return Coauthorship(
            Researcher.from_row(row["researcher"]),
            row["joint_papers"],
            row["first_year"],
            row["last_year"],
        )

    def cursor(row: Row) -> str:
        return encode_cursor("coauthors", row["joint_papers"], row["researcher"]["id"])

    return {
        row["id"]: Page.from_rows(
            row["rows"], request, make=make, cursor=cursor, total=row["total"]
        )
        for row in rows
    }


async def affiliation_pages(
    db: Database, researcher_ids: Sequence[int], request: PageRequest
) -> dict[int, Page[Affiliation]]:
    """Institutions, most recent last year first; one edge per institution."""
    after_sort, after_id = (
        decode_cursor(request.after, "affiliations") if request.after else (None, None)
    )
    rows = await db.run(
        q.AFFILIATION_PAGES,
        {
            "ids": list(researcher_ids),
            "limit": request.fetch,
            "after_sort": after_sort,
            "after_id": after_id,
        },
    )

    def make(row: Row) -> Affiliation:
        return Affiliation(
            Institution.from_row(row["institution"]),
            tuple(sorted(s for s in row["sources"] if s)),
            row["first_year"],
            row["last_year"],
            row["method"],
            row["score"],
        )

    def cursor(row: Row) -> str:
        return encode_cursor("affiliations", row["sort"], row["institution"]["id"])

    return {
        row["id"]: Page.from_rows(
            row["rows"], request, make=make, cursor=cursor, total=row["total"]
        )
        for row in rows
    }


async def member_pages(
    db: Database, institution_ids: Sequence[int], request: PageRequest
) -> dict[int, Page[Researcher]]:
    """Researchers affiliated with an institution, most papers first."""
    after_papers, after_id = (
        decode_cursor(request.after, "members") if request.after else (None, None)
    )
    rows = await db.run(
        q.MEMBER_PAGES,
        {
            "ids": list(institution_ids),
            "limit": request.fetch,
            "after_papers": after_papers,
            "after_id": after_id,
        },
    )

    def cursor(row: Row) -> str:
        return encode_cursor("members", row.get("paper_count") or 0, row["id"])

    return {
        row["id"]: Page.from_rows(
            row["rows"], request, make=Researcher.from_row, cursor=cursor, total=row["total"]
        )
        for row in rows
    }
