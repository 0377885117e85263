"""Curator decisions: merge, split, mark distinct, pin, each recorded as a ``CurationEvent``.

Moves keep the provenance on the moved edges; a curator's own assignment of a slot (split,
pin) sets ``method = 'curator'``, ``pinned = true`` and ``confidence = 1.0`` so that later
loads never undo it.
"""

from typing import TypedDict

from scholargraph.queries._query import Query

STATES = Query(
    "curation.states",
    """
    UNWIND $ids AS id
    OPTIONAL MATCH (r:Researcher {id: id})
    RETURN id, r IS NOT NULL AS found, r.name AS name, r.merged_into AS merged_into,
           r.orcid AS orcid, [(r)-[:DISTINCT_FROM]-(d:Researcher) | d.id] AS distinct_from
    """,
)


class PairRow(TypedDict):
    """``merged`` joins ``survivor``."""

    survivor: int
    merged: int


# Papers two researchers both authored: at the same position they are one slot seen twice;
# at different positions they are two people on one paper.
SHARED_PAPERS = Query(
    "curation.shared_papers",
    """
    UNWIND $rows AS row
    MATCH (s:Researcher {id: row.survivor})-[a:AUTHORED]->(p:Paper)<-[b:AUTHORED]-(m:Researcher)
    USING INDEX SEEK s:Researcher(id)
    WHERE m.id = row.merged
    RETURN s.id AS survivor, p.key AS paper, a.position AS survivor_position, m.id AS merged,
           b.position AS merged_position
    """,
)


def joined_lists(kept: str, folded: str, names: tuple[str, ...]) -> str:
    """``SET`` items joining the list properties ``names`` of edge ``folded`` into edge
    ``kept``: each the sorted distinct union of both (a property either lacks is empty)."""
    return ",\n        ".join(
        f"{kept}.{name} = COLLECT {{ UNWIND coalesce({kept}.{name}, []) "
        f"+ coalesce({folded}.{name}, []) AS x RETURN DISTINCT x ORDER BY x }}"
        for name in names
    )


def widened_years(edge: str, first: str, last: str) -> str:
    """``SET`` items widening ``edge``'s ``first_year`` and ``last_year`` to take in the
    expressions ``first`` and ``last`` (a null one changes nothing)."""
    return (
        f"{edge}.first_year = CASE WHEN {first} IS NULL THEN {edge}.first_year\n"
        f"            WHEN {edge}.first_year IS NULL OR {first} < {edge}.first_year\n"
        f"            THEN {first} ELSE {edge}.first_year END,\n"
        f"        {edge}.last_year = CASE WHEN {last} IS NULL THEN {edge}.last_year\n"
        f"            WHEN {edge}.last_year IS NULL OR {last} > {edge}.last_year\n"
        f"            THEN {last} ELSE {edge}.last_year END"
    )


# What one slot's edge says about where the slot comes from, joined when two edges of one slot
# become one (a move onto the edge the target holds, a write's fold): ``mentions`` is joined
# apart where a fold drops its own source's mention.
SLOT_EDGE_LISTS = (
    "sources",
    "source_ids",
    "affiliations",
    "raw_affiliations",
    "institutions",
)


class MoveRow(TypedDict):
    """The ``source``'s slots on ``papers`` (every slot: None) go to ``target``."""

    source: int
    target: int
    papers: list[str] | None


