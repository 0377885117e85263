from queries._query import Query

NODE_COUNTS = Query(
    "stats.node_counts",
    "CALL db.labels() YIELD label "
    "CALL (label) { MATCH (n) WHERE label IN labels(n) RETURN count(n) AS n } "
    "RETURN label, n ORDER BY label",
)
RELATIONSHIP_COUNTS = Query(
    "stats.relationship_counts",
    "CALL db.relationshipTypes() YIELD relationshipType AS type "
    "CALL (type) { MATCH ()-[r]->() WHERE type(r) = type RETURN count(r) AS n } "
    "RETURN type, n ORDER BY type",
)
