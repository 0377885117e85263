from __future__ import annotations

from datetime import date
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import strawberry

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.loaders import PaperListKey
from scholargraph.api.selection import brief_authors
from scholargraph.api.types.common import (
    After,
    Before,
    Last,
    NullableFirst,
    PageInfo,
    arg,
    resolver,
    to_id,
)
from scholargraph.api.types.node import Node, global_id
from scholargraph.api.types.semantic import RelatedPaper
from scholargraph.api.types.vocabulary import AuthorPosition, DataSource, MatchMethod, wire_value
from scholargraph.graph.repo import models, papers, semantic
from scholargraph.graph.repo.pages import Page, PageRequest
from scholargraph.graph.repo.papers import PaperFilter
from scholargraph.graph.schema.relationships import MATCH_METHODS

if TYPE_CHECKING:
    from scholargraph.api.types.category import Category
    from scholargraph.api.types.researcher import Researcher

CategoryType = Annotated["Category", strawberry.lazy("scholargraph.api.types.category")]
ResearcherType = Annotated["Researcher", strawberry.lazy("scholargraph.api.types.researcher")]


@strawberry.enum(description="How a list of papers is ordered.")
class PaperSort(Enum):
    NEWEST = strawberry.enum_value("newest", description="Newest first, by publication date.")
    MOST_CITED = strawberry.enum_value(
        "cited", description="Most cited first; papers without a citation count last."
    )


Sort = Annotated[PaperSort, arg("The order of the list.")]
_SORTS: dict[PaperSort, papers.PaperSort] = {
    PaperSort.NEWEST: "newest",
    PaperSort.MOST_CITED: "cited",
}


@strawberry.type(description="One author slot: where the researcher stands, and how we know.")
class Authorship:
    position: int = strawberry.field(description="1-based position in the author list.")
    kind: AuthorPosition = strawberry.field(description="Where on the author list it stands.")
    raw_name: str = strawberry.field(description="The name as printed on the paper.")
    source: DataSource | None = strawberry.field(description="The source that listed the slot.")
    method: MatchMethod | None = strawberry.field(description="How the slot was matched.")
    confidence: float | None = strawberry.field(
        description="How sure the match is, from 0 to 1 (1 for an id match)."
    )
    pinned: bool = strawberry.field(description="Fixed by a curator; loads never move it.")

    @resolver("How the slot was matched, in words.")
    def method_description(self) -> str | None:
        return MATCH_METHODS.get(wire_value(self.method)) if self.method else None

    @classmethod
    def of(cls, authorship: models.Authorship) -> Authorship:
        return cls(
            position=authorship.position,
            kind=AuthorPosition(authorship.kind),
            raw_name=authorship.raw_name,
            source=DataSource(authorship.source) if authorship.source else None,
            method=MatchMethod(authorship.method) if authorship.method else None,
            confidence=authorship.confidence,
            pinned=authorship.pinned,
        )


@strawberry.type(description="A category a paper is filed under.")
class PaperCategory:
    category: CategoryType = strawberry.field(description="The category.")
    primary: bool = strawberry.field(description="It is the paper's primary category.")


@strawberry.type(description="A paper: an arXiv preprint, or a paper another source knows.")
class Paper(Node):
    model: strawberry.Private[models.Paper]
    key: strawberry.ID = strawberry.field(
        description=(
            "The paper's key: its arXiv id without version (2301.08658, astro-ph/9901001), "
            "or a doi:, s2: or openalex: key for a paper known only from another source."
        )
    )
    arxiv_id: str | None = strawberry.field(
        description="The arXiv id without version, e.g. 2301.08658."
    )
    doi: str | None = strawberry.field(description="The DOI, e.g. 10.1145/3458817.3476145.")
    s2_id: str | None = strawberry.field(description="The Semantic Scholar paper id.")
    openalex_id: str | None = strawberry.field(description="The OpenAlex work id (W…).")
    title: str = strawberry.field(description="The title.")
    abstract: str | None = strawberry.field(description="The abstract, as the source gives it.")
    published: date | None = strawberry.field(description="The date of the first version.")
    year: int | None = strawberry.field(description="The year of the first version.")
    citation_count: int | None = strawberry.field(
        description="Citations, as Semantic Scholar or OpenAlex count them; null if unknown."
    )
    author_count: int | None = strawberry.field(description="Authors on the paper.")
    matched_author_count: int = strawberry.field(
        description="Author slots linked to a researcher in the graph."
    )
    hyperauthored: bool = strawberry.field(
        description="Too many authors to add coauthor edges (the coauthor cap)."
    )
    alphabetical: bool = strawberry.field(description="Authors listed in surname order.")
    versions: int | None = strawberry.field(description="How many versions arXiv has of the paper.")
    journal_ref: str | None = strawberry.field(
        description="Where it was published, as the authors told arXiv."
    )
    withdrawn: bool = strawberry.field(description="The authors withdrew the paper.")

    @classmethod
    def of(cls, paper: models.Paper) -> Paper:
        return cls(
            model=paper,
            id=global_id("Paper", paper.key),
            key=to_id(paper.key),
            arxiv_id=paper.arxiv_id,
            doi=paper.doi,
            s2_id=paper.s2_id,
            openalex_id=paper.openalex_id,
            title=paper.title,
            abstract=paper.abstract,
            published=paper.published,
            year=paper.year,
            citation_count=paper.citation_count,
            author_count=paper.n_authors,
            matched_author_count=paper.matched_authors,
            hyperauthored=paper.hyperauthored,
            alphabetical=paper.alphabetical,
            versions=paper.versions,
            journal_ref=paper.journal_ref,
            withdrawn=paper.withdrawn,
        )

    @resolver("The arXiv abstract page.")
    def url(self) -> str | None:
        return f"https://arxiv.org/abs/{self.model.arxiv_id}" if self.model.arxiv_id else None

    @resolver("The arXiv category the paper is primarily filed under.")
    def primary_category(self) -> CategoryType | None:
        from scholargraph.api.types.category import Category

        code = self.model.primary_category
        return Category.of(code) if code else None

    @resolver("Every category, the primary one first.")
    def categories(self) -> list[PaperCategory]:
        from scholargraph.api.types.category import Category

        tags = sorted(self.model.categories, key=lambda t: (not t.primary, t.code))
        return [PaperCategory(category=Category.of(t.code), primary=t.primary) for t in tags]

    @resolver("The papers nearest this one in meaning, nearest first (none until it has a vector).")
    async def related(
        self,
        info: Info,
        first: Annotated[int, arg(f"How many papers; at most {semantic.MAX_NEAR}.")] = 8,
    ) -> list[RelatedPaper]:
        limits.size(first, semantic.MAX_NEAR, "first")
        found = await semantic.related_papers(info.context.db, self.model.key, first)
        return [RelatedPaper(similarity=score, paper=Paper.of(p)) for score, p in found]

    @resolver(
        "The matched authors in author order: first after a cursor, or (backward) last before "
        "one; first is not used when last is given."
    )
    async def authors(
        self,
        info: Info,
        first: NullableFirst = 50,
        after: After = None,
        last: Last = None,
        before: Before = None,
    ) -> AuthorConnection:
        request = limits.page(50 if first is None else first, after, last, before)
        brief = brief_authors(info)
        page = await info.context.loaders.authors.load((self.model.key, (request, brief)))
        return AuthorConnection.of(page)


