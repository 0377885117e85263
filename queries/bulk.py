"""Reading the whole store out for ``neo4j-admin database import``, and the touch after it.

Nodes and relationships are read a range of internal ids at a time, each id found by its
seek (``UNWIND range(…) … WHERE id(n) = i``): a page costs its own rows, not a scan of the
store. The columns are found first, one scan each: every label set's (or relationship
type's) property keys with the value types they hold.
"""

from typing import TypedDict

from scholargraph.queries._query import Query


class ColumnRow(TypedDict):
    group: list[str]  # a node's labels, or a relationship's type alone
    key: str | None  # None: the group exists, with no property
    type: str  # valueType() of the values, e.g. "LIST<STRING NOT NULL> NOT NULL"


class NodeRow(TypedDict):
    id: int
    labels: list[str]
    props: dict[str, object]


class RelationshipRow(TypedDict):
    start: int
    end: int
    type: str
    props: dict[str, object]


NODE_COLUMNS = Query(
    "bulk.node_columns",
    """
    MATCH (n)
    WITH labels(n) AS group, n
    UNWIND CASE keys(n) WHEN [] THEN [null] ELSE keys(n) END AS key
    WITH DISTINCT group, key, valueType(n[key]) AS type
    RETURN collect({group: group, key: key, type: type}) AS rows
    """,
)
RELATIONSHIP_COLUMNS = Query(
    "bulk.relationship_columns",
    """
    MATCH ()-[r]->()
    WITH [type(r)] AS group, r
    UNWIND CASE keys(r) WHEN [] THEN [null] ELSE keys(r) END AS key
    WITH DISTINCT group, key, valueType(r[key]) AS type
    RETURN collect({group: group, key: key, type: type}) AS rows
    """,
)
TOP_IDS = Query(
    "bulk.top_ids",
    """
    CALL () { MATCH (n) RETURN coalesce(max(id(n)), -1) AS nodes }
    CALL () { MATCH ()-[r]->() RETURN coalesce(max(id(r)), -1) AS relationships }
    RETURN nodes, relationships
    """,
)
NODES = Query(
    "bulk.nodes",
    """
    UNWIND range($first, $last) AS i
    MATCH (n) WHERE id(n) = i
    RETURN collect({id: i, labels: labels(n), props: properties(n)}) AS rows
    """,
)
RELATIONSHIPS = Query(
    "bulk.relationships",
    """
    UNWIND range($first, $last) AS i
    MATCH (a)-[r]->(b) WHERE id(r) = i
    RETURN collect({start: id(a), end: id(b), type: type(r), props: properties(r)}) AS rows
    """,
)

# After the import: the empty arrays the files could not carry (graph.bulk.fields).
FILL_EMPTY_NODE_ARRAYS = Query(
    "bulk.fill_empty_node_arrays",
    """
    MATCH (n:_BulkEmptyArrays)
    CALL (n) {
      FOREACH (key IN n._bulk_empty_arrays | SET n[key] = [])
      REMOVE n:_BulkEmptyArrays, n._bulk_empty_arrays
    } IN TRANSACTIONS OF 10000 ROWS
    """,
    "auto",
)
FILL_EMPTY_RELATIONSHIP_ARRAYS = Query(
    "bulk.fill_empty_relationship_arrays",
    """
    MATCH ()-[r]->() WHERE r._bulk_empty_arrays IS NOT NULL
    CALL (r) {
      FOREACH (key IN r._bulk_empty_arrays | SET r[key] = [])
      REMOVE r._bulk_empty_arrays
    } IN TRANSACTIONS OF 10000 ROWS
    """,
    "auto",
)
