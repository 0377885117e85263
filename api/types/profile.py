"""The summaries on a researcher page: identity, author positions, fields, most cited,
same-name records."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import strawberry

from scholargraph.api.types.category import Category
from scholargraph.api.types.common import resolver
from scholargraph.api.types.paper import Paper
from scholargraph.api.types.vocabulary import DataSource, IdentifierScheme, MatchMethod, wire_value
from scholargraph.graph.repo import researchers, same_name
from scholargraph.graph.schema.relationships import MATCH_METHODS

if TYPE_CHECKING:
    from scholargraph.api.types.researcher import Researcher

ResearcherType = Annotated["Researcher", strawberry.lazy("scholargraph.api.types.researcher")]


@strawberry.type(description="An external author id merged into the researcher, and how.")
class ExternalId:
    key: str = strawberry.field(description="Scheme and value, e.g. s2:1688882.")
    scheme: IdentifierScheme = strawberry.field(description="Whose id it is.")
    value: str = strawberry.field(description="The id itself, e.g. 1688882.")
    method: MatchMethod | None = strawberry.field(description="How it was matched.")
    source: DataSource | None = strawberry.field(description="The source that gave it.")

    @resolver("How it was matched, in words.")
    def method_description(self) -> str | None:
        return MATCH_METHODS.get(wire_value(self.method)) if self.method else None

    @classmethod
    def of(cls, link: researchers.IdentifierLink) -> ExternalId:
        return cls(
            key=link.key,
            scheme=IdentifierScheme(link.scheme),
            value=link.value,
            method=MatchMethod(link.method) if link.method else None,
            source=DataSource(link.source) if link.source else None,
        )


@strawberry.type(description="Who the researcher is across the sources.")
class Identity:
    orcid: str | None = strawberry.field(description="Their ORCID iD.")
    s2_ids: list[str] = strawberry.field(description="Their Semantic Scholar author ids.")
    openalex_ids: list[str] = strawberry.field(description="Their OpenAlex author ids (A…).")
    external_ids: list[ExternalId] = strawberry.field(
        description="Every external id merged into them, and how."
    )
    merged_from: list[strawberry.ID] = strawberry.field(
        description="Keys of researcher records merged into this one; they resolve here."
    )


@strawberry.type(
    description=(
        "Where the researcher stands on their author lists. first, middle, last and solo "
        "count the matched papers (every author matched, so the position is known) whose "
        "author list is not alphabetical; alphabetical counts those whose list is."
    )
)
class AuthorPositions:
    first: int = strawberry.field(description="Papers where they are the first author.")
    middle: int = strawberry.field(description="Papers where they are a middle author.")
    last: int = strawberry.field(description="Papers where they are the last author.")
    solo: int = strawberry.field(description="Papers they wrote alone.")
    alphabetical: int = strawberry.field(
        description="Papers whose author list is alphabetical (so the position says nothing)."
    )
    matched_papers: int = strawberry.field(description="Papers with every author matched.")
    total_papers: int = strawberry.field(description="All their papers.")

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
    category: Category = strawberry.field(description="The category.")
    papers: int = strawberry.field(description="Their papers in it, primary or cross-listed.")
    primary_papers: int = strawberry.field(description="Their papers primarily in it.")


@strawberry.type(description="The most-cited papers, with how far citation counts reach.")
class MostCited:
    papers: list[Paper] = strawberry.field(description="The papers, most cited first.")
    citations: int = strawberry.field(description="Citations across the counted papers.")
    counted_papers: int = strawberry.field(description="Papers with a citation count.")
    total_papers: int = strawberry.field(description="All their papers.")

    @resolver('Say, "120 citations across the 5 of 6 papers we have counts for".')
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
    feature: str = strawberry.field(description="What was compared, e.g. coauthors.")
    value: float = strawberry.field(description="What the comparison found.")
    weight: float = strawberry.field(description="Its log-likelihood ratio.")
    text: str = strawberry.field(description="The evidence in words.")


@strawberry.type(description="Another record under the same name, scored as the same person.")
class SameNameRecord:
    researcher: ResearcherType = strawberry.field(description="The other record.")
    probability: float = strawberry.field(description="Chance that the two are one person.")
    log_odds: float = strawberry.field(description="The same chance as log-odds.")
    rule: str | None = strawberry.field(description="The identifier rule that decided, if any.")
    evidence: list[Evidence] = strawberry.field(description="What the score rests on.")
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
    records: list[SameNameRecord] = strawberry.field(
        description="The other records under the name."
    )
    block_size: int = strawberry.field(
        description="Records filed under the name's block (initial and surname)."
    )
