"""Reads of the convergence pass (:mod:`graph.identity.converge`): the stored author slots
of name blocks, with each slot's own evidence."""

from typing import TypedDict

from scholargraph.queries._query import Query


class BlockSlotRow(TypedDict):
    researcher: int
    paper: str
    position: int
    raw_name: str
    source_ids: list[str]
    pinned: bool
    method: str
    holder_has_ids: bool
    holder_keys: list[str]
    holder_distinct: bool
    affiliations: list[str]
    coauthors: list[str]
    categories: list[str]
    year: int | None


class BlockUnitRow(TypedDict):
    block: str
    researcher: int
    paper: str
    position: int
    source_ids: list[str]
    pinned: bool
    method: str
    holder_has_ids: bool
    holder_keys: list[str]
    holder_distinct: bool


# Every slot of the blocks' live researchers, with only what says who holds it by ids: the
# pass decides from these which blocks hold anything to decide.
BLOCK_UNITS = Query(
    "converge.block_units",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
    WITH DISTINCT block, r
    WITH block, r, [(i:Identifier)-[:IDENTIFIES]->(r) | i.key] AS keys,
         EXISTS { (r)-[:DISTINCT_FROM]-() } AS distinct
    MATCH (r)-[a:AUTHORED]->(p:Paper)
    RETURN collect({block: block, researcher: r.id, paper: p.key, position: a.position,
                    source_ids: coalesce(a.source_ids, []),
                    pinned: coalesce(a.pinned, false), method: a.method,
                    holder_has_ids: r.orcid IS NOT NULL OR size(keys) > 0 OR distinct,
                    holder_keys: keys, holder_distinct: distinct}) AS rows
    """,
)
# The name keys of every live researcher with a slot.
ALL_BLOCKS = Query(
    "converge.all_blocks",
    """
    MATCH (r:Researcher)
    WHERE r.merged_into IS NULL AND r.name_key IS NOT NULL AND (r)-[:AUTHORED]->()
    RETURN collect(DISTINCT {block: r.name_key}) AS rows
    """,
)
# Every slot of the blocks' live researchers. A hyperauthored paper's coauthors say nothing
# about a person and are left out.
BLOCK_SLOTS = Query(
    "converge.block_slots",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
    WITH DISTINCT r
    WITH r, [(i:Identifier)-[:IDENTIFIES]->(r) | i.key] AS keys,
         EXISTS { (r)-[:DISTINCT_FROM]-() } AS distinct
    MATCH (r)-[a:AUTHORED]->(p:Paper)
    RETURN collect({researcher: r.id, paper: p.key, position: a.position,
                    raw_name: a.raw_name, source_ids: coalesce(a.source_ids, []),
                    pinned: coalesce(a.pinned, false), method: a.method,
                    holder_has_ids: r.orcid IS NOT NULL OR size(keys) > 0 OR distinct,
                    holder_keys: keys, holder_distinct: distinct,
                    affiliations: coalesce(a.affiliations, []),
                    coauthors: CASE WHEN coalesce(p.hyperauthored, false) THEN []
                               ELSE [(o:Researcher)-[b:AUTHORED]->(p)
                                     WHERE b.position <> a.position | b.raw_name] END,
                    categories: [(p)-[:IN_CATEGORY]->(c:Category) | c.code],
                    year: p.year}) AS rows
    """,
)
# Identifiers that go along with a unit's slots to another researcher; both researchers'
# id lists are made again from the identifiers they hold.
MOVE_IDENTIFIER_KEYS = Query(
    "converge.move_identifier_keys",
    """
    MATCH (source:Researcher {id: $source}), (target:Researcher {id: $target})
    CALL (source, target) {
      UNWIND $keys AS key
      MATCH (i:Identifier {key: key})-[x:IDENTIFIES]->(source)
      CREATE (i)-[y:IDENTIFIES]->(target)
      SET y = properties(x)
      DELETE x
    }
    WITH source, target, [k IN $keys WHERE k STARTS WITH 'orcid:' | substring(k, 6)] AS orcids
    UNWIND [source, target] AS r
    WITH r, target, orcids,
         COLLECT { MATCH (i:Identifier)-[:IDENTIFIES]->(r) RETURN i ORDER BY i.key } AS ids
    SET r.s2_ids = [i IN ids WHERE i.scheme = 's2' | i.value],
        r.openalex_ids = [i IN ids WHERE i.scheme = 'openalex' | i.value],
        r.orcid = CASE WHEN r = target THEN coalesce(r.orcid, head(orcids))
                       WHEN r.orcid IN orcids THEN null ELSE r.orcid END
    """,
    "write",
)
# A unit's affiliations go with its slots: all of them when the slots are all the source
# holds, else those of the institutions its slots print (by name or alias).
MOVE_UNIT_AFFILIATIONS = Query(
    "converge.move_unit_affiliations",
    """
    MATCH (source:Researcher {id: $source})-[a:AFFILIATED]->(i:Institution)
    MATCH (target:Researcher {id: $target})
    WITH source, target, a, i,
         all(k IN [(source)-[:AUTHORED]->(p:Paper) | p.key] WHERE k IN $papers) AS emptied,
         [x IN [i.name] + coalesce(i.aliases, []) | toLower(x)] AS names
    WHERE emptied OR any(x IN $printed WHERE toLower(x) IN names)
    MERGE (target)-[b:AFFILIATED {source: a.source}]->(i)
    SET b.first_year = CASE WHEN b.first_year IS NULL OR a.first_year < b.first_year
                            THEN a.first_year ELSE b.first_year END,
        b.last_year = CASE WHEN b.last_year IS NULL OR a.last_year > b.last_year
                           THEN a.last_year ELSE b.last_year END
    WITH a, emptied
    WHERE emptied
    DELETE a
    """,
    "write",
)
