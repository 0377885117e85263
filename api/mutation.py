"""Curator mutations, behind the bearer token ``SCHOLARGRAPH_CURATOR_TOKEN``."""

from __future__ import annotations

from typing import Annotated

import strawberry

from scholargraph.api.context import Info
from scholargraph.api.types.common import arg, mutation
from scholargraph.api.types.curation import CurationEvent, CurationResult
from scholargraph.api.types.node import key_of
from scholargraph.graph import curation
from scholargraph.graph.repo import entities

Reason = Annotated[str, arg("Why, in words kept with the decision.")]
Actor = Annotated[str | None, arg("Who decided; unset: curator.")]


def parse_researcher_id(ref: str) -> int:
    """The researcher key in a global id or a key."""
    return entities.parse_researcher_id(key_of(ref, "Researcher"))


def _result(event: curation.CurationEvent) -> CurationResult:
    return CurationResult(event=CurationEvent.of(event))


@strawberry.type(description="Curator decisions; each needs the curator's bearer token.")
class Mutation:
    @mutation(
        "Merge researchers into a survivor: their papers, affiliations and ids move to it; "
        "their ids keep resolving to it."
    )
    async def merge(
        self,
        info: Info,
        survivor: Annotated[strawberry.ID, arg("The researcher that stays (global id or key).")],
        merged: Annotated[list[strawberry.ID], arg("The researchers merged into it.")],
        reason: Reason,
        actor: Actor = None,
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
        researcher: Annotated[strawberry.ID, arg("The researcher whose slots move.")],
        papers: Annotated[list[str], arg("The papers whose slots move: global ids or keys.")],
        reason: Reason,
        into: Annotated[
            strawberry.ID | None, arg("The researcher they move into; unset: a new one.")
        ] = None,
        actor: Actor = None,
    ) -> CurationResult:
        info.context.require_curator()
        event = await curation.split(
            info.context.db,
            parse_researcher_id(researcher),
            [key_of(paper, "Paper") for paper in papers],
            actor=actor or "curator",
            reason=reason,
            into=parse_researcher_id(into) if into is not None else None,
        )
        return _result(event)

    @mutation("Record that two researchers are different people.")
    async def mark_distinct(
        self,
        info: Info,
        researcher: Annotated[strawberry.ID, arg("One of the two researchers.")],
        other: Annotated[strawberry.ID, arg("The other one.")],
        reason: Reason,
        actor: Actor = None,
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
        researcher: Annotated[strawberry.ID, arg("The researcher to pin.")],
        paper: Annotated[str, arg("The paper whose slot is pinned: global id or key.")],
        reason: Reason,
        actor: Actor = None,
    ) -> CurationResult:
        info.context.require_curator()
        event = await curation.pin_paper(
            info.context.db,
            parse_researcher_id(researcher),
            key_of(paper, "Paper"),
            actor=actor or "curator",
            reason=reason,
        )
        return _result(event)
