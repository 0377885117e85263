"""Schema objects neomodel cannot declare: multi-property full-text and relationship indexes."""

from scholargraph.queries._query import Query
from scholargraph.queries.semantic import VECTOR_INDEX_PAPERS, VECTOR_INDEX_RESEARCHERS

FULLTEXT_PAPERS = Query(
    "schema.fulltext_papers",
    "CREATE FULLTEXT INDEX paper_text IF NOT EXISTS FOR (p:Paper) ON EACH [p.title, p.abstract]",
    "write",
)
FULLTEXT_RESEARCHERS = Query(
    "schema.fulltext_researchers",
    "CREATE FULLTEXT INDEX researcher_names IF NOT EXISTS FOR (r:Researcher) "
    "ON EACH [r.name, r.alt_names_text]",
    "write",
)
FULLTEXT_INSTITUTIONS = Query(
    "schema.fulltext_institutions",
    "CREATE FULLTEXT INDEX institution_names IF NOT EXISTS FOR (i:Institution) "
    "ON EACH [i.name, i.names_text]",
    "write",
)
COAUTHOR_JOINT_INDEX = Query(
    "schema.coauthor_joint_index",
    "CREATE INDEX coauthor_joint IF NOT EXISTS FOR ()-[c:COAUTHOR]-() ON (c.joint_papers)",
    "write",
)
AUTHORED_METHOD_INDEX = Query(
    "schema.authored_method_index",
    "CREATE INDEX authored_method IF NOT EXISTS FOR ()-[a:AUTHORED]-() ON (a.method)",
    "write",
)
# A paper merged away loses its Paper label (and with it the key's uniqueness constraint);
# merges, unmerges and lookups by a former key find it by its key.
MERGED_PAPER_KEY_INDEX = Query(
    "schema.merged_paper_key_index",
    "CREATE INDEX merged_paper_key IF NOT EXISTS FOR (m:MergedPaper) ON (m.key)",
    "write",
)
AWAIT_INDEXES = Query("schema.await_indexes", "CALL db.awaitIndexes(300)", "write")
SHOW_INDEXES = Query(
    "schema.show_indexes", "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, state"
)
SHOW_CONSTRAINTS = Query(
    "schema.show_constraints", "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties"
)

EXTRA_SCHEMA = (
    FULLTEXT_PAPERS,
    FULLTEXT_RESEARCHERS,
    FULLTEXT_INSTITUTIONS,
    COAUTHOR_JOINT_INDEX,
    AUTHORED_METHOD_INDEX,
    MERGED_PAPER_KEY_INDEX,
    VECTOR_INDEX_PAPERS,
    VECTOR_INDEX_RESEARCHERS,
)
