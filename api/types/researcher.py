from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import strawberry

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.types.category import Category
from scholargraph.api.types.common import PageInfo, resolver, to_id
from scholargraph.api.types.network import Network
from scholargraph.api.types.paper import PaperConnection, PaperSort, paper_list
from scholargraph.api.types.profile import (
    AuthorPositions,
    ExternalId,
    FieldCount,
    Identity,
    MostCited,
    SameName,
    SameNameRecord,
)
from scholargraph.api.types.semantic import SimilarResearcher
from scholargraph.graph.repo import models, network, semantic
from scholargraph.graph.repo.pages import Page
from scholargraph.graph.repo.papers import PaperFilter

if TYPE_CHECKING:
    from scholargraph.api.types.curation import CurationEvent
    from scholargraph.api.types.institution import Institution

InstitutionType = Annotated["Institution", strawberry.lazy("scholargraph.api.types.institution")]
CurationEventType = Annotated["CurationEvent", strawberry.lazy("scholargraph.api.types.curation")]


@strawberry.type(description="A person, with every source id merged into one public id.")
class Researcher:
    model: strawberry.Private[models.Researcher]
    id: strawberry.ID = strawberry.field(description="The stable public id, e.g. 2004394.")
    slug: str
    name: str
    alt_names: list[str]
    orcid: str | None
    paper_count: int
    citation_count: int
    h_index: int | None = strawberry.field(description="Our h-index, from our citation counts.")
    h_index_s2: int | None = strawberry.field(description="Semantic Scholar's h-index.")
    h_index_openalex: int | None = strawberry.field(description="OpenAlex's h-index.")

    @classmethod
    def of(cls, researcher: models.Researcher) -> Researcher:
        return cls(
            model=researcher,
            id=to_id(researcher.id),
            slug=researcher.slug,
            name=researcher.name,
            alt_names=list(researcher.alt_names),
            orcid=researcher.orcid,
            paper_count=researcher.paper_count,
            citation_count=researcher.citation_count,
            h_index=researcher.h_index,
            h_index_s2=researcher.h_index_s2,
            h_index_openalex=researcher.h_index_openalex,
        )

    @resolver("The page address, e.g. /researchers/2004394-ziming-liu.")
    def path(self) -> str:
        return self.model.path

    @strawberry.field
    async def identity(self, info: Info) -> Identity:
        profile = await info.context.loaders.profiles.load(self.model.id)
        links = profile.identifiers if profile else ()
        return Identity(
            orcid=self.model.orcid,
            s2_ids=list(self.model.s2_ids),
            openalex_ids=list(self.model.openalex_ids),
            external_ids=[
                ExternalId(
                    key=i.key, scheme=i.scheme, value=i.value, method=i.method, source=i.source
                )
                for i in links
            ],
            merged_from=[to_id(m) for m in (profile.merged_from if profile else ())],
        )

    @strawberry.field
    async def author_positions(self, info: Info) -> AuthorPositions | None:
        profile = await info.context.loaders.profiles.load(self.model.id)
        return AuthorPositions.of(profile.positions) if profile else None

    @resolver("arXiv categories of their papers, most papers first.")
    async def fields(self, info: Info) -> list[FieldCount]:
        profile = await info.context.loaders.profiles.load(self.model.id)
        return [
            FieldCount(
                category=Category.of(f.code), papers=f.papers, primary_papers=f.primary_papers
            )
            for f in (profile.fields if profile else ())
        ]

    @strawberry.field
    async def most_cited(self, info: Info, first: int = 3) -> MostCited | None:
        limits.size(first, limits.MAX_MOST_CITED, "first")
        found = await info.context.loaders.most_cited.load((self.model.id, first))
        return MostCited.of(found) if found else None

    @resolver("Their papers, 24 a page, newest first by default.")
    async def papers(
        self,
        info: Info,
        category: str | None = None,
        year_from: int | None = None,
        year_to: int | None = None,
        sort: PaperSort = PaperSort.NEWEST,
        first: int = 24,
        after: str | None = None,
    ) -> PaperConnection:
        paper_filter = PaperFilter(
            researcher=self.model.id, category=category, year_from=year_from, year_to=year_to
        )
        return await paper_list(info, paper_filter, sort, limits.page(first, after))

    @resolver("Coauthors, most joint papers first.")
    async def coauthors(
        self, info: Info, min_joint_papers: int = 1, first: int = 24, after: str | None = None
    ) -> CoauthorConnection:
        request = limits.page(first, after)
        key = (self.model.id, (request, limits.at_least(min_joint_papers, 1, "minJointPapers")))
        return CoauthorConnection.of(await info.context.loaders.coauthors.load(key))

    @resolver("Institutions, most recent first.")
    async def affiliations(
        self, info: Info, first: int = 24, after: str | None = None
    ) -> AffiliationConnection:
        request = limits.page(first, after)
        page = await info.context.loaders.affiliations.load((self.model.id, request))
        return AffiliationConnection.of(page)

    @resolver(
        "Researchers whose topics (the mean direction of their papers' vectors) are nearest "
        "this one's, nearest first; excludeCoauthors leaves out everyone they wrote with."
    )
    async def similar_researchers(
        self, info: Info, first: int = 8, exclude_coauthors: bool = False
    ) -> list[SimilarResearcher]:
        limits.size(first, semantic.MAX_NEAR, "first")
        found = await semantic.similar_researchers(
            info.context.db, self.model.id, first, exclude_coauthors=exclude_coauthors
        )
        return [SimilarResearcher(similarity=s, researcher=Researcher.of(r)) for s, r in found]

    @strawberry.field
    async def same_name(self, info: Info, first: int = 20) -> SameName | None:
        limits.size(first, limits.MAX_SAME_NAME, "first")
        cluster = await info.context.loaders.same_name.load((self.model.id, first))
        if cluster is None:
            return None
        records = [SameNameRecord.of(r) for r in cluster.records]
        return SameName(records=records, block_size=cluster.block_size)

    @resolver(
        "The coauthor network around the researcher: strongest ties first, hop by hop, "
        "cut at maxNodes; edges with fewer than minJointPapers are not walked; a year "
        "window keeps ties whose joint years overlap it; with maxAuthors, ties count only "
        "the papers with at most that many authors."
    )
    async def network(
        self,
        info: Info,
        depth: int = 1,
        max_nodes: int = 200,
        min_joint_papers: int = 1,
        year_from: int | None = None,
        year_to: int | None = None,
        max_authors: int | None = None,
    ) -> Network:
        limits.size(depth, limits.MAX_NETWORK_DEPTH, "depth")
        limits.size(max_nodes, limits.MAX_NETWORK_NODES, "maxNodes", minimum=1)
        found = await network.coauthor_network(
            info.context.db,
            self.model.id,
            depth=depth,
            max_nodes=max_nodes,
            min_joint_papers=min_joint_papers,
            year_from=year_from,
            year_to=year_to,
            max_authors=max_authors,
            projections=info.context.projections,
        )
        return Network.of(found)

    @resolver("Curator decisions about the researcher, newest first.")
    async def curation_events(self, info: Info, first: int = 20) -> list[CurationEventType]:
        from scholargraph.api.types.curation import CurationEvent

        limits.size(first, limits.MAX_PAGE_SIZE, "first")
        found = await info.context.loaders.events.load((self.model.id, first))
        return [CurationEvent.of(e) for e in found]


