"""``scholargraph.analysis`` — the analyst toolkit for notebooks and scripts, without ``async``.

The graphs come from Neo4j (:func:`coauthors`, :func:`ego_network`), the same in Jupyter
as in a script; the rest are the seeded networkx functions of
:mod:`scholargraph.graph.analysis`, and :func:`nodes_frame` / :func:`ties_frame` give pandas
DataFrames. See ``docs/analysis.md``.
"""

from scholargraph.graph.analysis import (
    Communities,
    betweenness,
    collaboration_distance,
    components,
    ego,
    export,
    forceatlas2,
    louvain,
    pagerank,
    shortest_paths,
    strongest_chain,
    top_k,
)
from scholargraph.graph.analysis.notebook import (
    centrality,
    coauthors,
    communities,
    ego_network,
    nodes_frame,
    ties_frame,
)

__all__ = [
    "Communities",
    "betweenness",
    "centrality",
    "coauthors",
    "collaboration_distance",
    "communities",
    "components",
    "ego",
    "ego_network",
    "export",
    "forceatlas2",
    "louvain",
    "nodes_frame",
    "pagerank",
    "shortest_paths",
    "strongest_chain",
    "ties_frame",
    "top_k",
]
