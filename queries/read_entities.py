"""Look-ups of single entities by any of their ids, and batched fetches for the API's loaders."""

from scholargraph.queries._projections import INSTITUTION, PAPER, RESEARCHER
from scholargraph.queries._query import Query

PAPER_BY_ID = Query(
    "read_entities.paper_by_id",
    f"""
    OPTIONAL MATCH (bykey:Paper {{key: $key}})
    OPTIONAL MATCH (bydoi:Paper {{doi: $doi}})
    WITH coalesce(bykey, bydoi) AS p
    WHERE p IS NOT NULL
    RETURN p {PAPER} AS paper
    LIMIT 1
    """,
)
# A merged-away researcher resolves to its survivor; merges compress chains, and two steps
# cover a chain made before a later merge.
RESEARCHER_BY_ID = Query(
    "read_entities.researcher_by_id",
    f"""
    OPTIONAL MATCH (byid:Researcher {{id: $id}})
    OPTIONAL MATCH (byorcid:Researcher {{orcid: $orcid}})
    OPTIONAL MATCH (:Identifier {{key: $identifier}})-[:IDENTIFIES]->(byident:Researcher)
    WITH coalesce(byid, byorcid, byident) AS found
    WHERE found IS NOT NULL
    OPTIONAL MATCH (first:Researcher {{id: found.merged_into}})
    OPTIONAL MATCH (second:Researcher {{id: first.merged_into}})
    WITH found, coalesce(second, first, found) AS r
    RETURN r {RESEARCHER} AS researcher, found.id AS requested
    LIMIT 1
    """,
)
RESEARCHERS_BY_ID = Query(
    "read_entities.researchers_by_id",
    f"""
    UNWIND $ids AS id
    MATCH (r:Researcher {{id: id}})
    RETURN id, r {RESEARCHER} AS researcher
    """,
)
INSTITUTION_BY_KEY = Query(
    "read_entities.institution_by_key",
    f"""
    OPTIONAL MATCH (byid:Institution {{id: $id}})
    OPTIONAL MATCH (byror:Institution {{ror_id: $ror_id}})
    WITH coalesce(byid, byror) AS i
    WHERE i IS NOT NULL
    RETURN i {INSTITUTION} AS institution
    """,
)
# Full-text candidates, then the exact (case-insensitive) matches among them first: the
# caller takes an exact match and otherwise offers the candidates as suggestions.
INSTITUTIONS_BY_NAME = Query(
    "read_entities.institutions_by_name",
    f"""
    CALL db.index.fulltext.queryNodes('institution_names', $lucene, {{limit: 20}})
    YIELD node AS i, score
    WITH i, score,
         toLower(i.name) = $name
         OR any(n IN coalesce(i.aliases, []) + coalesce(i.acronyms, []) WHERE toLower(n) = $name)
         AS exact
    RETURN i {INSTITUTION} AS institution, exact,
           COUNT {{ (i)<-[:AFFILIATED]-(:Researcher) }} AS members
    ORDER BY exact DESC, members DESC, score DESC
    LIMIT 5
    """,
)
INSTITUTIONS_BY_ID = Query(
    "read_entities.institutions_by_id",
    f"""
    UNWIND $ids AS id
    MATCH (i:Institution {{id: id}})
    RETURN id, i {INSTITUTION} AS institution,
           [(i)-[:PART_OF]->(parent:Institution) | parent.id] AS parents,
           [(child:Institution)-[:PART_OF]->(i) | child.id] AS children
    """,
)
CATEGORY_COUNTS = Query(
    "read_entities.category_counts",
    """
    UNWIND $codes AS code
    MATCH (c:Category {code: code})
    RETURN code, COUNT { (c)<-[:IN_CATEGORY]-(:Paper) } AS papers,
           COUNT { (c)<-[:IN_CATEGORY {primary: true}]-(:Paper) } AS primary_papers
    """,
)
