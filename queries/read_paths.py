"""Collaboration paths: chains of coauthors from one researcher to another.

Cypher takes the hop bound of a path pattern and the number of shortest paths only as
literals, so each search is a family of queries, one per bound: ``SHORTEST_ONE[n]`` looks for
chains of at most ``n`` hops, for every ``n`` from 1 to :data:`MAX_HOPS`, and a search never
explores past the ``maxLength`` asked for. ``SHORTEST k`` finds walks, which may pass a
researcher twice; such walks are dropped after the search, so it asks for
:data:`WALKS_SEARCHED` of them to be left with up to ``MAX_PATHS`` simple paths.

Restrictions apply to every hop: with a year window or a category, a hop needs a joint paper
(not hyperauthored) in the window and the category; with an institution, every researcher on
the chain but its two ends is affiliated with the institution or a part of it.

The joint-paper condition is written on the hop's ``COAUTHOR`` relationship alone (its two
researchers are its own ends, ``startNode(c)`` and ``endNode(c)``), so Neo4j checks it while
it searches, hop by hop. Written on the two researchers of the hop, it was checked only on
whole paths, and a search with no qualifying chain enumerated every walk up to the bound:
tens of seconds between two researchers of one field restricted to another.
"""

from collections.abc import Callable

from scholargraph.queries._projections import PAPER, RESEARCHER
from scholargraph.queries._query import Query

MAX_HOPS = 8
MAX_PATHS = 5
WALKS_SEARCHED = 3 * MAX_PATHS

_HOP = """
    (x:Researcher)-[c:COAUTHOR
      WHERE ($year_from IS NULL OR c.last_year >= $year_from)
        AND ($year_to IS NULL OR c.first_year <= $year_to)
        AND (NOT $by_papers OR EXISTS {
          WITH startNode(c) AS u, endNode(c) AS v
          MATCH (u)-[:AUTHORED]->(q:Paper)<-[:AUTHORED]-(v)
          WHERE NOT coalesce(q.hyperauthored, false)
            AND ($year_from IS NULL OR q.year >= $year_from)
            AND ($year_to IS NULL OR q.year <= $year_to)
            AND ($category IS NULL
                 OR EXISTS { (q)-[:IN_CATEGORY]->(:Category {code: $category}) })
        })]-(y:Researcher)
    WHERE y.merged_into IS NULL
      AND ($institution IS NULL OR y.id = $to OR EXISTS {
        (y)-[:AFFILIATED]->(:Institution)-[:PART_OF*0..3]->(:Institution {id: $institution})
      })
"""
_ENDS = "MATCH (a:Researcher {id: $from}), (b:Researcher {id: $to})"
# The papers of researchers x and y behind their hop (under the same restrictions), newest
# first, each with the weaker of the two authorship matches: a subquery's body, one row.
_JOINT_PAPERS = f"""
    MATCH (x)-[ax:AUTHORED]->(p:Paper)<-[ay:AUTHORED]-(y)
    WHERE NOT coalesce(p.hyperauthored, false)
      AND ($year_from IS NULL OR p.year >= $year_from)
      AND ($year_to IS NULL OR p.year <= $year_to)
      AND ($category IS NULL OR EXISTS {{ (p)-[:IN_CATEGORY]->(:Category {{code: $category}}) }})
    WITH p,
         CASE WHEN coalesce(ax.confidence, 1.0) < coalesce(ay.confidence, 1.0)
              THEN coalesce(ax.confidence, 1.0) ELSE coalesce(ay.confidence, 1.0) END
         AS confidence
    ORDER BY p.year DESC, p.key DESC
    RETURN collect({{paper: p {PAPER}, confidence: confidence}}) AS papers
"""
# A hop's facts from its papers: a hop is as certain as its best-supported paper.
_HOP_FACTS = """
    size(papers) AS joint_papers,
    reduce(best = 0.0, fact IN papers |
           CASE WHEN fact.confidence > best THEN fact.confidence ELSE best END) AS confidence,
    papers[..$per_hop] AS papers
"""
# A found ``path`` explained in the same statement: its researchers and, hop by hop in
# order, the papers behind each hop.
_EXPLAINED = f"""
    WITH nodes(path) AS chain
    CALL (chain) {{
      UNWIND range(0, size(chain) - 2) AS i
      WITH i, chain[i] AS x, chain[i + 1] AS y
      CALL (x, y) {{ {_JOINT_PAPERS} }}
      WITH i, [x.id, y.id] AS pair, {_HOP_FACTS}
      ORDER BY i
      RETURN collect({{pair: pair, joint_papers: joint_papers, confidence: confidence,
                      papers: papers}}) AS hops
    }}
    RETURN [n IN chain | n.id] AS ids, [n IN chain | n {RESEARCHER}] AS researchers, hops
"""


