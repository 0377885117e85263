"""The coauthor graph as networkx objects: build, communities, centralities, distance,
layout and export for Gephi/VOSviewer.

From a notebook or a script, :mod:`scholargraph.analysis` fetches the graphs from Neo4j
without ``async`` and hands them over as networkx graphs or pandas DataFrames.

Every function takes plain rows or a :class:`networkx.Graph` and is seeded where chance
plays a part (``seed=0`` by default), so the same input gives the same answer.
"""

from scholargraph.graph.analysis.build import (
    DEFAULT_MAX_AUTHORS,
    Weighting,
    YearWindow,
    coauthor_graph_from_authorships,
    coauthor_graph_from_edges,
    ego,
    node_order,
)
from scholargraph.graph.analysis.centrality import betweenness, degree, pagerank, strength, top_k
from scholargraph.graph.analysis.communities import Communities, louvain
from scholargraph.graph.analysis.distance import (
    Chain,
    CollaborationDistance,
    ComponentSummary,
    collaboration_distance,
    components,
    shortest_paths,
    strongest_chain,
)
from scholargraph.graph.analysis.export import (
    FORMATS,
    Format,
    csv_paths,
    export,
    read_csv,
    write_csv,
    write_graphml,
    write_json,
)
from scholargraph.graph.analysis.gexf import write_gexf
from scholargraph.graph.analysis.layout import compile_steps as _compile_layout
from scholargraph.graph.analysis.layout import forceatlas2, normalise
from scholargraph.graph.analysis.louvain import compile_steps as _compile_louvain
from scholargraph.graph.analysis.vosviewer import vosviewer_paths, write_vosviewer


def compile_kernels() -> None:
    """Compile the numba steps of Louvain and ForceAtlas2 now (or load them from numba's
    cache): a server calls this at start, so that its first network does not wait for it."""
    _compile_louvain()
    _compile_layout()


__all__ = [
    "DEFAULT_MAX_AUTHORS",
    "FORMATS",
    "Chain",
    "CollaborationDistance",
    "Communities",
    "ComponentSummary",
    "Format",
    "Weighting",
    "YearWindow",
    "betweenness",
    "coauthor_graph_from_authorships",
    "coauthor_graph_from_edges",
    "collaboration_distance",
    "compile_kernels",
    "components",
    "csv_paths",
    "degree",
    "ego",
    "export",
    "forceatlas2",
    "louvain",
    "node_order",
    "normalise",
    "pagerank",
    "read_csv",
    "shortest_paths",
    "strength",
    "strongest_chain",
    "top_k",
    "vosviewer_paths",
    "write_csv",
    "write_gexf",
    "write_graphml",
    "write_json",
    "write_vosviewer",
]
