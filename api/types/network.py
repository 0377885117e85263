from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from scholargraph.api.types.common import resolver, to_id
from scholargraph.graph.repo import network


@strawberry.type(description="A researcher in a drawn network.")
class NetworkNode:
    id: strawberry.ID = strawberry.field(description="The researcher's key (Researcher.key).")
    name: str = strawberry.field(description="Their name.")
    slug: str = strawberry.field(description="Their name as it shows in addresses.")
    paper_count: int = strawberry.field(description="Their papers in the graph.")
    citation_count: int = strawberry.field(description="Citations of their papers.")
    h_index: int | None = strawberry.field(description="Our h-index of theirs.")
    mean_year: float | None = strawberry.field(description="Mean year of their papers.")
    hop: int = strawberry.field(description="Coauthor hops from the centre.")
    community: int = strawberry.field(description="Louvain community; 0 is the largest.")
    x: float = strawberry.field(description="ForceAtlas2 layout, in [-1, 1].")
    y: float = strawberry.field(description="ForceAtlas2 layout, in [-1, 1].")


@strawberry.type(description="A coauthor tie; its weight is the number of joint papers.")
class NetworkEdge:
    source: strawberry.ID = strawberry.field(description="One end's key (NetworkNode.id).")
    target: strawberry.ID = strawberry.field(description="The other end's key.")
    joint_papers: int = strawberry.field(description="Papers the two wrote together.")
    first_year: int | None = strawberry.field(description="The year of their first joint paper.")
    last_year: int | None = strawberry.field(description="The year of their last joint paper.")


@strawberry.type(description="A coauthor network ready to draw.")
class Network:
    center: strawberry.ID = strawberry.field(description="The key of the researcher at its centre.")
    truncated: bool = strawberry.field(
        description="The network was cut at maxNodes: someone was left out."
    )
    modularity: float = strawberry.field(description="Modularity of the Louvain communities.")
    community_count: int = strawberry.field(description="How many communities were found.")
    found: strawberry.Private[network.Network]

    @resolver("The researchers drawn.")
    def nodes(self) -> list[NetworkNode]:
        return [
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
            for n in self.found.nodes
        ]

    @resolver("The coauthor ties between them.")
    def edges(self) -> list[NetworkEdge]:
        return [
            NetworkEdge(
                source=to_id(e.source),
                target=to_id(e.target),
                joint_papers=e.joint_papers,
                first_year=e.first_year,
                last_year=e.last_year,
            )
            for e in self.found.edges
        ]

    @resolver(
        "The same nodes and ties as one value in graphology's serialisation "
        "format (`{attributes, options, nodes: [{key, attributes}], edges: [{source, "
        "target, attributes}]}`, attribute names as in `nodes` and `edges`), which graphology "
        "and sigma.js import as is. One value instead of a field per node and tie: for "
        "networks of thousands of ties it is many times cheaper to serve than `nodes` and "
        "`edges`."
    )
    def graphology(self) -> JSON:
        return JSON(graphology_of(self.found))

    @classmethod
    def of(cls, found: network.Network) -> Network:
        return cls(
            center=to_id(found.center),
            truncated=found.truncated,
            modularity=found.modularity,
            community_count=found.community_count,
            found=found,
        )


def graphology_of(found: network.Network) -> dict[str, Any]:
    """``found`` in graphology's serialisation format (an undirected simple graph). Ties
    carry no ``key`` (graphology makes one on import) and no ``undirected`` flag (the graph's
    type says it): a big network's value is about a quarter smaller."""
    return {
        "attributes": {
            "center": to_id(found.center),
            "truncated": found.truncated,
            "modularity": found.modularity,
            "communityCount": found.community_count,
        },
        "options": {"type": "undirected", "multi": False, "allowSelfLoops": False},
        "nodes": [
            {
                "key": str(n.id),
                "attributes": {
                    "name": n.name,
                    "slug": n.slug,
                    "paperCount": n.paper_count,
                    "citationCount": n.citation_count,
                    "hIndex": n.h_index,
                    "meanYear": n.mean_year,
                    "hop": n.hop,
                    "community": n.community,
                    "x": n.x,
                    "y": n.y,
                },
            }
            for n in found.nodes
        ],
        "edges": [
            {
                "source": str(e.source),
                "target": str(e.target),
                "attributes": {
                    "jointPapers": e.joint_papers,
                    "firstYear": e.first_year,
                    "lastYear": e.last_year,
                },
            }
            for e in found.edges
        ],
    }
