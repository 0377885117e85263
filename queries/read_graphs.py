"""Coauthor graphs for analysts: the COAUTHOR edges of a selection, and its researchers."""

from scholargraph.queries._query import Query

# first_year and last_year: a researcher's first and last papers, the span of the node in
# a timeline (GEXF spells); mean_year: VOSviewer's average publication year score.
_NODE = """
CALL (r) {
  MATCH (r)-[:AUTHORED]->(p:Paper)
  RETURN min(p.year) AS first_year, max(p.year) AS last_year, avg(p.year) AS mean_year
}
RETURN r.id AS id, r.name AS name, r.slug AS slug, r.paper_count AS paper_count,
       r.citation_count AS citation_count, r.h_index AS h_index,
       first_year, last_year, mean_year
"""

ALL_EDGES = Query(
    "graphs.all_edges",
    """
    MATCH (a:Researcher)-[c:COAUTHOR]->(b:Researcher)
    WHERE c.joint_papers >= $min_joint
    RETURN a.id AS a, b.id AS b, c.joint_papers AS joint_papers,
           c.first_year AS first_year, c.last_year AS last_year
    """,
)
ALL_NODES = Query(
    "graphs.all_nodes",
    "MATCH (r:Researcher) WHERE r.merged_into IS NULL AND r.paper_count > 0" + _NODE,
)
CATEGORY_MEMBERS = Query(
    "graphs.category_members",
    """
    MATCH (:Category {code: $code})<-[:IN_CATEGORY]-(:Paper)<-[:AUTHORED]-(r:Researcher)
    WITH DISTINCT r
    """
    + _NODE,
)
INSTITUTION_MEMBERS = Query(
    "graphs.institution_members",
    """
    MATCH (:Institution {id: $institution})<-[:AFFILIATED]-(r:Researcher)
    WITH DISTINCT r
    """
    + _NODE,
)
EGO_MEMBERS = Query(
    "graphs.ego_members",
    """
    MATCH (center:Researcher {id: $id})
    MATCH (center)-[:COAUTHOR*0..2]-(r:Researcher)
    WITH DISTINCT r LIMIT $max_nodes
    """
    + _NODE,
)
EDGES_AMONG = Query(
    "graphs.edges_among",
    """
    MATCH (a:Researcher)-[c:COAUTHOR]->(b:Researcher)
    WHERE a.id IN $ids AND b.id IN $ids AND c.joint_papers >= $min_joint
    RETURN a.id AS a, b.id AS b, c.joint_papers AS joint_papers,
           c.first_year AS first_year, c.last_year AS last_year
    """,
)