# A slot the target already holds (the same slot seen twice) keeps one edge: the target's,
# with the moved edge's sources, ids, mentions, affiliations and institution ids, and the
# stronger rule. No two rows move one slot, nor onto one edge (see graph.curation.MoveWave).
MOVE_AUTHORSHIPS = Query(
    "curation.move_authorships",
    """
    UNWIND $rows AS row
    MATCH (source:Researcher {id: row.source})-[a:AUTHORED]->(p:Paper)
    USING INDEX SEEK source:Researcher(id)
    WHERE row.papers IS NULL OR p.key IN row.papers
    MATCH (target:Researcher {id: row.target})
    USING INDEX SEEK target:Researcher(id)
    OPTIONAL MATCH (target)-[existing:AUTHORED]->(p)
    CALL (target, a, p, existing) {
      WITH * WHERE existing IS NULL
      CREATE (target)-[moved:AUTHORED]->(p)
      SET moved = properties(a)
      SET moved.method = CASE WHEN $assign THEN 'curator' ELSE moved.method END,
          moved.confidence = CASE WHEN $assign THEN 1.0 ELSE moved.confidence END,
          moved.rank = CASE WHEN $assign THEN 0 ELSE moved.rank END,
          moved.pinned = $assign OR coalesce(moved.pinned, false)
    }
    CALL (a, existing) {
      WITH * WHERE existing IS NOT NULL
      WITH a, existing, coalesce(a.rank, 99) < coalesce(existing.rank, 99) AS stronger
      SET existing.method = CASE WHEN stronger THEN a.method ELSE existing.method END,
          existing.confidence = CASE WHEN stronger THEN a.confidence
                                     ELSE existing.confidence END,
          existing.rank = CASE WHEN stronger THEN a.rank ELSE existing.rank END,
    """
    + joined_lists("existing", "a", (*SLOT_EDGE_LISTS, "mentions"))
    + """
    }
    DELETE a
    RETURN row.source AS source, row.target AS target, collect(p.key) AS moved
    """,
    "write",
)
# Joins AFFILIATED edge ``a`` into ``b`` (same institution and source): the years widened,
# the marks of what gave it (slots, profiles and their ids, matched strings) joined, the
# higher score kept with its method (see writer.UPSERT_AFFILIATIONS); every variable carried.
# The score is weighed in the SET, against ``b`` as earlier rows left it: weighed in a WITH,
# every row was weighed before any row's SET (an Eager between them), and of two edges
# joined into one the last won, not the better.
JOIN_AFFILIATION = (
    """
    SET """
    + widened_years("b", "a.first_year", "a.last_year")
    + """,
        b.profile_years = COLLECT { UNWIND coalesce(b.profile_years, [])
                                           + coalesce(a.profile_years, []) AS x
                                    RETURN DISTINCT x ORDER BY x },
        b.matches = COLLECT { UNWIND coalesce(b.matches, []) + coalesce(a.matches, []) AS x
                              RETURN DISTINCT x ORDER BY x },
        b.from_papers = coalesce(b.from_papers, false) OR coalesce(a.from_papers, false),
        b.from_profile = coalesce(b.from_profile, false) OR coalesce(a.from_profile, false),
        b.profile_keys = COLLECT { UNWIND coalesce(b.profile_keys, [])
                                          + coalesce(a.profile_keys, []) AS x
                                   RETURN DISTINCT x ORDER BY x },
        b.from_strings = coalesce(b.from_strings, false) OR coalesce(a.from_strings, false),
        b.raw = COLLECT { UNWIND coalesce(b.raw, []) + coalesce(a.raw, []) AS x
                          RETURN DISTINCT x ORDER BY x LIMIT 20 }
    SET b += CASE WHEN a.score IS NOT NULL
                       AND (b.score IS NULL OR a.score > b.score
                            OR (a.score = b.score AND a.method < b.method))
                  THEN {method: a.method, score: a.score} ELSE {} END
"""
)
# Folds AFFILIATED edge ``a`` into ``b``: joined, then gone.
FOLD_AFFILIATION = (
    JOIN_AFFILIATION
    + """
    DELETE a
"""
)
MOVE_AFFILIATIONS = Query(
    "curation.move_affiliations",
    """
    UNWIND $rows AS row
    MATCH (source:Researcher {id: row.merged})-[a:AFFILIATED]->(i:Institution)
    USING INDEX SEEK source:Researcher(id)
    MATCH (target:Researcher {id: row.survivor})
    USING INDEX SEEK target:Researcher(id)
    MERGE (target)-[b:AFFILIATED {source: a.source}]->(i)
    """
    + FOLD_AFFILIATION,
    "write",
)
MOVE_IDENTIFIERS = Query(
    "curation.move_identifiers",
    """
    UNWIND $rows AS row
    MATCH (i:Identifier)-[x:IDENTIFIES]->(source:Researcher {id: row.merged})
    USING INDEX SEEK source:Researcher(id)
    MATCH (target:Researcher {id: row.survivor})
    USING INDEX SEEK target:Researcher(id)
    CREATE (i)-[y:IDENTIFIES]->(target)
    SET y = properties(x)
    DELETE x
    """,
    "write",
)
# The survivor takes the merged researcher's names, ids and scoring features; the merged node
# stays, pointing at the survivor, and whatever pointed at it now points at the survivor.
ABSORB = Query(
    "curation.absorb",
    """
    UNWIND $rows AS row
    MATCH (s:Researcher {id: row.survivor}), (m:Researcher {id: row.merged})
    USING INDEX SEEK s:Researcher(id)
    USING INDEX SEEK m:Researcher(id)
    WITH s, m, m.orcid AS orcid
    SET m.orcid = null
    WITH s, m, orcid
    SET s.orcid = coalesce(s.orcid, orcid),
        s.s2_ids = reduce(acc = coalesce(s.s2_ids, []), x IN coalesce(m.s2_ids, []) |
                          CASE WHEN x IN acc THEN acc ELSE acc + x END),
        s.openalex_ids = reduce(acc = coalesce(s.openalex_ids, []),
                                x IN coalesce(m.openalex_ids, []) |
                                CASE WHEN x IN acc THEN acc ELSE acc + x END),
        s.alt_names = reduce(acc = coalesce(s.alt_names, []),
                             x IN [m.name] + coalesce(m.alt_names, []) |
                             CASE WHEN x IN acc OR x = s.name THEN acc ELSE acc + x END),
        s.affiliation_names = reduce(acc = coalesce(s.affiliation_names, []),
                                     x IN coalesce(m.affiliation_names, []) |
                                     CASE WHEN x IN acc THEN acc ELSE acc + x END)[..20],
        s.profile_affiliations = reduce(acc = coalesce(s.profile_affiliations, []),
                                        x IN coalesce(m.profile_affiliations, []) |
                                        CASE WHEN x IN acc THEN acc ELSE acc + x END)[..20],
        s.coauthor_keys = reduce(acc = coalesce(s.coauthor_keys, []),
                                 x IN coalesce(m.coauthor_keys, []) |
                                 CASE WHEN x IN acc THEN acc ELSE acc + x END)[..100],
        s.category_codes = reduce(acc = coalesce(s.category_codes, []),
                                  x IN coalesce(m.category_codes, []) |
                                  CASE WHEN x IN acc THEN acc ELSE acc + x END)[..20],
        s.year_min = CASE WHEN s.year_min IS NULL OR m.year_min < s.year_min
                          THEN m.year_min ELSE s.year_min END,
        s.year_max = CASE WHEN s.year_max IS NULL OR m.year_max > s.year_max
                          THEN m.year_max ELSE s.year_max END,
        m.merged_into = s.id
    SET s.alt_names_text = reduce(t = '', x IN s.alt_names | t + ' ' + x)
    WITH s, m
    OPTIONAL MATCH (earlier:Researcher {merged_into: m.id})
    SET earlier.merged_into = s.id
    """,
    "write",
)
REVIVE = Query(
    "curation.revive",
    "MATCH (r:Researcher {id: $id}) SET r.merged_into = null",
    "write",
)
CREATE_RESEARCHER = Query(
    "curation.create_researcher",
    """
    CREATE (r:Researcher {id: $id, slug: $slug, name: $name, name_key: $name_key,
                          base_key: $base_key,
                          alt_names: [], alt_names_text: '', s2_ids: [], openalex_ids: [],
                          paper_count: 0, citation_count: 0})
    """,
    "write",
)
# COAUTHOR edges of the given researchers, rebuilt from their authorships (once per pair,
# lower id to higher; hyperauthored papers left out, as the loader does). Both are planned
# from the researchers named, whatever the statistics say (on a store emptied just before a
# load, the drop was once planned from a scan); COAUTHOR and AUTHORED edges only leave
# researchers, so the far end needs no label, and a label would let a plan start there.
DROP_COAUTHORS = Query(
    "curation.drop_coauthors",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})-[c:COAUTHOR]-()
    USING INDEX SEEK r:Researcher(id)
    DELETE c
    """,
    "write",
)
BUILD_COAUTHORS = Query(
    "curation.build_coauthors",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(o)
    USING INDEX SEEK r:Researcher(id)
    WHERE o <> r AND NOT coalesce(p.hyperauthored, false)
    WITH r, o, count(DISTINCT p) AS n, min(p.year) AS first_year, max(p.year) AS last_year
    WITH CASE WHEN r.id < o.id THEN r ELSE o END AS a,
         CASE WHEN r.id < o.id THEN o ELSE r END AS b, n, first_year, last_year
    MERGE (a)-[c:COAUTHOR]->(b)
    SET c.joint_papers = n, c.first_year = first_year, c.last_year = last_year
    """,
    "write",
)
# The authors of the papers (but of a hyperauthored one, whose coauthors features leave out).
PAPERS_AUTHORS = Query(
    "curation.papers_authors",
    """
    UNWIND $papers AS key
    MATCH (p:Paper {key: key})<-[:AUTHORED]-(o:Researcher)
    USING INDEX SEEK p:Paper(key)
    WHERE NOT coalesce(p.hyperauthored, false)
    RETURN collect(DISTINCT o.id) AS ids
    """,
)
MARK_DISTINCT = Query(
    "curation.mark_distinct",
    """
    MATCH (a:Researcher {id: $low}), (b:Researcher {id: $high})
    MERGE (a)-[d:DISTINCT_FROM]->(b)
    """,
    "write",
)
PIN = Query(
    "curation.pin",
    """
    MATCH (:Researcher {id: $researcher})-[a:AUTHORED]->(:Paper {key: $paper})
    SET a.pinned = true, a.method = 'curator', a.confidence = 1.0, a.rank = 0
    RETURN count(a) AS pinned
    """,
    "write",
)


