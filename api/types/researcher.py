from __future__ import annotations

from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Annotated, Any

import strawberry

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.types.category import Category
from scholargraph.api.types.common import (
    After,
    First,
    InCategory,
    PageInfo,
    YearFrom,
    YearTo,
    arg,
    resolver,
    to_id,
)
from scholargraph.api.types.network import Network
from scholargraph.api.types.node import Node, global_id
from scholargraph.api.types.paper import (
    PaperConnection,
    PaperSort,
    Sort,
    paper_list,
    paper_list_key,
)
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
from scholargraph.api.types.vocabulary import DataSource
from scholargraph.graph.repo import models, network, semantic
from scholargraph.graph.repo.pages import Page
from scholargraph.graph.repo.papers import PaperFilter

if TYPE_CHECKING:
    from scholargraph.api.loaders import Loaders
    from scholargraph.api.types.curation import CurationEvent
    from scholargraph.api.types.institution import Institution

InstitutionType = Annotated["Institution", strawberry.lazy("scholargraph.api.types.institution")]

# The lists' default sizes, for their resolvers and for the loads started early
# (:func:`start_list`).
MOST_CITED_FIRST = 3
SAME_NAME_FIRST = 20
LIST_FIRST = 24
CurationEventType = Annotated["CurationEvent", strawberry.lazy("scholargraph.api.types.curation")]


