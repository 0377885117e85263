"""The coauthor network around a researcher, hop by hop.

Only ``COAUTHOR`` edges with at least ``$min_joint`` joint papers are walked; with a year
window an edge is walked when the years of its joint papers (first to last) overlap it.
"""

from queries._query import Query

_WALKABLE = """
      e.joint_papers >= $min_joint
      AND ($year_from IS NULL OR e.last_year >= $year_from)
      AND ($year_to IS NULL OR e.first_year <= $year_to)
      AND o.merged_into IS NULL
"""

EDGES_FROM = Query(
    "read_network.edges_from",
    f"""
    UNWIND $ids AS id
    MATCH (r:Researcher {{id: id}})-[e:COAUTHOR]-(o:Researcher)
    WHERE {_WALKABLE}
    RETURN id AS a, o.id AS b, e.joint_papers AS joint_papers, e.first_year AS first_year,
           e.last_year AS last_year
    """,
)
# The nodes of the drawn network with what the page shows, and the edges among the outermost
# ring that the walk did not fetch.
NODES = Query(
    "read_network.nodes",
    f"""
    UNWIND $ids AS id
    MATCH (r:Researcher {{id: id}})
    CALL (r) {{
      MATCH (r)-[:AUTHORED]->(p:Paper)
      RETURN avg(p.year) AS mean_year
    }}
    CALL (r) {{
      MATCH (r)-[e:COAUTHOR]-(o:Researcher)
      WHERE r.id IN $ring AND o.id IN $ring AND {_WALKABLE}
      RETURN collect({{b: o.id, joint_papers: e.joint_papers, first_year: e.first_year,
                      last_year: e.last_year}}) AS ring_edges
    }}
    RETURN r.id AS id, r.name AS name, r.slug AS slug, r.paper_count AS paper_count,
           r.citation_count AS citation_count, r.h_index AS h_index, mean_year, ring_edges
    """,
)
