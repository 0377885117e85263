from __future__ import annotations

import strawberry

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.types.common import resolver
from scholargraph.api.types.paper import PaperConnection, PaperSort, paper_list
from scholargraph.graph import taxonomy
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo.papers import PaperFilter


@strawberry.type(description="An arXiv archive (cs, hep-th, astro-ph) within a group.")
class Archive:
    code: str
    name: str
    group: str


@strawberry.type(description="An arXiv category, such as cs.DC, in its archive.")
class Category:
    code: str
    name: str
    archive: Archive | None
    active: bool

    @classmethod
    def of(cls, code: str) -> Category:
        try:
            info = taxonomy.lookup(code)
        except BadInput:
            # A code the taxonomy does not know yet still names the papers filed under it.
            return cls(code=code, name=code, archive=None, active=True)
        archive = Archive(code=info.archive, name=info.archive_name, group=info.group)
        return cls(code=info.code, name=info.name, archive=archive, active=info.active)

    @resolver("Papers filed under the category, primary or cross-listed.")
    async def paper_count(self, info: Info) -> int:
        return (await info.context.loaders.category_counts.load(self.code)).papers

    @resolver("Papers whose primary category this is.")
    async def primary_paper_count(self, info: Info) -> int:
        return (await info.context.loaders.category_counts.load(self.code)).primary_papers

    @resolver("Papers in the category, primary or cross-listed.")
    async def papers(
        self,
        info: Info,
        year_from: int | None = None,
        year_to: int | None = None,
        sort: PaperSort = PaperSort.NEWEST,
        first: int = 24,
        after: str | None = None,
    ) -> PaperConnection:
        paper_filter = PaperFilter(category=self.code, year_from=year_from, year_to=year_to)
        return await paper_list(info, paper_filter, sort, limits.page(first, after))