@strawberry.type(description="A person, with every source id merged into one public id.")
class Researcher(Node):
    model: strawberry.Private[models.Researcher]
    key: strawberry.ID = strawberry.field(
        description=(
            "The stable public id, e.g. 2004394: in the site's addresses, and in network "
            "nodes and ties."
        )
    )
    slug: str = strawberry.field(description="The name as it shows in addresses.")
    name: str = strawberry.field(description="Their name.")
    alt_names: list[str] = strawberry.field(description="Other forms of the name seen.")
    orcid: str | None = strawberry.field(description="Their ORCID iD, e.g. 0000-0002-1825-0097.")
    paper_count: int = strawberry.field(description="Their papers in the graph.")
    citation_count: int = strawberry.field(description="Citations of their papers in the graph.")
    h_index: int | None = strawberry.field(description="Our h-index, from our citation counts.")
    h_index_s2: int | None = strawberry.field(description="Semantic Scholar's h-index.")
    h_index_openalex: int | None = strawberry.field(description="OpenAlex's h-index.")

    @classmethod
    def of(cls, researcher: models.Researcher) -> Researcher:
        return cls(
            model=researcher,
            id=global_id("Researcher", researcher.id),
            key=to_id(researcher.id),
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

    @resolver("Who they are across the sources: their ids and how each was matched.")
    async def identity(self, info: Info) -> Identity:
        profile = await info.context.loaders.profiles.load(self.model.id)
        links = profile.identifiers if profile else ()
        return Identity(
            orcid=self.model.orcid,
            s2_ids=list(self.model.s2_ids),
            openalex_ids=list(self.model.openalex_ids),
            external_ids=[ExternalId.of(i) for i in links],
            merged_from=[to_id(m) for m in (profile.merged_from if profile else ())],
        )

    @resolver("Where they stand on their author lists.")
    async def author_positions(self, info: Info) -> AuthorPositions | None:
        profile = await info.context.loaders.profiles.load(self.model.id)
        return AuthorPositions.of(profile.positions) if profile else None

    @resolver("The arXiv categories of their papers, most papers first.")
    async def fields(self, info: Info) -> list[FieldCount]:
        profile = await info.context.loaders.profiles.load(self.model.id)
        return [
            FieldCount(
                category=Category.of(f.code), papers=f.papers, primary_papers=f.primary_papers
            )
            for f in (profile.fields if profile else ())
        ]

    @resolver("Their most-cited papers.")
    async def most_cited(
        self,
        info: Info,
        first: Annotated[
            int, arg(f"How many papers; at most {limits.MAX_MOST_CITED}.")
        ] = MOST_CITED_FIRST,
    ) -> MostCited | None:
        found = await info.context.loaders.most_cited.load(_most_cited_key(self.model.id, first))
        return MostCited.of(found) if found else None

    @resolver("Their papers, 24 a page, newest first by default.")
    async def papers(
        self,
        info: Info,
        category: InCategory = None,
        year_from: YearFrom = None,
        year_to: YearTo = None,
        sort: Sort = PaperSort.NEWEST,
        first: First = LIST_FIRST,
        after: After = None,
    ) -> PaperConnection:
        paper_filter = PaperFilter(
            researcher=self.model.id, category=category, year_from=year_from, year_to=year_to
        )
        return await paper_list(info, paper_filter, sort, limits.page(first, after))

    @resolver("Coauthors, most joint papers first.")
    async def coauthors(
        self,
        info: Info,
        min_joint_papers: Annotated[
            int, arg("Only coauthors with at least this many joint papers.")
        ] = 1,
        first: First = LIST_FIRST,
        after: After = None,
    ) -> CoauthorConnection:
        request = limits.page(first, after)
        key = (self.model.id, (request, limits.at_least(min_joint_papers, 1, "minJointPapers")))
        return CoauthorConnection.of(await info.context.loaders.coauthors.load(key))

    @resolver("Institutions, most recent first.")
    async def affiliations(
        self, info: Info, first: First = LIST_FIRST, after: After = None
    ) -> AffiliationConnection:
        request = limits.page(first, after)
        page = await info.context.loaders.affiliations.load((self.model.id, request))
        return AffiliationConnection.of(page)

    @resolver(
        "Researchers whose topics (the mean direction of their papers' vectors) are nearest "
        "this one's, nearest first; excludeCoauthors leaves out everyone they wrote with."
    )
    async def similar_researchers(
        self,
        info: Info,
        first: Annotated[int, arg(f"How many researchers; at most {semantic.MAX_NEAR}.")] = 8,
        exclude_coauthors: Annotated[bool, arg("Leave out everyone with a joint paper.")] = False,
    ) -> list[SimilarResearcher]:
        limits.size(first, semantic.MAX_NEAR, "first")
        found = await semantic.similar_researchers(
            info.context.db, self.model.id, first, exclude_coauthors=exclude_coauthors
        )
        return [SimilarResearcher(similarity=s, researcher=Researcher.of(r)) for s, r in found]

    @resolver("Other records under the same name, scored as the same person or not.")
    async def same_name(
        self,
        info: Info,
        first: Annotated[
            int, arg(f"How many records; at most {limits.MAX_SAME_NAME}.")
        ] = SAME_NAME_FIRST,
    ) -> SameName | None:
        cluster = await info.context.loaders.same_name.load(_same_name_key(self.model.id, first))
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
        depth: Annotated[
            int, arg(f"Coauthor hops from the researcher; at most {limits.MAX_NETWORK_DEPTH}.")
        ] = 1,
        max_nodes: Annotated[
            int, arg(f"The most researchers drawn; at most {limits.MAX_NETWORK_NODES}.")
        ] = 200,
        min_joint_papers: Annotated[int, arg("Walk only ties with this many joint papers.")] = 1,
        year_from: Annotated[
            int | None, arg("Keep ties with a joint paper of this year or later.")
        ] = None,
        year_to: Annotated[
            int | None, arg("Keep ties with a joint paper of this year or earlier.")
        ] = None,
        max_authors: Annotated[
            int | None, arg("Ties count only papers with at most this many authors.")
        ] = None,
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
    async def curation_events(
        self,
        info: Info,
        first: Annotated[int, arg(f"How many events; at most {limits.MAX_PAGE_SIZE}.")] = 20,
    ) -> list[CurationEventType]:
        from scholargraph.api.types.curation import CurationEvent

        limits.size(first, limits.MAX_PAGE_SIZE, "first")
        found = await info.context.loaders.events.load((self.model.id, first))
        return [CurationEvent.of(e) for e in found]


def _most_cited_key(researcher_id: int, first: int) -> tuple[int, int]:
    return researcher_id, limits.size(first, limits.MAX_MOST_CITED, "first")


def _same_name_key(researcher_id: int, first: int) -> tuple[int, int]:
    return researcher_id, limits.size(first, limits.MAX_SAME_NAME, "first")


def start_list(
    loaders: Loaders,
    researcher_id: int,
    field: str,
    arguments: Mapping[str, Any],
    selected: frozenset[str],
) -> list[Awaitable[Any]]:
    """Start the load the field ``field`` of the researcher would make with ``arguments``
    (GraphQL names, plain values) and the subfields ``selected``; no load for a field it does
    not know or arguments beyond its defaults' kind (:mod:`api.prefetch`)."""
    if field in ("identity", "authorPositions", "fields") and not arguments:
        return [loaders.profiles.load(researcher_id)]
    if field == "mostCited" and set(arguments) <= {"first"}:
        first = arguments.get("first", MOST_CITED_FIRST)
        return [loaders.most_cited.load(_most_cited_key(researcher_id, first))]
    if field == "sameName" and set(arguments) <= {"first"}:
        first = arguments.get("first", SAME_NAME_FIRST)
        return [loaders.same_name.load(_same_name_key(researcher_id, first))]
    if field == "papers" and set(arguments) <= {"first", "sort"}:
        sort = PaperSort[arguments.get("sort", PaperSort.NEWEST.name)]
        request = limits.page(arguments.get("first", LIST_FIRST), None)
        paper_filter = PaperFilter(researcher=researcher_id)
        started: list[Awaitable[Any]] = [
            loaders.paper_pages.load(paper_list_key(paper_filter, sort, request))
        ]
        if "totalCount" in selected:
            started.append(loaders.paper_counts.load(paper_filter))
        return started
    return []


@strawberry.type(description="A coauthor, and the papers the two wrote together.")
class CoauthorEdge:
    cursor: str = strawberry.field(description="Pass as after: to continue past this coauthor.")
    node: Researcher = strawberry.field(description="The coauthor.")
    joint_papers: int = strawberry.field(description="Papers the two wrote together.")
    first_year: int | None = strawberry.field(description="The year of their first joint paper.")
    last_year: int | None = strawberry.field(description="The year of their last joint paper.")


@strawberry.type(description="A page of a researcher's coauthors.")
class CoauthorConnection:
    edges: list[CoauthorEdge] = strawberry.field(description="The coauthors on this page.")
    page_info: PageInfo = strawberry.field(description="Where the page sits.")
    total_count: int = strawberry.field(description="Coauthors in the whole list.")

    @resolver("The coauthors on this page, without their edges.")
    def nodes(self) -> list[Researcher]:
        return [edge.node for edge in self.edges]

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


@strawberry.type(description="An institution a researcher is affiliated with, and when.")
class AffiliationEdge:
    cursor: str = strawberry.field(description="Pass as after: to continue past this one.")
    node: InstitutionType = strawberry.field(description="The institution.")
    sources: list[DataSource] = strawberry.field(description="The sources that list it.")
    first_year: int | None = strawberry.field(description="The first year it was seen.")
    last_year: int | None = strawberry.field(description="The last year it was seen.")
    method: str | None = strawberry.field(
        description="How it was found: id (a source gave the institution's id), else how the "
        "offline matcher read a printed affiliation string (exact_name, alias, name_in_text, "
        "name_variant, token_overlap, acronym_with_city, acronym_with_country, "
        "acronym_alone); null for affiliations stored before methods were kept."
    )
    score: float | None = strawberry.field(
        description="The confidence of the best way it was found, 1.0 for an id."
    )


@strawberry.type(description="A page of a researcher's affiliations.")
class AffiliationConnection:
    edges: list[AffiliationEdge] = strawberry.field(description="The affiliations on this page.")
    page_info: PageInfo = strawberry.field(description="Where the page sits.")
    total_count: int = strawberry.field(description="Affiliations in the whole list.")

    @resolver("The institutions on this page, without their edges.")
    def nodes(self) -> list[InstitutionType]:
        return [edge.node for edge in self.edges]

    @classmethod
    def of(cls, page: Page[models.Affiliation]) -> AffiliationConnection:
        from scholargraph.api.types.institution import Institution

        edges = [
            AffiliationEdge(
                cursor=e.cursor,
                node=Institution.of(e.node.institution),
                sources=[DataSource(source) for source in e.node.sources],
                first_year=e.node.first_year,
                last_year=e.node.last_year,
                method=e.node.method,
                score=e.node.score,
            )
            for e in page.edges
        ]
        return cls(edges=edges, page_info=PageInfo.of(page), total_count=page.total or 0)


@strawberry.type(description="A researcher in a list.")
class ResearcherEdge:
    cursor: str = strawberry.field(description="Pass as after: to continue past this one.")
    node: Researcher = strawberry.field(description="The researcher.")


@strawberry.type(description="A page of researchers.")
class ResearcherConnection:
    edges: list[ResearcherEdge] = strawberry.field(description="The researchers on this page.")
    page_info: PageInfo = strawberry.field(description="Where the page sits.")
    total_count: int = strawberry.field(description="Researchers in the whole list.")

    @resolver("The researchers on this page, without their edges.")
    def nodes(self) -> list[Researcher]:
        return [edge.node for edge in self.edges]

    @classmethod
    def of(cls, page: Page[models.Researcher]) -> ResearcherConnection:
        edges = [ResearcherEdge(cursor=e.cursor, node=Researcher.of(e.node)) for e in page.edges]
        return cls(edges=edges, page_info=PageInfo.of(page), total_count=page.total or 0)