class RoleRow(TypedDict):
    researcher: int
    role: str


class EventRow(TypedDict):
    id: str
    kind: str
    actor: str
    reason: str
    at: str  # ISO 8601
    papers: list[str]
    roles: list[RoleRow]


RECORD_EVENTS = Query(
    "curation.record_events",
    """
    UNWIND $rows AS row
    CREATE (e:CurationEvent {id: row.id, kind: row.kind, actor: row.actor,
                             reason: row.reason, at: datetime(row.at),
                             papers: row.papers})
    WITH e, row
    UNWIND row.roles AS role
    MATCH (r:Researcher {id: role.researcher})
    USING INDEX SEEK r:Researcher(id)
    CREATE (e)-[:CONCERNS {role: role.role}]->(r)
    """,
    "write",
)
EVENTS = Query(
    "curation.events",
    """
    UNWIND $ids AS id
    CALL (id) {
      MATCH (e:CurationEvent)-[:CONCERNS]->(:Researcher {id: id})
      WITH e ORDER BY e.at DESC LIMIT $limit
      RETURN collect(e {.id, .kind, .actor, .reason, .at, .papers,
                        roles: [(e)-[c:CONCERNS]->(r:Researcher) |
                                {researcher: r.id, role: c.role}]}) AS events
    }
    RETURN id, events
    """,
)


# The type of the rows each statement unwinds as ``row``.
ROW_TYPES: dict[Query, object] = {
    SHARED_PAPERS: PairRow,
    MOVE_AUTHORSHIPS: MoveRow,
    MOVE_AFFILIATIONS: PairRow,
    MOVE_IDENTIFIERS: PairRow,
    ABSORB: PairRow,
    RECORD_EVENTS: EventRow,
}
