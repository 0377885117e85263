from __future__ import annotations

import strawberry

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.types.common import (
    After,
    First,
    InCategory,
    YearFrom,
    YearTo,
    resolver,
    to_id,
)
from scholargraph.api.types.node import Node, global_id
from scholargraph.api.types.paper import PaperConnection, PaperSort, Sort, paper_list
from scholargraph.api.types.researcher import ResearcherConnection
from scholargraph.graph.repo import models
from scholargraph.graph.repo.papers import PaperFilter


@strawberry.type(description="A university, company or lab, as ROR and OpenAlex know it.")
class Institution(Node):
    model: strawberry.Private[models.Institution]
    key: strawberry.ID = strawberry.field(
        description="Our id of the institution, e.g. 17, as in the site's addresses."
    )
    slug: str = strawberry.field(description="The name as it shows in addresses.")
    name: str = strawberry.field(description="The name, as ROR gives it.")
    ror_id: str | None = strawberry.field(description="Bare ROR id, e.g. 01an7q238.")
    openalex_id: str | None = strawberry.field(description="The OpenAlex institution id (I…).")
    acronyms: list[str] = strawberry.field(description="Acronyms, e.g. NUS.")
    aliases: list[str] = strawberry.field(description="Other names it goes by.")
    country_code: str | None = strawberry.field(
        description="ISO 3166-1 alpha-2 code of its country, e.g. SG."
    )
    city: str | None = strawberry.field(description="The city it is in.")
    types: list[str] = strawberry.field(
        description="ROR's types for it (education, company, facility…), as ROR spells them."
    )
    established: int | None = strawberry.field(description="The year it was founded.")

    @classmethod
    def of(cls, institution: models.Institution) -> Institution:
        return cls(
            model=institution,
            id=global_id("Institution", institution.id),
            key=to_id(institution.id),
            slug=institution.slug,
            name=institution.name,
            ror_id=institution.ror_id,
            openalex_id=institution.openalex_id,
            acronyms=list(institution.acronyms),
            aliases=list(institution.aliases),
            country_code=institution.country_code,
            city=institution.city,
            types=list(institution.types),
            established=institution.established,
        )

    @resolver("Its ROR record, e.g. https://ror.org/01an7q238.")
    def ror_url(self) -> str | None:
        return f"https://ror.org/{self.ror_id}" if self.ror_id else None

    @resolver("Institutions this one is part of.")
    async def parents(self, info: Info) -> list[Institution]:
        return await self._related(info, "parents")

    @resolver("Institutions that are part of this one.")
    async def children(self, info: Info) -> list[Institution]:
        return await self._related(info, "children")

    async def _related(self, info: Info, relation: str) -> list[Institution]:
        loaders = info.context.loaders
        full = await loaders.institutions.load(self.model.id)
        related_ids = getattr(full, relation) if full else ()
        found = await loaders.institutions.load_many(related_ids)
        return [Institution.of(i) for i in found if i is not None]

    @resolver("Researchers affiliated with it, most papers first.")
    async def researchers(
        self, info: Info, first: First = 24, after: After = None
    ) -> ResearcherConnection:
        request = limits.page(first, after)
        page = await info.context.loaders.members.load((self.model.id, request))
        return ResearcherConnection.of(page)

    @resolver("Papers with an author affiliated here, or with a part of it, in the paper's year.")
    async def papers(
        self,
        info: Info,
        category: InCategory = None,
        year_from: YearFrom = None,
        year_to: YearTo = None,
        sort: Sort = PaperSort.NEWEST,
        first: First = 24,
        after: After = None,
    ) -> PaperConnection:
        paper_filter = PaperFilter(
            institution=self.model.id, category=category, year_from=year_from, year_to=year_to
        )
        return await paper_list(info, paper_filter, sort, limits.page(first, after))
