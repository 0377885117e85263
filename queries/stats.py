from scholargraph.queries._query import Query

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

# After a big load: index statistics resampled where they are out of date (the planner's
# estimates come from them), the indexes online, and the plans made on the old statistics
# dropped so that the next statements are planned again.
RESAMPLE_OUTDATED_INDEXES = Query(
    "stats.resample_outdated_indexes", "CALL db.resampleOutdatedIndexes()", "auto"
)
AWAIT_INDEXES = Query("stats.await_indexes", "CALL db.awaitIndexes($timeout_s)", "auto")
CLEAR_QUERY_CACHES = Query("stats.clear_query_caches", "CALL db.clearQueryCaches()", "auto")
