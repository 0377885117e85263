from __future__ import annotations

from enum import Enum
from typing import Annotated

import strawberry

from scholargraph.api.types.common import PageInfo, resolver
from scholargraph.api.types.institution import Institution
from scholargraph.api.types.paper import Paper
from scholargraph.api.types.researcher import Researcher
from scholargraph.graph.repo import models
from scholargraph.graph.repo.pages import Page
from scholargraph.graph.repo.search import SearchHit


@strawberry.enum(description="What a search hit is.")
class SearchKind(Enum):
    PAPER = strawberry.enum_value("paper", description="A paper.")
    RESEARCHER = strawberry.enum_value("researcher", description="A researcher.")
    INSTITUTION = strawberry.enum_value("institution", description="An institution.")


SearchResult = Annotated[
    Paper | Researcher | Institution,
    strawberry.union("SearchResult", description="A paper, a researcher or an institution."),
]


@strawberry.type(description="A search hit.")
class SearchEdge:
    cursor: str = strawberry.field(description="Pass as after: to continue past this hit.")
    kind: SearchKind = strawberry.field(description="What the hit is.")
    score: float = strawberry.field(description="Full-text relevance; 1.0 for an id match.")
    node: SearchResult = strawberry.field(description="What was found.")


@strawberry.type(description="A page of search hits, best first.")
class SearchConnection:
    edges: list[SearchEdge] = strawberry.field(description="The hits on this page.")
    page_info: PageInfo = strawberry.field(description="Where the page sits.")
    total_count: int = strawberry.field(description="Hits ranked (at most 500 of each kind).")

    @resolver("What was found on this page, without the edges.")
    def nodes(self) -> list[SearchResult]:
        return [edge.node for edge in self.edges]

    @classmethod
    def of(cls, page: Page[SearchHit]) -> SearchConnection:
        edges = [
            SearchEdge(
                cursor=e.cursor,
                kind=SearchKind(e.node.kind),
                score=e.node.score,
                node=_node(e.node.entity),
            )
            for e in page.edges
        ]
        return cls(edges=edges, page_info=PageInfo.of(page), total_count=page.total or 0)


def _node(
    entity: models.Paper | models.Researcher | models.Institution,
) -> Paper | Researcher | Institution:
    if isinstance(entity, models.Paper):
        return Paper.of(entity)
    if isinstance(entity, models.Researcher):
        return Researcher.of(entity)
    return Institution.of(entity)
