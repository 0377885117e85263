from __future__ import annotations

import strawberry

from api.types.common import to_id
from graph.repo import network


@strawberry.type(description="A researcher in a drawn network.")
class NetworkNode:
    id: strawberry.ID
    name: str
    slug: str
    paper_count: int
    citation_count: int
    h_index: int | None
    mean_year: float | None = strawberry.field(description="Mean year of their papers.")
    hop: int = strawberry.field(description="Coauthor hops from the centre.")
    community: int = strawberry.field(description="Louvain community; 0 is the largest.")
    x: float = strawberry.field(description="ForceAtlas2 layout, in [-1, 1].")
    y: float


@strawberry.type(description="A coauthor tie; its weight is the number of joint papers.")
class NetworkEdge:
    source: strawberry.ID
    target: strawberry.ID
    joint_papers: int
    first_year: int | None
    last_year: int | None


@strawberry.type(description="A coauthor network ready to draw.")
class Network:
    center: strawberry.ID
    nodes: list[NetworkNode]
    edges: list[NetworkEdge]
    truncated: bool = strawberry.field(description="maxNodes left someone out.")
    modularity: float
    community_count: int

    @classmethod
    def of(cls, found: network.Network) -> Network:
        nodes = [
            NetworkNode(
                id=to_id(n.id),
                name=n.name,
                slug=n.slug,
                paper_count=n.paper_count,
                citation_count=n.citation_count,
                h_index=n.h_index,
                mean_year=n.mean_year,
                hop=n.hop,
                community=n.community,
                x=n.x,
                y=n.y,
            )
            for n in found.nodes
        ]
        edges = [
            NetworkEdge(
                source=to_id(e.source),
                target=to_id(e.target),
                joint_papers=e.joint_papers,
                first_year=e.first_year,
                last_year=e.last_year,
            )
            for e in found.edges
        ]
        return cls(
            center=to_id(found.center),
            nodes=nodes,
            edges=edges,
            truncated=found.truncated,
            modularity=found.modularity,
            community_count=found.community_count,
        )
