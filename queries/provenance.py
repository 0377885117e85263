"""How a researcher's ids and authorships came to them."""

from scholargraph.queries._query import Query

AUTHORSHIPS = Query(
    "provenance.authorships",
    """
    MATCH (r:Researcher {id: $id})-[a:AUTHORED]->(p:Paper)
    RETURN p.key AS paper, p.title AS title, a.position AS position, a.raw_name AS raw_name,
           a.method AS method, a.confidence AS confidence, a.sources AS sources,
           a.source_ids AS source_ids, coalesce(a.mentions, []) AS mentions,
           coalesce(a.pinned, false) AS pinned
    ORDER BY p.published DESC, p.key LIMIT $limit
    """,
)
IDENTIFIERS = Query(
    "provenance.identifiers",
    """
    MATCH (i:Identifier)-[x:IDENTIFIES]->(:Researcher {id: $id})
    RETURN i.key AS key, x.method AS method, x.source AS source ORDER BY key
    """,
)
