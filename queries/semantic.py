"""Vectors: papers' embeddings, researchers' topics, and the searches over their indexes.

A paper's ``embedding`` is of its title and abstract (``embedding_digest`` fingerprints that
text and the model, ``embedding_model`` names the model); a researcher's ``topic`` is the
mean direction of their papers' embeddings. Both are stored as float32 vectors by
``db.create.setNodeVectorProperty``. The vector indexes rank by cosine; the filters on
category and year apply to the ``$paper_window`` nearest, inside the statement.
"""

from scholargraph.queries._projections import INSTITUTION, PAPER, RESEARCHER
from scholargraph.queries._query import Query

VECTOR_INDEX_PAPERS = Query(
    "semantic.vector_index_papers",
    "CREATE VECTOR INDEX paper_embedding IF NOT EXISTS FOR (p:Paper) ON p.embedding "
    "OPTIONS {indexConfig: {`vector.dimensions`: 256, `vector.similarity_function`: 'cosine'}}",
    "write",
)
VECTOR_INDEX_RESEARCHERS = Query(
    "semantic.vector_index_researchers",
    "CREATE VECTOR INDEX researcher_topic IF NOT EXISTS FOR (r:Researcher) ON r.topic "
    "OPTIONS {indexConfig: {`vector.dimensions`: 256, `vector.similarity_function`: 'cosine'}}",
    "write",
)

DROP_VECTOR_INDEX_PAPERS = Query(
    "semantic.drop_vector_index_papers", "DROP INDEX paper_embedding IF EXISTS", "write"
)
DROP_VECTOR_INDEX_RESEARCHERS = Query(
    "semantic.drop_vector_index_researchers", "DROP INDEX researcher_topic IF EXISTS", "write"
)
AWAIT_INDEXES = Query("semantic.await_indexes", "CALL db.awaitIndexes($seconds)", "write")

PAPER_TEXTS = Query(
    "semantic.paper_texts",
    """
    UNWIND $keys AS key
    MATCH (p:Paper {key: key})
    USING INDEX SEEK p:Paper(key)
    RETURN collect({key: p.key, title: p.title, abstract: p.abstract,
                    digest: p.embedding_digest}) AS papers
    """,
)
PAPER_TEXTS_AFTER = Query(
    "semantic.paper_texts_after",
    """
    MATCH (p:Paper) WHERE p.key > $after
    WITH p ORDER BY p.key LIMIT $limit
    RETURN p.key AS key, p.title AS title, p.abstract AS abstract,
           p.embedding_digest AS digest
    """,
)
SET_PAPER_VECTORS = Query(
    "semantic.set_paper_vectors",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.key})
    USING INDEX SEEK p:Paper(key)
    SET p.embedding_digest = row.digest, p.embedding_model = $model
    WITH p, row
    CALL db.create.setNodeVectorProperty(p, 'embedding', row.vector)
    """,
    "write",
)
CLEAR_PAPER_VECTORS = Query(
    "semantic.clear_paper_vectors",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.key})
    USING INDEX SEEK p:Paper(key)
    SET p.embedding_digest = row.digest, p.embedding_model = $model
    REMOVE p.embedding
    """,
    "write",
)