def _per_bound(name: str, text: Callable[[int], str]) -> dict[int, Query]:
    """The query ``name`` for every hop bound: ``{n: query searching at most n hops}``."""
    return {n: Query(f"{name}.within_{n}", text(n)) for n in range(1, MAX_HOPS + 1)}


SHORTEST = _per_bound(
    "read_paths.shortest",
    lambda hops: (
        f"""
    {_ENDS}
    MATCH path = SHORTEST {WALKS_SEARCHED} (a)({_HOP}){{1,{hops}}}(b)
    WHERE all(i IN range(0, length(path) - 1) WHERE NOT nodes(path)[i] IN nodes(path)[i + 1..])
    WITH [n IN nodes(path) | n.id] AS ids
    RETURN ids ORDER BY size(ids), ids
    LIMIT $k
    """
    ),
)
# One shortest chain, explained in the same statement: a shortest walk never passes anyone
# twice, so one walk is searched for and none need dropping, which is far cheaper than
# SHORTEST's search for several.
SHORTEST_ONE = _per_bound(
    "read_paths.shortest_one",
    lambda hops: (
        f"""
    {_ENDS}
    MATCH path = SHORTEST 1 (a)({_HOP}){{1,{hops}}}(b)
    {_EXPLAINED}
    """
    ),
)
# One shortest chain with no restriction, explained in the same statement: Cypher's
# shortestPath, whose bidirectional breadth-first search is many times faster than SHORTEST
# on dense coauthor graphs; the node predicate is checked during the search.
SHORTEST_UNRESTRICTED = _per_bound(
    "read_paths.shortest_unrestricted",
    lambda hops: (
        f"""
    {_ENDS}
    MATCH path = shortestPath((a)-[:COAUTHOR*..{hops}]-(b))
    WHERE all(n IN nodes(path) WHERE n.merged_into IS NULL)
    {_EXPLAINED}
    """
    ),
)
# Every shortest chain (up to $limit of them), for picking the strongest.
ALL_SHORTEST = _per_bound(
    "read_paths.all_shortest",
    lambda hops: (
        f"""
    {_ENDS}
    MATCH path = ALL SHORTEST (a)({_HOP}){{1,{hops}}}(b)
    RETURN [n IN nodes(path) | n.id] AS ids, [r IN relationships(path) | r.joint_papers] AS joints
    LIMIT $limit
    """
    ),
)
# Which of the two ends has a joint paper in the year window and the category at all: one
# that has none ends every restricted chain before it starts, said without a search.
ENDS_WITH_JOINT_PAPERS = Query(
    "read_paths.ends_with_joint_papers",
    """
    UNWIND [$from, $to] AS id
    MATCH (r:Researcher {id: id})
    WHERE EXISTS {
      MATCH (r)-[:AUTHORED]->(q:Paper)<-[:AUTHORED]-(o:Researcher)
      WHERE o <> r AND NOT coalesce(q.hyperauthored, false)
        AND ($year_from IS NULL OR q.year >= $year_from)
        AND ($year_to IS NULL OR q.year <= $year_to)
        AND ($category IS NULL OR EXISTS { (q)-[:IN_CATEGORY]->(:Category {code: $category}) })
    }
    RETURN collect(id) AS ids
    """,
)
# The papers behind each of the hops ``$pairs`` (none for a hop without joint papers).
HOP_PAPERS = Query(
    "read_paths.hop_papers",
    f"""
    UNWIND $pairs AS pair
    MATCH (x:Researcher {{id: pair[0]}}), (y:Researcher {{id: pair[1]}})
    CALL (x, y) {{ {_JOINT_PAPERS} }}
    WITH pair, papers WHERE size(papers) > 0
    RETURN pair, {_HOP_FACTS}
    """,
)
