"""The coauthor network around a researcher, hop by hop.

Only ``COAUTHOR`` edges with at least ``$min_joint`` joint papers are walked; with a year
window an edge is walked when the years of its joint papers (first to last) overlap it.

With ``$max_authors`` (the ``*_SMALL_PAPERS`` variants) ties are recounted from the papers
themselves, leaving out those with more than ``$max_authors`` authors (the listed count, or
the matched authors where the source gave none) besides the hyperauthored ones ``COAUTHOR``
already leaves out; the same thresholds then apply to the recounted ties.
"""

from scholargraph.queries._query import Query

_TIE_KEPT = """
      e.joint_papers >= $min_joint
      AND ($year_from IS NULL OR e.last_year >= $year_from)
      AND ($year_to IS NULL OR e.first_year <= $year_to)
"""
_WALKABLE = _TIE_KEPT + "      AND o.merged_into IS NULL\n"


def _small_paper_ties(other: str) -> str:
    """Ties of ``r`` recounted from its small papers, as rows ``o, e``; ``other`` further
    restricts the coauthor ``o`` (a constant condition, never user text)."""
    return f"""
      MATCH (r)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(o:Researcher)
      WHERE o <> r AND o.merged_into IS NULL AND {other}
        AND NOT coalesce(p.hyperauthored, false)
        AND coalesce(p.n_authors, COUNT {{ (p)<-[:AUTHORED]-(:Researcher) }}) <= $max_authors
      WITH o, {{joint_papers: count(DISTINCT p), first_year: min(p.year),
                last_year: max(p.year)}} AS e
      WHERE {_WALKABLE}
    """


# Both queries return a single row, ``rows``: a list per researcher, its ties as lists too.
# The driver spends more on each record (about 35 µs) than the server on each researcher, so
# 400 researchers as 400 records cost three times as long as the same values in one.


def _edges_from(name: str, ties: str) -> Query:
    """``rows``: ``[a, [[b, joint_papers, first_year, last_year], …]]`` per researcher."""
    return Query(
        name,
        f"""
        UNWIND $ids AS id
        MATCH (r:Researcher {{id: id}})
        CALL (r) {{
          {ties}
          RETURN collect([o.id, e.joint_papers, e.first_year, e.last_year]) AS ties
        }}
        RETURN collect([id, ties]) AS rows
        """,
    )


# What the page shows of a researcher ``r`` of the drawn network (graph.repo.network's
# ``_NODE_FIELDS``), after ``_MEAN_YEAR``.
_MEAN_YEAR = """
        CALL (r) {
          MATCH (r)-[:AUTHORED]->(p:Paper)
          RETURN avg(p.year) AS mean_year
        }
"""
_FIELDS = "r.id, r.name, r.slug, r.paper_count, r.citation_count, r.h_index, mean_year"


# The nodes of the drawn network with what the page shows, and the edges among the outermost
# ring that the walk did not fetch. The ring is matched once and compared as nodes: a
# researcher of the ring has hundreds of ties to test, and reading each coauthor's id to
# test it would cost a property read per tie.
def _nodes(name: str, ring_ties: str) -> Query:
    """``rows``: ``[id, name, slug, paper_count, citation_count, h_index, mean_year,
    ring ties as in :func:`_edges_from`]`` per researcher."""
    return Query(
        name,
        f"""
        OPTIONAL MATCH (x:Researcher) WHERE x.id IN $ring
        WITH collect(x) AS ring
        UNWIND $ids AS id
        MATCH (r:Researcher {{id: id}})
        {_MEAN_YEAR}
        CALL (r, ring) {{
          {ring_ties}
          RETURN collect([o.id, e.joint_papers, e.first_year, e.last_year]) AS ring_ties
        }}
        RETURN collect([{_FIELDS}, ring_ties]) AS rows
        """,
    )


_COAUTHOR_TIES = f"""
      MATCH (r)-[e:COAUTHOR]-(o:Researcher)
      WHERE {_WALKABLE}
"""
# Each tie is one relationship and both its ends are in the ring: following outgoing ties
# only finds every tie once, and expands half as many. The ring's researchers were walked to,
# so they are not merged away.
_COAUTHOR_RING_TIES = f"""
      WITH r, ring WHERE r IN ring
      MATCH (r)-[e:COAUTHOR]->(o:Researcher)
      WHERE o IN ring AND {_TIE_KEPT}
"""

EDGES_FROM = _edges_from("read_network.edges_from", _COAUTHOR_TIES)
NODES = _nodes("read_network.nodes", _COAUTHOR_RING_TIES)
EDGES_FROM_SMALL_PAPERS = _edges_from(
    "read_network.edges_from_small_papers", _small_paper_ties("true")
)
NODES_SMALL_PAPERS = _nodes(
    "read_network.nodes_small_papers",
    _small_paper_ties("r IN ring AND o IN ring"),
)


# What the drawn network shows of each researcher, for a walk made on the in-memory
# projection (graph.repo.projection): ``rows`` as in :func:`_nodes`, without ring ties.
NODE_FIELDS = Query(
    "read_network.node_fields",
    f"""
    UNWIND $ids AS id
    MATCH (r:Researcher {{id: id}})
    {_MEAN_YEAR}
    RETURN collect([{_FIELDS}]) AS rows
    """,
)

# The coauthor projection (graph.repo.projection) is read in slices of researchers by id
# (keyset): each ``COAUTHOR`` relationship once, from its start node, as columns; unknown
# years come as ``$no_first`` / ``$no_last``. ``count`` is the slice's size and ``last_id``
# its highest id.
PROJECTION_TIES = Query(
    "read_network.projection_ties",
    """
    MATCH (a:Researcher) WHERE a.id > $after
    WITH a ORDER BY a.id LIMIT $limit
    WITH collect(a) AS slice
    CALL (slice) {
      UNWIND slice AS a
      MATCH (a)-[e:COAUTHOR]->(b:Researcher)
      RETURN collect(a.id) AS a, collect(b.id) AS b,
             collect(coalesce(e.joint_papers, 0)) AS joint,
             collect(coalesce(e.first_year, $no_first)) AS first,
             collect(coalesce(e.last_year, $no_last)) AS last
    }
    RETURN a, b, joint, first, last, size(slice) AS count, slice[-1].id AS last_id
    """,
)

# Nothing: read for its bookmark, to see whether the graph has changed.
PROJECTION_STATE = Query("read_network.projection_state", "RETURN 1 AS seen")

# ``rows``: the ids of the researchers merged into another (the walk does not enter them).
PROJECTION_MERGED = Query(
    "read_network.projection_merged",
    """
    MATCH (r:Researcher) WHERE r.merged_into IS NOT NULL
    RETURN collect(r.id) AS rows
    """,
)
