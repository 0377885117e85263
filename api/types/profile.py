"""The summaries on a researcher page: identity, author positions, fields, most cited,
same-name records."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import strawberry

from scholargraph.api.types.category import Category
from scholargraph.api.types.common import resolver
from scholargraph.api.types.paper import Paper
from scholargraph.graph.repo import researchers, same_name
from scholargraph.graph.schema.relationships import MATCH_METHODS

if TYPE_CHECKING:
    from scholargraph.api.types.researcher import Researcher

ResearcherType = Annotated["Researcher", strawberry.lazy("scholargraph.api.types.researcher")]


@strawberry.type(description="An external author id merged into the researcher, and how.")
class ExternalId:
    key: str = strawberry.field(description="Scheme and value, e.g. s2:1688882.")
    scheme: str
    value: str
    method: str | None
    source: str | None

    @strawberry.field
    def method_description(self) -> str | None:
        return MATCH_METHODS.get(self.method or "")


@strawberry.type(description="Who the researcher is across the sources.")
class Identity:
    orcid: str | None
    s2_ids: list[str]
    openalex_ids: list[str]
    external_ids: list[ExternalId]
    merged_from: list[strawberry.ID] = strawberry.field(
        description="Ids of researcher records merged into this one; they resolve here."
    )


@strawberry.type(
    description=(
        "Where the researcher stands on their author lists. first, middle, last and solo "
        "count the matched papers (every author matched, so the position is known) whose "
        "author list is not alphabetical; alphabetical counts those whose list is."
    )
)
class AuthorPositions:
    first: int
    middle: int
    last: int
    solo: int
    alphabetical: int
    matched_papers: int
    total_papers: int

    @resolver('Say, "across the 5 of 6 papers where every author is matched".')
    def coverage(self) -> str:
        return (
            f"across the {self.matched_papers} of {self.total_papers} papers where every "
            f"author is matched"
        )

    @classmethod
    def of(cls, positions: researchers.AuthorPositions) -> AuthorPositions:
        return cls(
            first=positions.first,
            middle=positions.middle,
            last=positions.last,
            solo=positions.solo,
            alphabetical=positions.alphabetical,
            matched_papers=positions.matched,
            total_papers=positions.papers,
        )


@strawberry.type(description="Papers of the researcher in one category (a filter for papers).")
class FieldCount:
    category: Category
    papers: int
    primary_papers: int


@strawberry.type(description="The most-cited papers, with how far citation counts reach.")
class MostCited:
    papers: list[Paper]
    citations: int = strawberry.field(description="Citations across the counted papers.")
    counted_papers: int = strawberry.field(description="Papers with a citation count.")
    total_papers: int

    @strawberry.field
    def coverage(self) -> str:
        return (
            f"{self.citations} citations across the {self.counted_papers} of "
            f"{self.total_papers} papers we have counts for"
        )

    @classmethod
    def of(cls, found: researchers.MostCited) -> MostCited:
        return cls(
            papers=[Paper.of(p) for p in found.papers],
            citations=found.citations,
            counted_papers=found.counted,
            total_papers=found.total,
        )


@strawberry.type(description="One item of evidence in a same-person score.")
class Evidence:
    feature: str
    value: float
    weight: float = strawberry.field(description="Its log-likelihood ratio.")
    text: str


@strawberry.type(description="Another record under the same name, scored as the same person.")
class SameNameRecord:
    researcher: ResearcherType
    probability: float = strawberry.field(description="Chance that the two are one person.")
    log_odds: float
    rule: str | None = strawberry.field(description="The identifier rule that decided, if any.")
    evidence: list[Evidence]
    marked_distinct: bool = strawberry.field(description="A curator said they are two people.")

    @classmethod
    def of(cls, record: same_name.SameNameRecord) -> SameNameRecord:
        from scholargraph.api.types.researcher import Researcher

        result = record.score
        return cls(
            researcher=Researcher.of(record.researcher),
            probability=result.probability,
            log_odds=result.log_odds,
            rule=result.rule,
            evidence=[Evidence(feature=e.feature, value=e.value, weight=e.weight, text=e.text)
                      for e in result.evidence],
            marked_distinct=record.marked_distinct,
        )  # fmt: skip


@strawberry.type(
    description=(
        "Other researchers who publish under this name: other people, or the same person "
        "where the sources have not merged the records."
    )
)
class SameName:
    records: list[SameNameRecord]
    block_size: int = strawberry.field(
        description="Records filed under the name's block (initial and surname)."
    )
