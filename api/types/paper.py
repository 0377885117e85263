from __future__ import annotations

from datetime import date
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import strawberry

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.loaders import PaperListKey
from scholargraph.api.types.common import PageInfo, resolver, to_id
from scholargraph.api.types.semantic import RelatedPaper
from scholargraph.graph.repo import models, semantic
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
    NEWEST = "newest"
    MOST_CITED = "cited"


@strawberry.type(description="One author slot: where the researcher stands, and how we know.")
class Authorship:
    position: int = strawberry.field(description="1-based position in the author list.")
    kind: str = strawberry.field(description="first, middle, last or solo.")
    raw_name: str = strawberry.field(description="The name as printed on the paper.")
    source: str | None = strawberry.field(description="The source that listed the slot.")
    method: str | None = strawberry.field(description="How the slot was matched (a code).")
    confidence: float | None
    pinned: bool = strawberry.field(description="Fixed by a curator; loads never move it.")

    @resolver("How the slot was matched, in words.")
    def method_description(self) -> str | None:
        return MATCH_METHODS.get(self.method or "")

    @classmethod
    def of(cls, authorship: models.Authorship) -> Authorship:
        return cls(
            position=authorship.position,
            kind=authorship.kind,
            raw_name=authorship.raw_name,
            source=authorship.source,
            method=authorship.method,
            confidence=authorship.confidence,
            pinned=authorship.pinned,
        )


@strawberry.type(description="A category a paper is filed under.")
class PaperCategory:
    category: CategoryType
    primary: bool


@strawberry.type(description="A paper: an arXiv preprint, or a paper another source knows.")
class Paper:
    model: strawberry.Private[models.Paper]
    id: strawberry.ID = strawberry.field(
        description="arXiv id without version (2301.08658, astro-ph/9901001), or doi:/s2: key."
    )
    arxiv_id: str | None
    doi: str | None
    s2_id: str | None
    openalex_id: str | None
    title: str
    abstract: str | None
    published: date | None
    year: int | None
    citation_count: int | None
    author_count: int | None = strawberry.field(description="Authors on the paper.")
    matched_author_count: int = strawberry.field(
        description="Author slots linked to a researcher in the graph."
    )
    hyperauthored: bool = strawberry.field(
        description="Too many authors to add coauthor edges (the coauthor cap)."
    )
    alphabetical: bool = strawberry.field(description="Authors listed in surname order.")
    versions: int | None
    journal_ref: str | None
    withdrawn: bool

    @classmethod
    def of(cls, paper: models.Paper) -> Paper:
        return cls(
            model=paper,
            id=to_id(paper.key),
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

    @strawberry.field
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
    async def related(self, info: Info, first: int = 8) -> list[RelatedPaper]:
        limits.size(first, semantic.MAX_NEAR, "first")
        found = await semantic.related_papers(info.context.db, self.model.key, first)
        return [RelatedPaper(similarity=score, paper=Paper.of(p)) for score, p in found]

    @resolver("The matched authors in author order.")
    async def authors(
        self, info: Info, first: int = 50, after: str | None = None
    ) -> AuthorConnection:
        request = limits.page(first, after)
        page = await info.context.loaders.authors.load((self.model.key, request))
        return AuthorConnection.of(page)


@strawberry.type
class AuthorEdge:
    cursor: str
    node: ResearcherType
    authorship: Authorship


@strawberry.type(description="A paper's authors that the graph has matched to researchers.")
class AuthorConnection:
    edges: list[AuthorEdge]
    page_info: PageInfo
    total_count: int

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


@strawberry.type
class PaperEdge:
    cursor: str
    node: Paper
    authorship: Authorship | None = strawberry.field(
        description="In a researcher's paper list: their slot on the paper."
    )


@strawberry.type(description="A page of papers.")
class PaperConnection:
    edges: list[PaperEdge]
    page_info: PageInfo
    count_filter: strawberry.Private[PaperFilter]

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
    key = PaperListKey(paper_filter, sort.value, request)
    page = await info.context.loaders.paper_pages.load(key)
    return PaperConnection.of(page, paper_filter)