@strawberry.type
class CoauthorEdge:
    cursor: str
    node: Researcher
    joint_papers: int
    first_year: int | None
    last_year: int | None


@strawberry.type
class CoauthorConnection:
    edges: list[CoauthorEdge]
    page_info: PageInfo
    total_count: int

    @classmethod
    def of(cls, page: Page[models.Coauthorship]) -> CoauthorConnection:
        edges = [
            CoauthorEdge(
                cursor=e.cursor,
                node=Researcher.of(e.node.researcher),
                joint_papers=e.node.joint_papers,
                first_year=e.node.first_year,
                last_year=e.node.last_year,
            )
            for e in page.edges
        ]
        return cls(edges=edges, page_info=PageInfo.of(page), total_count=page.total or 0)


@strawberry.type
class AffiliationEdge:
    cursor: str
    node: InstitutionType
    sources: list[str]
    first_year: int | None
    last_year: int | None


@strawberry.type
class AffiliationConnection:
    edges: list[AffiliationEdge]
    page_info: PageInfo
    total_count: int

    @classmethod
    def of(cls, page: Page[models.Affiliation]) -> AffiliationConnection:
        from scholargraph.api.types.institution import Institution

        edges = [
            AffiliationEdge(
                cursor=e.cursor,
                node=Institution.of(e.node.institution),
                sources=list(e.node.sources),
                first_year=e.node.first_year,
                last_year=e.node.last_year,
            )
            for e in page.edges
        ]
        return cls(edges=edges, page_info=PageInfo.of(page), total_count=page.total or 0)


@strawberry.type
class ResearcherEdge:
    cursor: str
    node: Researcher


@strawberry.type
class ResearcherConnection:
    edges: list[ResearcherEdge]
    page_info: PageInfo
    total_count: int

    @classmethod
    def of(cls, page: Page[models.Researcher]) -> ResearcherConnection:
        edges = [ResearcherEdge(cursor=e.cursor, node=Researcher.of(e.node)) for e in page.edges]
        return cls(edges=edges, page_info=PageInfo.of(page), total_count=page.total or 0)
