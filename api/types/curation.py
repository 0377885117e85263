from __future__ import annotations

from datetime import datetime

import strawberry

from scholargraph.api.context import Info
from scholargraph.api.types.common import resolver, to_id
from scholargraph.api.types.researcher import Researcher
from scholargraph.api.types.vocabulary import CurationKind, CurationRoleKind
from scholargraph.graph import curation


@strawberry.type(description="A researcher a curation decision concerns, and in what role.")
class CurationRole:
    researcher_id: strawberry.ID = strawberry.field(description="The researcher's key.")
    role: CurationRoleKind = strawberry.field(description="What they are to the decision.")

    @resolver("The researcher as they now stand; null if they no longer exist.")
    async def researcher(self, info: Info) -> Researcher | None:
        found = await info.context.loaders.researchers.load(int(self.researcher_id))
        return Researcher.of(found) if found else None


@strawberry.type(description="A recorded curator decision: merge, split, distinct or pin.")
class CurationEvent:
    id: strawberry.ID = strawberry.field(description="The decision's own id.")
    kind: CurationKind = strawberry.field(description="What the decision did.")
    actor: str = strawberry.field(description="Who decided (machine for automatic moves).")
    reason: str = strawberry.field(description="Why, in the actor's words.")
    at: datetime = strawberry.field(description="When it was recorded (UTC).")
    papers: list[str] = strawberry.field(description="Papers whose author slots it moved.")
    roles: list[CurationRole] = strawberry.field(description="The researchers it concerns.")

    @classmethod
    def of(cls, event: curation.CurationEvent) -> CurationEvent:
        return cls(
            id=to_id(event.id),
            kind=CurationKind(event.kind),
            actor=event.actor,
            reason=event.reason,
            at=event.at,
            papers=list(event.papers),
            roles=[
                CurationRole(researcher_id=to_id(r), role=CurationRoleKind(role))
                for r, role in event.roles
            ],
        )


@strawberry.type(description="A decision taken, and the researchers as they now stand.")
class CurationResult:
    event: CurationEvent = strawberry.field(description="The decision as recorded.")

    @resolver("The researchers it concerns, as they now stand.")
    async def researchers(self, info: Info) -> list[Researcher]:
        ids = [int(role.researcher_id) for role in self.event.roles]
        found = await info.context.loaders.researchers.load_many(list(dict.fromkeys(ids)))
        return [Researcher.of(r) for r in found if r is not None]