# The researchers come back as one list (one record): the driver's cost is per record.
RESEARCHERS_OF_PAPERS = Query(
    "semantic.researchers_of_papers",
    """
    UNWIND $keys AS key
    MATCH (p:Paper {key: key})<-[:AUTHORED]-(r:Researcher)
    USING INDEX SEEK p:Paper(key)
    RETURN collect(DISTINCT r.id) AS ids
    """,
)
RESEARCHERS_IN_BLOCKS = Query(
    "semantic.researchers_in_blocks",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    RETURN collect(DISTINCT r.id) AS ids
    """,
)
RESEARCHER_IDS_AFTER = Query(
    "semantic.researcher_ids_after",
    """
    MATCH (r:Researcher) WHERE r.id > $after
    WITH r ORDER BY r.id LIMIT $limit
    RETURN r.id AS id
    """,
)
# One record: each researcher with the keys of their papers that have a vector, and each of
# those papers' vector once (a paper of five of them is sent once, not five times).
RESEARCHER_PAPER_VECTORS = Query(
    "semantic.researcher_paper_vectors",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})
    USING INDEX SEEK r:Researcher(id)
    WITH r, [(r)-[:AUTHORED]->(p:Paper) WHERE p.embedding IS NOT NULL | p] AS papers
    WITH collect({id: r.id, retired: r.merged_into IS NOT NULL,
                  papers: [p IN papers | p.key]}) AS researchers,
         collect(papers) AS lists
    CALL (lists) {
        UNWIND lists AS list
        UNWIND list AS p
        WITH DISTINCT p
        RETURN collect({key: p.key, vector: p.embedding}) AS vectors
    }
    RETURN researchers, vectors
    """,
)
SET_RESEARCHER_TOPICS = Query(
    "semantic.set_researcher_topics",
    """
    UNWIND $rows AS row
    MATCH (r:Researcher {id: row.id})
    USING INDEX SEEK r:Researcher(id)
    SET r.topic_model = $model
    WITH r, row
    CALL db.create.setNodeVectorProperty(r, 'topic', row.vector)
    """,
    "write",
)
CLEAR_RESEARCHER_TOPICS = Query(
    "semantic.clear_researcher_topics",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})
    USING INDEX SEEK r:Researcher(id)
    REMOVE r.topic, r.topic_model
    """,
    "write",
)

# One index search per kind of hit asked for: a search of papers alone does not also walk the
# researchers' index (the cost of a vector search grows with its k, whatever is kept after).
_PAPERS_NEAR = """
      CALL db.index.vector.queryNodes('paper_embedding', $paper_window, $vector)
      YIELD node, score
      WHERE ($category IS NULL
             OR EXISTS { (node)-[:IN_CATEGORY]->(:Category {code: $category}) })
        AND ($year_from IS NULL OR node.year >= $year_from)
        AND ($year_to IS NULL OR node.year <= $year_to)
      RETURN 'paper' AS kind, node.key AS key, score, node
"""
_RESEARCHERS_NEAR = """
      CALL db.index.vector.queryNodes('researcher_topic', $window, $vector)
      YIELD node, score
      WHERE node.merged_into IS NULL
      RETURN 'researcher' AS kind, toString(node.id) AS key, score, node
