"""Paper identity in the graph: the ids a paper is known by, merges, renames and unmerges.

Every id a source gives a paper is one ``(:PaperId {key})-[:IDENTIFIES_PAPER]->(:Paper)``
(``arxiv:2302.13971``, ``doi:10.18653/v1/n19-1423``, ``s2:<sha>``, ``openalex:W…``,
``mag:…``, ``corpus:…``); an id identifies one paper, the first that held it. A merged-away
paper keeps its node as ``(:MergedPaper)-[:MERGED_INTO]->(:Paper)`` with what an unmerge
needs to restore it (``restore``, JSON); its ids move to the survivor, so every old key
keeps resolving.
"""

from __future__ import annotations

from typing import TypedDict

from scholargraph.queries._query import Query


class PaperIdKey(TypedDict):
    key: str  # "<scheme>:<value>"
    scheme: str
    value: str


class PaperIdRow(TypedDict):
    """The ids a batch's records give one paper, and the DOIs they print."""

    key: str
    ids: list[PaperIdKey]
    dois: list[str]


# The survivor's categories, replaced when the merge or unmerge names them ($categories).
_SET_CATEGORIES = """
    CALL (s) {
      WITH s WHERE $categories IS NOT NULL
      MATCH (s)-[ic:IN_CATEGORY]->()
      DELETE ic
    }
    CALL (s) {
      UNWIND coalesce($categories, []) AS cat
      MATCH (c:Category {code: cat.code})
      MERGE (s)-[ic:IN_CATEGORY]->(c)
      SET ic.primary = cat.primary
    }
"""
# The papers holding any of the ids, and (for stores written before paper ids existed) the
# papers keyed as the records would be.
LOOKUP_PAPERS = Query(
    "paper_identity.lookup_papers",
    """
    CALL () {
      UNWIND $ids AS id
      MATCH (i:PaperId {key: id})-[:IDENTIFIES_PAPER]->(p:Paper)
      USING INDEX SEEK i:PaperId(key)
      RETURN p
      UNION
      UNWIND $keys AS key
      MATCH (p:Paper {key: key})
      USING INDEX SEEK p:Paper(key)
      RETURN p
    }
    WITH DISTINCT p
    RETURN collect({key: p.key, ids: [(i:PaperId)-[:IDENTIFIES_PAPER]->(p) | i.key],
                    arxiv_id: p.arxiv_id, doi: p.doi, s2_id: p.s2_id,
                    openalex_id: p.openalex_id, ranks: coalesce(p.field_ranks, []),
                    distinct: [(p)-[:DISTINCT_FROM]-(d:Paper) | d.key]}) AS rows
    """,
)
PAPER_RANKS = Query(
    "paper_identity.paper_ranks",
    """
    UNWIND $keys AS key
    MATCH (p:Paper {key: key})
    USING INDEX SEEK p:Paper(key)
    RETURN collect({key: key, ranks: coalesce(p.field_ranks, [])}) AS rows
    """,
)
# An id another paper holds stays there.
UPSERT_PAPER_IDS = Query(
    "paper_identity.upsert_paper_ids",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.key})
    USING INDEX SEEK p:Paper(key)
    SET p.dois = COLLECT { UNWIND coalesce(p.dois, []) + row.dois AS x
                           RETURN DISTINCT x ORDER BY x },
        p.s2_ids = COLLECT { UNWIND coalesce(p.s2_ids, []) +
                                    [i IN row.ids WHERE i.scheme = 's2' | i.value] AS x
                             RETURN DISTINCT x ORDER BY x },
        p.openalex_ids = COLLECT { UNWIND coalesce(p.openalex_ids, []) +
                                          [i IN row.ids WHERE i.scheme = 'openalex' | i.value]
                                          AS x
                                   RETURN DISTINCT x ORDER BY x },
        p.mag_ids = COLLECT { UNWIND coalesce(p.mag_ids, []) +
                                     [i IN row.ids WHERE i.scheme = 'mag' | i.value] AS x
                              RETURN DISTINCT x ORDER BY x }
    WITH p, row
    CALL (p, row) {
      UNWIND row.ids AS id
      MERGE (i:PaperId {key: id.key})
      ON CREATE SET i.scheme = id.scheme, i.value = id.value
      WITH p, i
      WHERE NOT (i)-[:IDENTIFIES_PAPER]->()
      CREATE (i)-[:IDENTIFIES_PAPER]->(p)
    }
    """,
    "write",
)
RENAME_PAPER = Query(
    "paper_identity.rename_paper",
    """
    MATCH (p:Paper {key: $old})
    SET p.key = $new,
        p.former_keys = [k IN coalesce(p.former_keys, []) WHERE k <> $new] + $old
    """,
    "write",
)
# What a merge or an unmerge reads of a paper, merged away or not.
PAPER_STATES = Query(
    "paper_identity.paper_states",
    """
    UNWIND $keys AS key
    OPTIONAL MATCH (live:Paper {key: key})
    OPTIONAL MATCH (gone:MergedPaper {key: key})
    USING INDEX SEEK gone:MergedPaper(key)
    WITH key, coalesce(live, gone) AS p
    WHERE p IS NOT NULL
    RETURN key, properties(p) AS props,
           [(p)-[ic:IN_CATEGORY]->(c:Category) | {code: c.code, primary: ic.primary}]
             AS categories,
           [(r:Researcher)-[a:AUTHORED]->(p) | {researcher: r.id, props: properties(a)}]
             AS slots,
           [(i:PaperId)-[:IDENTIFIES_PAPER]->(p) | i.key] AS ids,
           [(p)-[:MERGED_INTO]->(s:Paper) | s.key][0] AS merged_into
    """,
)
# ``merged`` joins ``survivor``: its ids, its authorships (a researcher on both keeps the
# survivor's slot, with both sources), the fields it wins ($props, $ranks, $categories).
MERGE_PAPER = Query(
    "paper_identity.merge_paper",
    """
    MATCH (s:Paper {key: $survivor}), (m:Paper {key: $merged})
    REMOVE m:Paper
    SET m:MergedPaper, m.restore = $restore
    MERGE (m)-[:MERGED_INTO]->(s)
    WITH s, m
    CALL (s, m) {
      MATCH (i:PaperId)-[x:IDENTIFIES_PAPER]->(m)
      CREATE (i)-[:IDENTIFIES_PAPER]->(s)
      DELETE x
    }
    CALL (s, m) {
      MATCH (r:Researcher)-[a:AUTHORED]->(m)
      OPTIONAL MATCH (r)-[b:AUTHORED]->(s)
      CALL (r, s, a, b) {
        WITH * WHERE b IS NULL
        CREATE (r)-[c:AUTHORED]->(s)
        SET c = properties(a)
      }
      CALL (a, b) {
        WITH * WHERE b IS NOT NULL
        SET b.sources = reduce(acc = coalesce(b.sources, []), x IN coalesce(a.sources, []) |
                               CASE WHEN x IN acc THEN acc ELSE acc + x END),
            b.source_ids = reduce(acc = coalesce(b.source_ids, []),
                                  x IN coalesce(a.source_ids, []) |
                                  CASE WHEN x IN acc THEN acc ELSE acc + x END),
            b.pinned = coalesce(b.pinned, false) OR coalesce(a.pinned, false)
      }
      DELETE a
    }
    CALL (m) {
      MATCH (m)-[ic:IN_CATEGORY]->()
      DELETE ic
    }
    """
    + _SET_CATEGORIES
    + """
    SET s += $props,
        s.field_ranks = $ranks,
        s.retrieved = CASE WHEN s.retrieved IS NULL OR m.retrieved > s.retrieved
                           THEN m.retrieved ELSE s.retrieved END,
        s.sources = COLLECT { UNWIND coalesce(s.sources, []) + coalesce(m.sources, []) AS x
                              RETURN DISTINCT x ORDER BY x },
        s.fingerprints = COLLECT { UNWIND coalesce(s.fingerprints, []) +
                                          coalesce(m.fingerprints, []) AS x
                                   RETURN DISTINCT x ORDER BY x },
        s.dois = COLLECT { UNWIND coalesce(s.dois, []) + coalesce(m.dois, []) AS x
                           RETURN DISTINCT x ORDER BY x },
        s.s2_ids = COLLECT { UNWIND coalesce(s.s2_ids, []) + coalesce(m.s2_ids, []) AS x
                             RETURN DISTINCT x ORDER BY x },
        s.openalex_ids = COLLECT { UNWIND coalesce(s.openalex_ids, []) +
                                          coalesce(m.openalex_ids, []) AS x
                                   RETURN DISTINCT x ORDER BY x },
        s.mag_ids = COLLECT { UNWIND coalesce(s.mag_ids, []) + coalesce(m.mag_ids, []) AS x
                              RETURN DISTINCT x ORDER BY x }
    """,
    "write",
)
# The reverse: the merged paper is a paper again with its ids and authorships; the survivor
# gives back what it took (the edges it gained and the fields whose winner came from it, if
# nothing has outranked them since) and the two are marked distinct.
UNMERGE_PAPER = Query(
    "paper_identity.unmerge_paper",
    """
    MATCH (m:MergedPaper {key: $merged})-[link:MERGED_INTO]->(s:Paper)
    USING INDEX SEEK m:MergedPaper(key)
    DELETE link
    REMOVE m:MergedPaper
    SET m:Paper, m.restore = null
    SET s.fingerprints = [f IN coalesce(s.fingerprints, []) WHERE NOT f IN $fingerprints]
    WITH s, m
    CALL (s, m) {
      UNWIND $ids AS id
      MATCH (i:PaperId {key: id})-[x:IDENTIFIES_PAPER]->(s)
      CREATE (i)-[:IDENTIFIES_PAPER]->(m)
      DELETE x
    }
    CALL (s, m) {
      UNWIND $slots AS slot
      MATCH (was:Researcher {id: slot.researcher})
      MATCH (r:Researcher {id: coalesce(was.merged_into, was.id)})
      CREATE (r)-[a:AUTHORED]->(m)
      SET a = slot.props
      WITH r, slot
      WHERE slot.created
      MATCH (r)-[b:AUTHORED]->(s)
      WHERE b.sources = slot.props.sources
      DELETE b
    }
    CALL (m) {
      UNWIND $merged_categories AS cat
      MATCH (c:Category {code: cat.code})
      MERGE (m)-[ic:IN_CATEGORY]->(c)
      SET ic.primary = cat.primary
    }
    """
    + _SET_CATEGORIES
    + """
    SET s += $props, s.field_ranks = $ranks
    WITH s, m
    CALL (s, m) {
      WITH CASE WHEN s.key < m.key THEN s ELSE m END AS a,
           CASE WHEN s.key < m.key THEN m ELSE s END AS b
      MERGE (a)-[:DISTINCT_FROM]->(b)
    }
    """,
    "write",
)
RECORD_PAPER_EVENT = Query(
    "paper_identity.record_paper_event",
    """
    CREATE (e:CurationEvent {id: $event.id, kind: $event.kind, actor: $event.actor,
                             reason: $event.reason, at: datetime($event.at),
                             papers: [$event.survivor, $event.merged]})
    WITH e
    OPTIONAL MATCH (s:Paper {key: $event.survivor})
    OPTIONAL MATCH (live:Paper {key: $event.merged})
    OPTIONAL MATCH (gone:MergedPaper {key: $event.merged})
    USING INDEX SEEK gone:MergedPaper(key)
    WITH e, s, coalesce(live, gone) AS m
    CALL (e, s) {
      WITH * WHERE s IS NOT NULL
      CREATE (e)-[:CONCERNS {role: 'survivor'}]->(s)
    }
    CALL (e, m) {
      WITH * WHERE m IS NOT NULL
      CREATE (e)-[:CONCERNS {role: 'merged'}]->(m)
    }
    """,
    "write",
)
PAPER_EVENTS = Query(
    "paper_identity.paper_events",
    """
    MATCH (e:CurationEvent)
    WHERE e.kind IN ['paper_merge', 'paper_unmerge'] AND $key IN e.papers
    RETURN e.id AS id, e.kind AS kind, e.actor AS actor, e.reason AS reason, e.at AS at,
           e.papers AS papers
    ORDER BY e.at
    """,
)
# A key any paper has ever had (its own, a former one, or any of its ids) → the paper now.
RESOLVE_PAPER = Query(
    "paper_identity.resolve_paper",
    """
    OPTIONAL MATCH (direct:Paper {key: $ref})
    OPTIONAL MATCH (:PaperId {key: $id})-[:IDENTIFIES_PAPER]->(byid:Paper)
    OPTIONAL MATCH (gone:MergedPaper {key: $ref})-[:MERGED_INTO]->(survivor:Paper)
    USING INDEX SEEK gone:MergedPaper(key)
    RETURN coalesce(direct, byid, survivor).key AS key
    """,
)

ROW_TYPES: dict[Query, type] = {UPSERT_PAPER_IDS: PaperIdRow}
