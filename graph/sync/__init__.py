"""``scholargraph sync``: keep the graph fresh.

Each run harvests arXiv's OAI-PMH ``ListRecords`` of every configured set from where it
stopped (:mod:`graph.sync.run`), then asks Semantic Scholar and OpenAlex about the papers
harvested, newest first. What a run has done is in the graph (:mod:`graph.sync.state`):
a ``SyncState`` node per set and a ``SyncBacklog`` node per paper waiting for enrichment,
written through the named queries of :mod:`queries.sync`, so a run stopped anywhere goes
on where it stopped and running twice gives the same graph. A lease in the graph keeps two
syncs from running at once (:mod:`graph.sync.schedule`).
"""

from scholargraph.graph.sync.run import SetReport, Sync, SyncOptions, SyncReport
from scholargraph.graph.sync.schedule import every, sync_once, wait_or_stop
from scholargraph.graph.sync.state import (
    ALL_SETS,
    Lease,
    SetState,
    SyncOverview,
    sync_overview,
)

__all__ = [
    "ALL_SETS",
    "Lease",
    "SetReport",
    "SetState",
    "Sync",
    "SyncOptions",
    "SyncOverview",
    "SyncReport",
    "every",
    "sync_once",
    "sync_overview",
    "wait_or_stop",
]
