from __future__ import annotations

import strawberry

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.types.common import After, First, YearFrom, YearTo, resolver
from scholargraph.api.types.node import Node, global_id
from scholargraph.api.types.paper import PaperConnection, PaperSort, Sort, paper_list
from scholargraph.graph import taxonomy
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo.papers import PaperFilter


@strawberry.type(description="An arXiv archive (cs, hep-th, astro-ph) within a group.")
class Archive:
    code: str = strawberry.field(description="Its code, e.g. cs or hep-th.")
    name: str = strawberry.field(description="Its name, e.g. Computer Science.")
    group: str = strawberry.field(description="The arXiv group it belongs to, e.g. Physics.")


@strawberry.type(description="An arXiv category, such as cs.DC, in its archive.")
class Category(Node):
    code: str = strawberry.field(description="Its code, e.g. cs.DC.")
    name: str = strawberry.field(
        description="Its name, e.g. Distributed, Parallel, and Cluster Computing."
    )
    archive: Archive | None = strawberry.field(
        description="The archive it belongs to; null for a code the taxonomy does not know."
    )
    active: bool = strawberry.field(
        description="Whether arXiv still files new papers under it (not merged into another)."
    )

    @classmethod
    def of(cls, code: str) -> Category:
        try:
            info = taxonomy.lookup(code)
        except BadInput:
            # A code the taxonomy does not know yet still names the papers filed under it.
            return cls(
                id=global_id("Category", code), code=code, name=code, archive=None, active=True
            )
        archive = Archive(code=info.archive, name=info.archive_name, group=info.group)
        return cls(
            id=global_id("Category", info.code),
            code=info.code,
            name=info.name,
            archive=archive,
            active=info.active,
        )

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
        year_from: YearFrom = None,
        year_to: YearTo = None,
        sort: Sort = PaperSort.NEWEST,
        first: First = 24,
        after: After = None,
    ) -> PaperConnection:
        paper_filter = PaperFilter(category=self.code, year_from=year_from, year_to=year_to)
        return await paper_list(info, paper_filter, sort, limits.page(first, after))
