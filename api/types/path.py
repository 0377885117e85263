from __future__ import annotations

from enum import Enum

import strawberry

from scholargraph.api.types.paper import Paper
from scholargraph.api.types.researcher import Researcher
from scholargraph.graph.repo import paths


@strawberry.type(description="Two coauthors in a chain, and the papers they wrote together.")
class PathHop:
    source: Researcher = strawberry.field(description="The researcher nearer the start.")
    target: Researcher = strawberry.field(description="The researcher nearer the end.")
    joint_papers: int = strawberry.field(description="Papers the two wrote together.")
    papers: list[Paper] = strawberry.field(description="Up to five joint papers, newest first.")
    confidence: float = strawberry.field(
        description="How sure the author matches behind the hop are (its best paper's weaker one)."
    )
    uncertain: bool = strawberry.field(description="The hop rests on a low-confidence match.")


@strawberry.type(description="A chain of coauthors from one researcher to another.")
class CollaborationChain:
    researchers: list[Researcher] = strawberry.field(description="The chain, start to end.")
    hops: list[PathHop] = strawberry.field(description="Each pair of neighbours in it.")
    length: int = strawberry.field(description="Its hops.")
    weakest_hop: int = strawberry.field(description="Joint papers of the weakest hop.")
    total_joint_papers: int = strawberry.field(description="Joint papers of all its hops.")
    uncertain: bool = strawberry.field(description="Some hop rests on a low-confidence match.")

    @classmethod
    def of(cls, chain: paths.Chain) -> CollaborationChain:
        hops = [
            PathHop(
                source=Researcher.of(h.source),
                target=Researcher.of(h.target),
                joint_papers=h.joint_papers,
                papers=[Paper.of(p) for p in h.papers],
                confidence=h.confidence,
                uncertain=h.uncertain,
            )
            for h in chain.hops
        ]
        return cls(
            researchers=[Researcher.of(r) for r in chain.researchers],
            hops=hops,
            length=chain.length,
            weakest_hop=chain.weakest,
            total_joint_papers=chain.total_joint_papers,
            uncertain=chain.uncertain,
        )


@strawberry.enum(description="How a collaboration-path search ended.")
class PathOutcome(Enum):
    FOUND = strawberry.enum_value("found", description="Chains within maxLength were found.")
    NO_PATH = strawberry.enum_value(
        "no_path",
        description="Every chain within maxLength was looked at: none meets the restrictions.",
    )
    STOPPED = strawberry.enum_value(
        "stopped",
        description=(
            "The search ran out of the request's time budget before it found a chain; one "
            "may exist (a smaller maxLength searches less)."
        ),
    )


@strawberry.type(description="The collaboration distance between two researchers, and why.")
class CollaborationPath:
    source: Researcher = strawberry.field(description="Where the chains start.")
    target: Researcher = strawberry.field(description="Where the chains end.")
    found: bool = strawberry.field(description="Some chain was found.")
    outcome: PathOutcome = strawberry.field(description="How the search ended.")
    distance: int | None = strawberry.field(description="Hops of the shortest chain.")
    max_length: int = strawberry.field(description="The most hops searched.")
    message: str = strawberry.field(
        description='Say, "no path within 3 hops from A to B inside math.DG".'
    )
    chains: list[CollaborationChain] = strawberry.field(
        description="The chains found; empty when none was."
    )

    @classmethod
    def of(cls, result: paths.PathResult) -> CollaborationPath:
        return cls(
            source=Researcher.of(result.source),
            target=Researcher.of(result.target),
            found=bool(result.chains),
            outcome=PathOutcome(result.outcome.value),
            distance=result.distance,
            max_length=result.max_length,
            message=result.message,
            chains=[CollaborationChain.of(c) for c in result.chains],
        )
