from scholargraph.graph.schema.nodes import (
    Archive,
    Category,
    Identifier,
    Institution,
    Paper,
    PaperId,
    Researcher,
    Sequence,
)
from scholargraph.graph.schema.relationships import (
    MATCH_METHODS,
    Affiliated,
    Authored,
    Coauthor,
    Identifies,
    InCategory,
)
from scholargraph.graph.schema.sync import SyncBacklog, SyncLock, SyncState

__all__ = [
    "MATCH_METHODS",
    "Affiliated",
    "Archive",
    "Authored",
    "Category",
    "Coauthor",
    "Identifier",
    "Identifies",
    "InCategory",
    "Institution",
    "Paper",
    "PaperId",
    "Researcher",
    "Sequence",
    "SyncBacklog",
    "SyncLock",
    "SyncState",
]
