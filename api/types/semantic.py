"""What is near in meaning: related papers, researchers on similar topics, search modes."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import strawberry

if TYPE_CHECKING:
    from scholargraph.api.types.paper import Paper
    from scholargraph.api.types.researcher import Researcher

PaperType = Annotated["Paper", strawberry.lazy("scholargraph.api.types.paper")]
ResearcherType = Annotated["Researcher", strawberry.lazy("scholargraph.api.types.researcher")]


@strawberry.enum(description="How a search matches its words.")
class SearchMode(Enum):
    KEYWORD = strawberry.enum_value("keyword", description="The words themselves (full text).")
    SEMANTIC = strawberry.enum_value(
        "semantic", description="Their meaning: papers' and researchers' vectors."
    )
    HYBRID = strawberry.enum_value(
        "hybrid", description="Both rankings fused by reciprocal rank (the default)."
    )


@strawberry.type(description="A paper near another in meaning.")
class RelatedPaper:
    similarity: float = strawberry.field(
        description="Cosine similarity of the two papers' title-and-abstract vectors, -1 to 1."
    )
    paper: PaperType = strawberry.field(description="The related paper.")


@strawberry.type(description="A researcher whose papers are near another's in meaning.")
class SimilarResearcher:
    similarity: float = strawberry.field(
        description="Cosine similarity of the two researchers' topic vectors, -1 to 1."
    )
    researcher: ResearcherType = strawberry.field(description="The similar researcher.")
