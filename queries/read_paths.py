"""Collaboration paths: chains of coauthors from one researcher to another.

Cypher takes the hop bound of a path pattern and the number of shortest paths only as
literals, so the patterns use the API's maxima (:data:`MAX_HOPS`, :data:`MAX_PATHS`) and
``$max_length`` and ``$k`` cut the result. ``SHORTEST k`` finds walks, which may pass a
researcher twice; such walks are dropped after the search, so it asks for
:data:`WALKS_SEARCHED` of them to be left with up to ``MAX_PATHS`` simple paths.

Restrictions apply to every hop: with a year window or a category, a hop needs a joint paper
(not hyperauthored) in the window and the category; with an institution, every researcher on
the chain but its two ends is affiliated with the institution or a part of it.
"""

from scholargraph.queries._projections import PAPER
from scholargraph.queries._query import Query

MAX_HOPS = 8
MAX_PATHS = 5
WALKS_SEARCHED = 3 * MAX_PATHS

_HOP = """
    (x:Researcher)-[c:COAUTHOR]-(y:Researcher)
    WHERE y.merged_into IS NULL
      AND ($year_from IS NULL OR c.last_year >= $year_from)
      AND ($year_to IS NULL OR c.first_year <= $year_to)
      AND (NOT $by_papers OR EXISTS {
        MATCH (x)-[:AUTHORED]->(q:Paper)<-[:AUTHORED]-(y)
        WHERE NOT coalesce(q.hyperauthored, false)
          AND ($year_from IS NULL OR q.year >= $year_from)
          AND ($year_to IS NULL OR q.year <= $year_to)
          AND ($category IS NULL OR EXISTS { (q)-[:IN_CATEGORY]->(:Category {code: $category}) })
      })
      AND ($institution IS NULL OR y.id = $to OR EXISTS {
        (y)-[:AFFILIATED]->(:Institution)-[:PART_OF*0..3]->(:Institution {id: $institution})
      })
"""

SHORTEST = Query(
    "read_paths.shortest",
    f"""
    MATCH (a:Researcher {{id: $from}}), (b:Researcher {{id: $to}})
    MATCH path = SHORTEST {WALKS_SEARCHED} (a)({_HOP}){{1,{MAX_HOPS}}}(b)
    WHERE length(path) <= $max_length
      AND all(i IN range(0, length(path) - 1) WHERE NOT nodes(path)[i] IN nodes(path)[i + 1..])
    WITH [n IN nodes(path) | n.id] AS ids
    RETURN ids ORDER BY size(ids), ids
    LIMIT $k
    """,
)
# One shortest chain: a shortest walk never passes anyone twice, so one walk is searched for
# and none need dropping, which is far cheaper than SHORTEST's search for several.
SHORTEST_ONE = Query(
    "read_paths.shortest_one",
    f"""
    MATCH (a:Researcher {{id: $from}}), (b:Researcher {{id: $to}})
    MATCH path = SHORTEST 1 (a)({_HOP}){{1,{MAX_HOPS}}}(b)
    WHERE length(path) <= $max_length
    RETURN [n IN nodes(path) | n.id] AS ids
    """,
)
# One shortest chain with no restriction: Cypher's shortestPath, whose bidirectional
# breadth-first search is many times faster than SHORTEST on dense coauthor graphs; the
# node predicate is checked during the search.
SHORTEST_UNRESTRICTED = Query(
    "read_paths.shortest_unrestricted",
    f"""
    MATCH (a:Researcher {{id: $from}}), (b:Researcher {{id: $to}})
    MATCH path = shortestPath((a)-[:COAUTHOR*..{MAX_HOPS}]-(b))
    WHERE all(n IN nodes(path) WHERE n.merged_into IS NULL)
    WITH path WHERE length(path) <= $max_length
    RETURN [n IN nodes(path) | n.id] AS ids
    """,
)
# Every shortest chain (up to $limit of them), for picking the strongest.
ALL_SHORTEST = Query(
    "read_paths.all_shortest",
    f"""
    MATCH (a:Researcher {{id: $from}}), (b:Researcher {{id: $to}})
    MATCH path = ALL SHORTEST (a)({_HOP}){{1,{MAX_HOPS}}}(b)
    WHERE length(path) <= $max_length
    RETURN [n IN nodes(path) | n.id] AS ids, [r IN relationships(path) | r.joint_papers] AS joints
    LIMIT $limit
    """,
)
# The papers behind each hop (under the same restrictions), newest first, with the weaker of
# the two authorship matches on each: a hop is as certain as its best-supported paper.
HOP_PAPERS = Query(
    "read_paths.hop_papers",
    f"""
    UNWIND $pairs AS pair
    MATCH (x:Researcher {{id: pair[0]}})-[ax:AUTHORED]->(p:Paper),
          (p)<-[ay:AUTHORED]-(y:Researcher {{id: pair[1]}})
    WHERE NOT coalesce(p.hyperauthored, false)
      AND ($year_from IS NULL OR p.year >= $year_from)
      AND ($year_to IS NULL OR p.year <= $year_to)
      AND ($category IS NULL OR EXISTS {{ (p)-[:IN_CATEGORY]->(:Category {{code: $category}}) }})
    WITH pair, p,
         CASE WHEN coalesce(ax.confidence, 1.0) < coalesce(ay.confidence, 1.0)
              THEN coalesce(ax.confidence, 1.0) ELSE coalesce(ay.confidence, 1.0) END
         AS confidence
    ORDER BY p.year DESC, p.key DESC
    WITH pair, collect({{paper: p {PAPER}, confidence: confidence}}) AS papers
    RETURN pair, size(papers) AS joint_papers,
           reduce(best = 0.0, x IN papers |
                  CASE WHEN x.confidence > best THEN x.confidence ELSE best END) AS confidence,
           papers[..$per_hop] AS papers
    """,
)
