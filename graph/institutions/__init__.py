"""Raw affiliation strings to ROR institutions, offline, from the loaded ROR records.

``match_affiliation(index, text)`` is the one call a loader makes; the index comes from the
graph (:func:`index_from_graph`) or from ROR dump files (:func:`index_from_files`).
"""

from scholargraph.graph.institutions.evaluate import (
    Evaluation,
    GoldString,
    Scores,
    evaluate,
    read_gold,
)
from scholargraph.graph.institutions.index import (
    AffiliationIndex,
    IndexedInstitution,
    build_index,
)
from scholargraph.graph.institutions.matcher import THRESHOLD, Match, match_affiliation
from scholargraph.graph.institutions.sources import index_from_files, index_from_graph

__all__ = [
    "THRESHOLD",
    "AffiliationIndex",
    "Evaluation",
    "GoldString",
    "IndexedInstitution",
    "Match",
    "Scores",
    "build_index",
    "evaluate",
    "index_from_files",
    "index_from_graph",
    "match_affiliation",
    "read_gold",
]
