"""The entities and relationship facts the read side returns, built from query rows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

Row = Mapping[str, Any]


def _native_date(value: Any) -> date | None:
    if value is None:
        return None
    if isinstance(value, date):
        return value
    native = value.to_native()  # neo4j.time.Date
    assert isinstance(native, date)
    return native


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(value or ())


@dataclass(frozen=True, slots=True)
class CategoryTag:
    code: str
    primary: bool


@dataclass(frozen=True, slots=True)
class Paper:
    key: str
    title: str
    arxiv_id: str | None = None
    doi: str | None = None
    s2_id: str | None = None
    openalex_id: str | None = None
    abstract: str | None = None
    published: date | None = None
    updated: date | None = None
    year: int | None = None
    primary_category: str | None = None
    citation_count: int | None = None
    n_authors: int | None = None
    matched_authors: int = 0
    hyperauthored: bool = False
    alphabetical: bool = False
    versions: int | None = None
    journal_ref: str | None = None
    withdrawn: bool = False
    categories: tuple[CategoryTag, ...] = ()
    sources: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: Row) -> Paper:
        return cls(
            key=row["key"],
            title=row["title"],
            arxiv_id=row.get("arxiv_id"),
            doi=row.get("doi"),
            s2_id=row.get("s2_id"),
            openalex_id=row.get("openalex_id"),
            abstract=row.get("abstract"),
            published=_native_date(row.get("published")),
            updated=_native_date(row.get("updated")),
            year=row.get("year"),
            primary_category=row.get("primary_category"),
            citation_count=row.get("citation_count"),
            n_authors=row.get("n_authors"),
            matched_authors=row.get("matched_authors") or 0,
            hyperauthored=bool(row.get("hyperauthored")),
            alphabetical=bool(row.get("alphabetical")),
            versions=row.get("versions"),
            journal_ref=row.get("journal_ref"),
            withdrawn=bool(row.get("withdrawn")),
            categories=tuple(
                CategoryTag(c["code"], bool(c["primary"])) for c in row.get("categories") or ()
            ),
            sources=_strings(row.get("sources")),
        )


@dataclass(frozen=True, slots=True)
class Researcher:
    id: int
    slug: str
    name: str
    name_key: str | None = None
    orcid: str | None = None
    alt_names: tuple[str, ...] = ()
    s2_ids: tuple[str, ...] = ()
    openalex_ids: tuple[str, ...] = ()
    h_index: int | None = None
    h_index_s2: int | None = None
    h_index_openalex: int | None = None
    paper_count: int = 0
    citation_count: int = 0
    merged_into: int | None = None

    @classmethod
    def from_row(cls, row: Row) -> Researcher:
        return cls(
            id=row["id"],
            slug=row.get("slug") or "",
            name=row["name"],
            name_key=row.get("name_key"),
            orcid=row.get("orcid"),
            alt_names=_strings(row.get("alt_names")),
            s2_ids=_strings(row.get("s2_ids")),
            openalex_ids=_strings(row.get("openalex_ids")),
            h_index=row.get("h_index"),
            h_index_s2=row.get("h_index_s2"),
            h_index_openalex=row.get("h_index_openalex"),
            paper_count=row.get("paper_count") or 0,
            citation_count=row.get("citation_count") or 0,
            merged_into=row.get("merged_into"),
        )

    @property
    def path(self) -> str:
        """The page address, ``/researchers/2004394-ziming-liu``."""
        return f"/researchers/{self.id}-{self.slug}" if self.slug else f"/researchers/{self.id}"


@dataclass(frozen=True, slots=True)
class Institution:
    id: int
    slug: str
    name: str
    ror_id: str | None = None
    openalex_id: str | None = None
    acronyms: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    country_code: str | None = None
    city: str | None = None
    types: tuple[str, ...] = ()
    established: int | None = None
    parents: tuple[int, ...] = ()
    children: tuple[int, ...] = ()

    @classmethod
    def from_row(cls, row: Row, parents: Any = (), children: Any = ()) -> Institution:
        return cls(
            id=row["id"],
            slug=row.get("slug") or "",
            name=row["name"],
            ror_id=row.get("ror_id"),
            openalex_id=row.get("openalex_id"),
            acronyms=_strings(row.get("acronyms")),
            aliases=_strings(row.get("aliases")),
            country_code=row.get("country_code"),
            city=row.get("city"),
            types=_strings(row.get("types")),
            established=row.get("established"),
            parents=tuple(parents or ()),
            children=tuple(children or ()),
        )


@dataclass(frozen=True, slots=True)
class Authorship:
    """One author slot: where the researcher stands on the paper and how the match was made."""

    position: int
    kind: str
    raw_name: str
    source: str | None
    method: str | None
    confidence: float | None
    pinned: bool

    @classmethod
    def from_row(cls, row: Row) -> Authorship:
        return cls(
            position=row["position"],
            kind=row.get("kind") or "",
            raw_name=row.get("raw_name") or "",
            source=row.get("source"),
            method=row.get("method"),
            confidence=row.get("confidence"),
            pinned=bool(row.get("pinned")),
        )


@dataclass(frozen=True, slots=True)
class AuthoredPaper:
    paper: Paper
    authorship: Authorship | None


@dataclass(frozen=True, slots=True)
class Author:
    researcher: Researcher
    authorship: Authorship


@dataclass(frozen=True, slots=True)
class Coauthorship:
    researcher: Researcher
    joint_papers: int
    first_year: int | None
    last_year: int | None


@dataclass(frozen=True, slots=True)
class Affiliation:
    institution: Institution
    sources: tuple[str, ...]
    first_year: int | None
    last_year: int | None
    method: str | None = None  # how it was found: "id", or the matcher's method for a string
    score: float | None = None
