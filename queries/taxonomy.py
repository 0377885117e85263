from scholargraph.queries._query import Query

UPSERT_ARCHIVES = Query(
    "taxonomy.upsert_archives",
    """
    UNWIND $rows AS row
    MERGE (a:Archive {code: row.code})
    SET a.name = row.name, a.group = row.group
    """,
    "write",
)
UPSERT_CATEGORIES = Query(
    "taxonomy.upsert_categories",
    """
    UNWIND $rows AS row
    MERGE (c:Category {code: row.code})
    SET c.name = row.name, c.active = row.active
    WITH c, row
    MATCH (a:Archive {code: row.archive})
    MERGE (c)-[:IN_ARCHIVE]->(a)
    """,
    "write",
)