"""
_PARTS = {
    "papers": _PAPERS_NEAR,
    "researchers": _RESEARCHERS_NEAR,
    "both": f"{_PAPERS_NEAR}      UNION ALL{_RESEARCHERS_NEAR}",
}


def _nearest(parts: str) -> str:
    return f"""
    CALL () {{{_PARTS[parts]}    }}
    WITH kind, key, score WHERE score >= $min_score
    ORDER BY score DESC, kind, key
    RETURN collect({{kind: kind, key: key, score: score}}) AS rows
    """


def _page(parts: str) -> str:
    """The ranking by cosine (the index reports ``(1 + cosine) / 2``), how many it holds, and
    the hits after the cursor ``$after_*`` (score, kind, key) up to ``$limit``, each with
    its entity: a page of a search by meaning in one statement."""
    return f"""
    CALL () {{{_PARTS[parts]}    }}
    WITH kind, key, score, node WHERE score >= $min_score
    WITH kind, key, 2.0 * score - 1.0 AS score, node
    ORDER BY score DESC, kind, key
    WITH collect({{kind: kind, key: key, score: score, node: node}}) AS hits
    WITH size(hits) AS total,
         [h IN hits WHERE $after_score IS NULL OR h.score < $after_score
            OR (h.score = $after_score
                AND (h.kind > $after_kind OR (h.kind = $after_kind AND h.key > $after_key)))
         ][..$limit] AS page
    CALL (page) {{
      CALL (page) {{
        UNWIND page AS h
        WITH h WHERE h.kind = 'paper'
        WITH h, h.node AS p
        RETURN h, p {PAPER} AS item
        UNION ALL
        UNWIND page AS h
        WITH h WHERE h.kind = 'researcher'
        WITH h, h.node AS r
        RETURN h, r {RESEARCHER} AS item
      }}
      RETURN collect({{kind: h.kind, key: h.key, score: h.score, item: item}}) AS rows
    }}
    RETURN total, rows
    """


NEAREST = {
    parts: Query(f"semantic.nearest_{parts}", _nearest(parts))
    for parts in ("papers", "researchers", "both")
}
"""Keys and scores of the nearest, best first (a hybrid search fuses them with keyword hits)."""
SEARCH_PAGE = {
    parts: Query(f"semantic.search_page_{parts}", _page(parts))
    for parts in ("papers", "researchers", "both")
}
"""A page of a search by meaning: ``total`` hits ranked, and the page's ``rows`` with their
entities (in no particular order)."""
HIT_ITEMS = Query(
    "semantic.hit_items",
    f"""
    CALL () {{
      UNWIND $papers AS key
      MATCH (p:Paper {{key: key}})
      RETURN 'paper' AS kind, p.key AS key, p {PAPER} AS item
      UNION ALL
      UNWIND $researchers AS id
      MATCH (r:Researcher {{id: id}})
      RETURN 'researcher' AS kind, toString(r.id) AS key, r {RESEARCHER} AS item
      UNION ALL
      UNWIND $institutions AS id
      MATCH (i:Institution {{id: id}})
      RETURN 'institution' AS kind, toString(i.id) AS key, i {INSTITUTION} AS item
    }}
    RETURN collect({{kind: kind, key: key, item: item}}) AS rows
    """,
)
RELATED_PAPERS = Query(
    "semantic.related_papers",
    f"""
    MATCH (me:Paper {{key: $key}}) WHERE me.embedding IS NOT NULL
    CALL db.index.vector.queryNodes('paper_embedding', $limit + 1, me.embedding)
    YIELD node AS p, score
    WHERE p <> me
    RETURN p.key AS key, score, p {PAPER} AS item
    ORDER BY score DESC, key
    LIMIT $limit
    """,
)
SIMILAR_RESEARCHERS = Query(
    "semantic.similar_researchers",
    f"""
    MATCH (me:Researcher {{id: $id}}) WHERE me.topic IS NOT NULL
    CALL db.index.vector.queryNodes('researcher_topic', $window, me.topic)
    YIELD node AS r, score
    WHERE r <> me AND r.merged_into IS NULL
      AND NOT ($exclude_coauthors AND EXISTS {{ (me)-[:COAUTHOR]-(r) }})
    RETURN toString(r.id) AS key, score, r {RESEARCHER} AS item
    ORDER BY score DESC, key
    LIMIT $limit
    """,
)
VECTOR_COVERAGE = Query(
    "semantic.vector_coverage",
    """
    RETURN COUNT { (p:Paper) } AS papers,
           COUNT { (p:Paper) WHERE p.embedding IS NOT NULL } AS embedded,
           COUNT { (p:Paper) WHERE p.embedding_digest IS NOT NULL
                   AND p.embedding_model = $model } AS current,
           COUNT { (r:Researcher) WHERE r.merged_into IS NULL } AS researchers,
           COUNT { (r:Researcher) WHERE r.topic IS NOT NULL AND r.merged_into IS NULL }
             AS with_topic
    """,
)
PAPERS_ON_TOPICS = Query(
    "semantic.papers_on_topics",
    """
    MATCH (p:Paper)
    WHERE any(topic IN $topics WHERE toLower(p.title) CONTAINS toLower(topic))
    RETURN collect(p.key) AS rows
    """,
)
