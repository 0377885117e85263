from __future__ import annotations

from enum import Enum
from typing import Annotated

import strawberry

from scholargraph.api.types.common import PageInfo
from scholargraph.api.types.institution import Institution
from scholargraph.api.types.paper import Paper
from scholargraph.api.types.researcher import Researcher
from scholargraph.graph.repo import models
from scholargraph.graph.repo.pages import Page
from scholargraph.graph.repo.search import SearchHit


@strawberry.enum
class SearchKind(Enum):
    PAPER = "paper"
    RESEARCHER = "researcher"
    INSTITUTION = "institution"


SearchResult = Annotated[Paper | Researcher | Institution, strawberry.union("SearchResult")]


@strawberry.type
class SearchEdge:
    cursor: str
    kind: SearchKind
    score: float = strawberry.field(description="Full-text relevance; 1.0 for an id match.")
    node: SearchResult


@strawberry.type
class SearchConnection:
    edges: list[SearchEdge]
    page_info: PageInfo
    total_count: int = strawberry.field(description="Hits ranked (at most 500 of each kind).")

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
