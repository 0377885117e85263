"""The normalised record model every source is parsed into before it is written.

A parser turns one source record (an arXiv ``.abs`` file, an Atom entry, an S2 paper, an
OpenAlex work, an ORCID record, a ROR organisation) into these plain, immutable values.
Every record carries the ``source`` it came from and the ``retrieved`` date of the fact, so
the writer can let newer facts update older ones.

Ids are stored in their bare canonical form:

* arXiv ids without version (``2301.08658``, ``astro-ph/9901001``) — see :mod:`graph.ids`;
* DOIs lower-cased without a resolver prefix (``10.48550/arxiv.2301.08658``);
* S2 ids as strings of digits (authors) or the 40-hex paper sha;
* OpenAlex ids as the short key (``W2741809807``, ``A5001226970``, ``I136199984``);
* ORCID iDs as ``0000-0002-1825-0097``; ROR ids as the 9-character key (``03yrm5c26``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal

Source = Literal["arxiv", "s2", "openalex", "orcid", "ror", "demo"]
PositionKind = Literal["first", "middle", "last", "solo"]


def position_kind(position: int, n_authors: int) -> PositionKind:
    """Kind of a 1-based author position in a list of ``n_authors``."""
    if n_authors <= 1:
        return "solo"
    if position == 1:
        return "first"
    if position == n_authors:
        return "last"
    return "middle"


@dataclass(frozen=True, slots=True)
class InstitutionRef:
    """An institution as a paper or a profile names it (any subset of the fields)."""

    ror_id: str | None = None
    openalex_id: str | None = None
    name: str | None = None
    country_code: str | None = None


@dataclass(frozen=True, slots=True)
class AuthorRecord:
    """A person as one source describes them. All ids optional (arXiv gives only a name)."""

    name: str
    source: Source
    s2_ids: tuple[str, ...] = ()
    openalex_ids: tuple[str, ...] = ()
    orcid: str | None = None
    dblp: tuple[str, ...] = ()
    alt_names: tuple[str, ...] = ()
    h_index: int | None = None
    paper_count: int | None = None
    citation_count: int | None = None
    affiliations: tuple[InstitutionRef, ...] = ()
    retrieved: date | None = None


@dataclass(frozen=True, slots=True)
class Authorship:
    """One author slot on one paper, as printed there."""

    position: int  # 1-based
    raw_name: str
    author: AuthorRecord
    institutions: tuple[InstitutionRef, ...] = ()
    raw_affiliations: tuple[str, ...] = ()
    forenames: str | None = None  # arXiv OAI-PMH splits names; others leave these None
    keyname: str | None = None


@dataclass(frozen=True, slots=True)
class Version:
    version: int
    date: date | None = None
    size: str | None = None


@dataclass(frozen=True, slots=True)
class PaperRecord:
    """A paper as one source describes it.

    ``key`` is the graph key: the one paper identity gave the record (``graph_key``, see
    :mod:`graph.identity.papers`: a record sharing any id with a paper joins it), else the
    record's own: the arXiv id when known, else ``doi:<doi>``, ``s2:<sha>`` or
    ``openalex:<W…>`` (see :func:`paper_key`). ``title`` is ``""`` when the source has none
    (the paper takes its title from another source, or waits for one).
    """

    source: Source
    title: str
    arxiv_id: str | None = None
    doi: str | None = None
    s2_id: str | None = None
    s2_corpus_id: int | None = None
    openalex_id: str | None = None
    mag_id: str | None = None
    abstract: str | None = None
    published: date | None = None  # first version / publication date
    updated: date | None = None  # latest version date
    year: int | None = None
    versions: tuple[Version, ...] = ()
    primary_category: str | None = None
    categories: tuple[str, ...] = ()  # includes the primary one first when known
    citation_count: int | None = None
    journal_ref: str | None = None
    comments: str | None = None
    withdrawn: bool = False
    authorships: tuple[Authorship, ...] = ()
    authors_truncated: bool = False
    retrieved: date | None = None
    graph_key: str | None = None

    @property
    def key(self) -> str:
        return self.graph_key or paper_key(self.arxiv_id, self.doi, self.s2_id, self.openalex_id)


def paper_key(
    arxiv_id: str | None, doi: str | None, s2_id: str | None, openalex_id: str | None
) -> str:
    if arxiv_id:
        return arxiv_id
    if doi:
        return f"doi:{doi}"
    if s2_id:
        return f"s2:{s2_id}"
    if openalex_id:
        return f"openalex:{openalex_id}"
    raise ValueError("a paper needs at least one of arxiv_id, doi, s2_id, openalex_id")


@dataclass(frozen=True, slots=True)
class InstitutionRecord:
    name: str
    source: Source
    ror_id: str | None = None
    openalex_id: str | None = None
    acronyms: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    country_code: str | None = None
    city: str | None = None
    types: tuple[str, ...] = ()
    status: str | None = None
    established: int | None = None
    parent_ids: tuple[str, ...] = ()  # ROR ids
    child_ids: tuple[str, ...] = ()
    related_ids: tuple[str, ...] = ()
    retrieved: date | None = None


@dataclass(frozen=True, slots=True)
class AffiliationRecord:
    """A researcher–institution link outside any paper (ORCID employment, OpenAlex profile)."""

    author: AuthorRecord
    institution: InstitutionRef
    source: Source
    first_year: int | None = None
    last_year: int | None = None
    role: str | None = None


@dataclass(frozen=True, slots=True)
class ClaimRecord:
    """A person's own list of their papers (ORCID works): arXiv ids and DOIs they claim."""

    author: AuthorRecord
    source: Source
    arxiv_ids: tuple[str, ...] = ()
    dois: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Rejection:
    """A record set aside with the reason; written to the load's report file."""

    source: Source
    ref: str
    reason: str
    raw: str = ""


@dataclass(slots=True)
class Batch:
    """What one parse step yields: records of every kind plus what was rejected."""

    papers: list[PaperRecord] = field(default_factory=list)
    authors: list[AuthorRecord] = field(default_factory=list)
    institutions: list[InstitutionRecord] = field(default_factory=list)
    affiliations: list[AffiliationRecord] = field(default_factory=list)
    claims: list[ClaimRecord] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)

    def extend(self, other: Batch) -> None:
        self.papers.extend(other.papers)
        self.authors.extend(other.authors)
        self.institutions.extend(other.institutions)
        self.affiliations.extend(other.affiliations)
        self.claims.extend(other.claims)
        self.rejected.extend(other.rejected)

    def __len__(self) -> int:
        return (
            len(self.papers) + len(self.authors) + len(self.institutions) + len(self.affiliations)
        )
