"""``scholargraph sync``: the harvest state of each OAI-PMH set, the enrichment backlog, and
the lease that lets one sync run at a time (see :mod:`graph.sync`)."""

from __future__ import annotations

from datetime import date
from typing import TypedDict

from scholargraph.queries._query import Query


class StateRow(TypedDict):
    set_spec: str
    datestamp: str | None
    harvest_from: str | None
    token: str | None
    run_started: str | None
    run_ended: str | None
    last_harvest: str | None
    harvested: int
    deleted: int
    backlog: int


class BacklogRow(TypedDict):
    arxiv_id: str
    newest: date | None


class DeletedRow(TypedDict):
    arxiv_id: str
    rank: str  # the withdrawn field's rank (graph.identity.precedence.deletion_rank)


_STATE = """
    s.set_spec AS set_spec, s.datestamp AS datestamp, s.harvest_from AS harvest_from,
    s.token AS token, s.run_started AS run_started, s.run_ended AS run_ended,
    s.last_harvest AS last_harvest, coalesce(s.harvested, 0) AS harvested,
    coalesce(s.deletions, 0) AS deleted,
    COUNT { (b:SyncBacklog {set_spec: s.set_spec}) } AS backlog
"""

STATES = Query(
    "sync.states",
    "MATCH (s:SyncState) RETURN" + _STATE + "ORDER BY set_spec",
)
# The state as the run found it (an unfinished run before it shows in run_started and
# run_ended), then the run marked started.
BEGIN_RUN = Query(
    "sync.begin_run",
    """
    MERGE (s:SyncState {set_spec: $set_spec})
    WITH s, s.run_started AS run_started, s.run_ended AS run_ended
    SET s.run_started = $now, s.harvested = 0, s.deletions = 0
    RETURN s.set_spec AS set_spec, s.datestamp AS datestamp, s.harvest_from AS harvest_from,
           s.token AS token, run_started, run_ended, s.last_harvest AS last_harvest,
           0 AS harvested, 0 AS deleted,
           COUNT { (b:SyncBacklog {set_spec: s.set_spec}) } AS backlog
    """,
    "write",
)
# One page is written: its papers join the backlog, its deleted records are marked withdrawn
# (papers the graph does not hold are left alone), and the harvest moves past it. One
# transaction, after the page's papers are committed: a crash before it harvests the page
# again, never skips it.
PAGE_DONE = Query(
    "sync.page_done",
    """
    MATCH (s:SyncState {set_spec: $set_spec})
    SET s.token = $token,
        s.harvest_from = $harvest_from,
        s.datestamp = CASE WHEN $datestamp IS NOT NULL
                           AND (s.datestamp IS NULL OR $datestamp > s.datestamp)
                           THEN $datestamp ELSE s.datestamp END,
        s.harvested = coalesce(s.harvested, 0) + size($rows),
        s.deletions = coalesce(s.deletions, 0) + size($deleted)
    WITH s
    CALL (s) {
        UNWIND $rows AS row
        MERGE (b:SyncBacklog {arxiv_id: row.arxiv_id})
        SET b.set_spec = s.set_spec, b.newest = row.newest
    }
    CALL (s) {
        UNWIND $deleted AS gone
        OPTIONAL MATCH (b:SyncBacklog {arxiv_id: gone.arxiv_id})
        DETACH DELETE b
        WITH gone
        MATCH (p:Paper {arxiv_id: gone.arxiv_id})
        SET p.withdrawn = true,
            p.field_ranks = [r IN coalesce(p.field_ranks, [])
                             WHERE NOT r STARTS WITH 'withdrawn='] + ('withdrawn=' + gone.rank)
        RETURN count(p) AS withdrawn
    }
    RETURN withdrawn
    """,
    "write",
)
HARVEST_ENDED = Query(
    "sync.harvest_ended",
    """
    MATCH (s:SyncState {set_spec: $set_spec})
    SET s.token = null, s.harvest_from = null, s.last_harvest = $now
    """,
    "write",
)
END_RUN = Query(
    "sync.end_run",
    "MATCH (s:SyncState {set_spec: $set_spec}) SET s.run_ended = $now",
    "write",
)
BACKLOG_NEXT = Query(
    "sync.backlog_next",
    """
    MATCH (b:SyncBacklog)
    RETURN b.arxiv_id AS arxiv_id
    ORDER BY coalesce(b.newest, date('0001-01-01')) DESC, b.arxiv_id DESC
    LIMIT $limit
    """,
)
BACKLOG_DONE = Query(
    "sync.backlog_done",
    """
    UNWIND $ids AS arxiv_id
    MATCH (b:SyncBacklog {arxiv_id: arxiv_id})
    DELETE b
    """,
    "write",
)
# Writing the flag first takes the node's write lock, so two syncs asking at once are
# served one after the other and the second sees the first one's holder.
ACQUIRE_LOCK = Query(
    "sync.acquire_lock",
    """
    MERGE (l:SyncLock {name: $name})
    SET l.taken = true
    WITH l, l.holder IS NULL OR l.holder = $holder OR l.expires < $now AS free
    SET l.holder = CASE WHEN free THEN $holder ELSE l.holder END,
        l.expires = CASE WHEN free THEN $expires ELSE l.expires END
    REMOVE l.taken
    RETURN free AS acquired, l.holder AS holder, l.expires AS expires
    """,
    "write",
)
RELEASE_LOCK = Query(
    "sync.release_lock",
    """
    MATCH (l:SyncLock {name: $name})
    WHERE l.holder = $holder
    SET l.holder = null, l.expires = null
    """,
    "write",
)

ROW_TYPES: dict[Query, object] = {PAGE_DONE: BacklogRow}
