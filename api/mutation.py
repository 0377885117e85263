"""Curator mutations, behind the bearer token ``SCHOLARGRAPH_CURATOR_TOKEN``."""

from __future__ import annotations

import strawberry

from scholargraph.api.context import Info
from scholargraph.api.types.common import mutation
from scholargraph.api.types.curation import CurationEvent, CurationResult
from scholargraph.graph import curation
from scholargraph.graph.repo.entities import parse_researcher_id


def _result(event: curation.CurationEvent) -> CurationResult:
    return CurationResult(event=CurationEvent.of(event))


@strawberry.type
class Mutation:
    @mutation(
        "Merge researchers into a survivor: their papers, affiliations and ids move to it; "
        "their ids keep resolving to it."
    )
    async def merge(
        self,
        info: Info,
        survivor: strawberry.ID,
        merged: list[strawberry.ID],
        reason: str,
        actor: str | None = None,
    ) -> CurationResult:
        info.context.require_curator()
        event = await curation.merge(
            info.context.db,
            parse_researcher_id(survivor),
            [parse_researcher_id(m) for m in merged],
            actor=actor or "curator",
            reason=reason,
        )
        return _result(event)

    @mutation(
        "Move a researcher's author slots on the given papers to a new researcher, or into "
        "an existing one (reviving it if it had been merged away); the two are then marked "
        "distinct."
    )
    async def split(
        self,
        info: Info,
        researcher: strawberry.ID,
        papers: list[str],
        reason: str,
        into: strawberry.ID | None = None,
        actor: str | None = None,
    ) -> CurationResult:
        info.context.require_curator()
        event = await curation.split(
            info.context.db,
            parse_researcher_id(researcher),
            papers,
            actor=actor or "curator",
            reason=reason,
            into=parse_researcher_id(into) if into is not None else None,
        )
        return _result(event)

    @mutation("Record that two researchers are different people.")
    async def mark_distinct(
        self,
        info: Info,
        researcher: strawberry.ID,
        other: strawberry.ID,
        reason: str,
        actor: str | None = None,
    ) -> CurationResult:
        info.context.require_curator()
        event = await curation.mark_distinct(
            info.context.db,
            parse_researcher_id(researcher),
            parse_researcher_id(other),
            actor=actor or "curator",
            reason=reason,
        )
        return _result(event)

    @mutation("Fix a researcher's slot on a paper so loads never move it.")
    async def pin_paper(
        self,
        info: Info,
        researcher: strawberry.ID,
        paper: str,
        reason: str,
        actor: str | None = None,
    ) -> CurationResult:
        info.context.require_curator()
        event = await curation.pin_paper(
            info.context.db,
            parse_researcher_id(researcher),
            paper,
            actor=actor or "curator",
            reason=reason,
        )
        return _result(event)
