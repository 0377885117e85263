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
    affiliations: list[str]
    coauthors: list[str]
    categories: list[str]
    year: int | None


# The blocks, of those given, where some live researcher holds a slot by name only.
FREE_BLOCKS = Query(
    "converge.free_blocks",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
      AND EXISTS { MATCH (r)-[a:AUTHORED]->(:Paper)
                   WHERE size(coalesce(a.source_ids, [])) = 0
                     AND NOT coalesce(a.pinned, false)
                     AND NOT a.method IN $direct }
    RETURN collect(DISTINCT {block: block}) AS rows
    """,
)
ALL_FREE_BLOCKS = Query(
    "converge.all_free_blocks",
    """
    MATCH (r:Researcher)-[a:AUTHORED]->(:Paper)
    WHERE r.merged_into IS NULL AND r.name_key IS NOT NULL
      AND size(coalesce(a.source_ids, [])) = 0 AND NOT coalesce(a.pinned, false)
      AND NOT a.method IN $direct
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
    WITH r, r.orcid IS NOT NULL OR EXISTS { (r)<-[:IDENTIFIES]-() }
            OR EXISTS { (r)-[:DISTINCT_FROM]-() } AS has_ids
    MATCH (r)-[a:AUTHORED]->(p:Paper)
    RETURN collect({researcher: r.id, paper: p.key, position: a.position,
                    raw_name: a.raw_name, source_ids: coalesce(a.source_ids, []),
                    pinned: coalesce(a.pinned, false), method: a.method,
                    holder_has_ids: has_ids, affiliations: coalesce(a.affiliations, []),
                    coauthors: CASE WHEN coalesce(p.hyperauthored, false) THEN []
                               ELSE [(o:Researcher)-[b:AUTHORED]->(p)
                                     WHERE b.position <> a.position | b.raw_name] END,
                    categories: [(p)-[:IN_CATEGORY]->(c:Category) | c.code],
                    year: p.year}) AS rows
    """,
)
