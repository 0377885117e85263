"""The affiliation strings slots keep for the matcher (see
:mod:`graph.institutions.linking`)."""

from __future__ import annotations

from typing import TypedDict

from scholargraph.queries._query import Query


class SlotStringsRow(TypedDict):
    researcher: int
    year: int | None
    raw: list[str]  # "<source>:<string>"


# The slots with unlinked strings of a page of researchers (by id, after $after; of the name
# blocks $blocks, or all when null), each with its paper's year.
SLOT_STRINGS = Query(
    "affiliation_strings.slot_strings",
    """
    MATCH (r:Researcher)
    WHERE r.id > $after AND r.merged_into IS NULL
      AND ($blocks IS NULL OR r.name_key IN $blocks)
      AND EXISTS { (r)-[a:AUTHORED]->(:Paper) WHERE size(coalesce(a.raw_affiliations, [])) > 0 }
    WITH r ORDER BY r.id LIMIT $limit
    MATCH (r)-[a:AUTHORED]->(p:Paper)
    WHERE size(coalesce(a.raw_affiliations, [])) > 0
    RETURN collect({researcher: r.id, year: p.year, raw: a.raw_affiliations}) AS rows
    """,
)
# Edges only strings gave whose researcher (of the name blocks $blocks, or any when null) no
# longer holds a slot printing one of them: the slot moved to another researcher.
PRUNE_STRING_EDGES = Query(
    "affiliation_strings.prune_string_edges",
    """
    MATCH (r:Researcher)-[a:AFFILIATED]->(:Institution)
    WHERE ($blocks IS NULL OR r.name_key IN $blocks)
      AND coalesce(a.from_strings, false)
      AND NOT coalesce(a.from_papers, false) AND NOT coalesce(a.from_profile, false)
      AND NOT EXISTS {
        (r)-[s:AUTHORED]->(:Paper)
        WHERE any(x IN coalesce(a.raw, [])
                  WHERE a.source + ':' + x IN coalesce(s.raw_affiliations, []))
      }
    DELETE a
    """,
    "write",
)
