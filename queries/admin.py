from scholargraph.queries._query import Query

# Used only on a throw-away database a test session or a benchmark started itself.
CLEAR_DATA = Query(
    "admin.clear_data",
    """
    MATCH (n) WHERE NOT n:Category AND NOT n:Archive
    CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
    """,
    "auto",
)
