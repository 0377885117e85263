"""Full-text search over papers, researchers and institutions, ranked together by score.

``$lucene`` is the escaped Lucene query the caller builds from the user's words; ``$kinds``
picks the indexes; ``$window`` caps how many hits of each kind are ranked (deep pages past it
are not served); ``$category``, ``$year_from`` and ``$year_to`` (each may be null) narrow the
papers; with ``$items`` false the hits come without their entities (a ranking to fuse).
Keyset pagination on (score, kind, key).
"""

from scholargraph.queries._projections import INSTITUTION, PAPER, RESEARCHER
from scholargraph.queries._query import Query

SEARCH = Query(
    "read_search.search",
    f"""
    CALL () {{
      CALL db.index.fulltext.queryNodes('paper_text', $lucene, {{limit: $window}})
      YIELD node AS p, score
      WHERE 'paper' IN $kinds
        AND ($category IS NULL OR EXISTS {{ (p)-[:IN_CATEGORY]->(:Category {{code: $category}}) }})
        AND ($year_from IS NULL OR p.year >= $year_from)
        AND ($year_to IS NULL OR p.year <= $year_to)
      RETURN 'paper' AS kind, p.key AS key, score,
             CASE WHEN $items THEN p {PAPER} END AS item
      UNION ALL
      CALL db.index.fulltext.queryNodes('researcher_names', $lucene, {{limit: $window}})
      YIELD node AS r, score
      WHERE 'researcher' IN $kinds AND r.merged_into IS NULL
      RETURN 'researcher' AS kind, toString(r.id) AS key, score,
             CASE WHEN $items THEN r {RESEARCHER} END AS item
      UNION ALL
      CALL db.index.fulltext.queryNodes('institution_names', $lucene, {{limit: $window}})
      YIELD node AS i, score
      WHERE 'institution' IN $kinds
      RETURN 'institution' AS kind, toString(i.id) AS key, score,
             CASE WHEN $items THEN i {INSTITUTION} END AS item
    }}
    WITH kind, key, score, item ORDER BY score DESC, kind, key
    WITH collect({{kind: kind, key: key, score: score, item: item}}) AS hits
    RETURN size(hits) AS total,
           [h IN hits WHERE $after_score IS NULL OR h.score < $after_score
                       OR (h.score = $after_score AND (h.kind > $after_kind
                           OR (h.kind = $after_kind AND h.key > $after_key)))][..$limit] AS rows
    """,
)
