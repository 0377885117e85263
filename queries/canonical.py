"""The canonical dump's reads: every paper, slot, researcher and tie, whole (see
:mod:`graph.canonical`)."""

from scholargraph.queries._query import Query

PAPERS = Query(
    "canonical.papers",
    "MATCH (p:Paper) RETURN collect({key: p.key, props: properties(p)}) AS rows",
)
SLOTS = Query(
    "canonical.slots",
    """
    MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper)
    RETURN collect({researcher: r.id, paper: p.key, position: a.position,
                    props: properties(a)}) AS rows
    """,
)
RESEARCHERS = Query(
    "canonical.researchers",
    "MATCH (r:Researcher) RETURN collect(properties(r)) AS rows",
)
COAUTHORS = Query(
    "canonical.coauthors",
    """
    MATCH (a:Researcher)-[c:COAUTHOR]->(b:Researcher)
    RETURN collect({a: a.id, b: b.id, props: properties(c)}) AS rows
    """,
)
AFFILIATIONS = Query(
    "canonical.affiliations",
    """
    MATCH (r:Researcher)-[a:AFFILIATED]->(i:Institution)
    RETURN collect({researcher: r.id, institution: coalesce(i.ror_id, i.openalex_id, i.name),
                    props: properties(a)}) AS rows
    """,
)
