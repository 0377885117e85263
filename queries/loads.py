from typing import TypedDict

from scholargraph.queries._query import Query

PAPER_FINGERPRINTS = Query(
    "loads.paper_fingerprints",
    """
    UNWIND $keys AS key
    MATCH (p:Paper {key: key})
    USING INDEX SEEK p:Paper(key)
    RETURN key, coalesce(p.fingerprints, []) AS fingerprints
    """,
)


class FingerprintRow(TypedDict):
    key: str
    source: str
    fingerprint: str


SET_FINGERPRINTS = Query(
    "loads.set_fingerprints",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.key})
    USING INDEX SEEK p:Paper(key)
    SET p.fingerprints = COLLECT { UNWIND [f IN coalesce(p.fingerprints, [])
                                           WHERE NOT f STARTS WITH row.source + ':'] +
                                          row.fingerprint AS f
                                   RETURN f ORDER BY f }
    """,
    "write",
)
# The store id is minted when a store is created: a new data directory, a restored or
# recreated database, all answer a new one, while a restart keeps it.
STORE_IDENTITY = Query(
    "loads.store_identity",
    """
    CALL db.info() YIELD id, name
    RETURN id, name
    """,
)

ROW_TYPES: dict[Query, object] = {SET_FINGERPRINTS: FingerprintRow}