@strawberry.type(description="A matched author of a paper, and their slot on it.")
class AuthorEdge:
    cursor: str = strawberry.field(description="Pass as after: to continue past this author.")
    node: ResearcherType = strawberry.field(description="The researcher.")
    authorship: Authorship = strawberry.field(description="Their slot on the paper.")


@strawberry.type(description="A paper's authors that the graph has matched to researchers.")
class AuthorConnection:
    edges: list[AuthorEdge] = strawberry.field(description="The authors on this page.")
    page_info: PageInfo = strawberry.field(description="Where the page sits.")
    total_count: int = strawberry.field(description="Matched authors of the paper.")

    @resolver("The researchers on this page, without their edges.")
    def nodes(self) -> list[ResearcherType]:
        return [edge.node for edge in self.edges]

    @classmethod
    def of(cls, page: Page[models.Author]) -> AuthorConnection:
        from scholargraph.api.types.researcher import Researcher

        edges = [
            AuthorEdge(
                cursor=e.cursor,
                node=Researcher.of(e.node.researcher),
                authorship=Authorship.of(e.node.authorship),
            )
            for e in page.edges
        ]
        return cls(edges=edges, page_info=PageInfo.of(page), total_count=page.total or 0)


@strawberry.type(description="A paper in a list.")
class PaperEdge:
    cursor: str = strawberry.field(description="Pass as after: to continue past this paper.")
    node: Paper = strawberry.field(description="The paper.")
    authorship: Authorship | None = strawberry.field(
        description="In a researcher's paper list: their slot on the paper."
    )


@strawberry.type(description="A page of papers.")
class PaperConnection:
    edges: list[PaperEdge] = strawberry.field(description="The papers on this page.")
    page_info: PageInfo = strawberry.field(description="Where the page sits.")
    count_filter: strawberry.Private[PaperFilter]

    @resolver("The papers on this page, without their edges.")
    def nodes(self) -> list[Paper]:
        return [edge.node for edge in self.edges]

    @resolver("Papers in the whole list, not just this page.")
    async def total_count(self, info: Info) -> int:
        return await info.context.loaders.paper_counts.load(self.count_filter)

    @classmethod
    def of(cls, page: Page[models.AuthoredPaper], paper_filter: PaperFilter) -> PaperConnection:
        edges = [
            PaperEdge(
                cursor=e.cursor,
                node=Paper.of(e.node.paper),
                authorship=Authorship.of(e.node.authorship) if e.node.authorship else None,
            )
            for e in page.edges
        ]
        return cls(edges=edges, page_info=PageInfo.of(page), count_filter=paper_filter)


async def paper_list(
    info: Info, paper_filter: PaperFilter, sort: PaperSort, request: PageRequest
) -> PaperConnection:
    page = await info.context.loaders.paper_pages.load(paper_list_key(paper_filter, sort, request))
    return PaperConnection.of(page, paper_filter)


def paper_list_key(
    paper_filter: PaperFilter, sort: PaperSort, request: PageRequest
) -> PaperListKey:
    """What :func:`paper_list` loads: also started early for a page (:mod:`api.prefetch`)."""
    return PaperListKey(paper_filter, _SORTS[sort], request)
