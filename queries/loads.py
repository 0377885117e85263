from scholargraph.queries._query import Query

PAPER_FINGERPRINTS = Query(
    "loads.paper_fingerprints",
    """
    UNWIND $keys AS key
    MATCH (p:Paper {key: key})
    RETURN key, coalesce(p.fingerprints, []) AS fingerprints
    """,
)
SET_FINGERPRINTS = Query(
    "loads.set_fingerprints",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.key})
    SET p.fingerprints = [f IN coalesce(p.fingerprints, [])
                          WHERE NOT f STARTS WITH row.source + ':'] + row.fingerprint
    """,
    "write",
)
