"""Reads the identity step makes before a batch is written."""

from scholargraph.queries._query import Query

LOOKUP_IDENTIFIERS = Query(
    "identity.lookup_identifiers",
    """
    UNWIND $keys AS key
    MATCH (i:Identifier {key: key})
    USING INDEX SEEK i:Identifier(key)
    MATCH (i)-[:IDENTIFIES]->(r:Researcher)
    RETURN collect({key: key, researcher: coalesce(r.merged_into, r.id)}) AS rows
    """,
)
LOOKUP_SLOTS = Query(
    "identity.lookup_slots",
    """
    UNWIND $papers AS key
    MATCH (p:Paper {key: key})
    USING INDEX SEEK p:Paper(key)
    MATCH (p)<-[a:AUTHORED]-(r:Researcher)
    RETURN collect({paper: key, position: a.position, researcher: r.id, name: r.name,
                    raw_name: a.raw_name, mentions: coalesce(a.mentions, []),
                    orcid: r.orcid, pinned: coalesce(a.pinned, false), source: a.source,
                    sources: coalesce(a.sources, [a.source]), method: a.method,
                    confidence: a.confidence, rank: a.rank, kind: a.kind,
                    source_ids: coalesce(a.source_ids, []),
                    affiliations: coalesce(a.affiliations, []),
                    institutions: size(coalesce(a.institutions, [])) > 0,
                    has_ids: EXISTS { (r)<-[:IDENTIFIES]-() }}) AS rows
    """,
)
CANDIDATE_IDS_BY_BLOCK = Query(
    "identity.candidate_ids_by_block",
    """
    UNWIND $blocks AS b
    MATCH (r:Researcher {name_key: b.key})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
      AND (NOT b.no_s2 OR r.s2_ids IS NULL OR size(r.s2_ids) = 0)
      AND (NOT b.no_openalex OR r.openalex_ids IS NULL OR size(r.openalex_ids) = 0)
    WITH b.key AS block, r ORDER BY r.paper_count DESC
    WITH block, collect(r)[..$per_block] AS rs
    UNWIND rs AS r
    RETURN collect({id: r.id, block: block, orcid: r.orcid, s2_ids: r.s2_ids,
                    openalex_ids: r.openalex_ids}) AS rows
    """,
)
CANDIDATE_FEATURES = Query(
    "identity.candidate_features",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})
    RETURN r {.id, .name, .orcid, .s2_ids, .openalex_ids, .affiliation_names, .coauthor_keys,
              .category_codes, .year_min, .year_max,
              ror_ids: [(r)-[:AFFILIATED]->(i:Institution) WHERE i.ror_id IS NOT NULL |
                        i.ror_id]} AS features
    """,
)
# What a machine merge of two researchers must respect: their ORCID iDs, curator marks,
# and the papers both authored (at different positions: two people).
MERGE_STATES = Query(
    "identity.merge_states",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})
    RETURN collect({id: id, orcid: r.orcid, merged_into: r.merged_into,
                    distinct_from: [(r)-[:DISTINCT_FROM]-(d:Researcher) | d.id]}) AS rows
    """,
)
SHARED_SLOTS = Query(
    "identity.shared_slots",
    """
    UNWIND $pairs AS pair
    MATCH (a:Researcher {id: pair[0]})-[x:AUTHORED]->(p:Paper)<-[y:AUTHORED]-(b:Researcher)
    WHERE b.id = pair[1]
    RETURN collect({first: a.id, second: b.id, paper: p.key, first_position: x.position,
                    second_position: y.position}) AS rows
    """,
)
LOOKUP_INSTITUTIONS = Query(
    "identity.lookup_institutions",
    """
    UNWIND $refs AS ref
    OPTIONAL MATCH (byror:Institution {ror_id: ref.ror_id})
    OPTIONAL MATCH (byoa:Institution {openalex_id: ref.openalex_id})
    WITH ref, coalesce(byror, byoa) AS i
    WHERE i IS NOT NULL
    RETURN ref.ror_id AS ror_id, ref.openalex_id AS openalex_id, i.id AS id
    """,
)
NEXT_IDS = Query(
    "identity.next_ids",
    """
    MERGE (s:Sequence {name: $name})
    ON CREATE SET s.next = $start
    WITH s, s.next AS first
    SET s.next = first + $count
    RETURN first
    """,
    "write",
)
CLAIMED_SLOTS = Query(
    "identity.claimed_slots",
    """
    UNWIND $claims AS claim
    MATCH (p:Paper)
    WHERE p.key IN claim.keys OR p.doi IN claim.dois
    MATCH (p)<-[:AUTHORED]-(r:Researcher)
    RETURN claim.orcid AS orcid, p.key AS paper, r.id AS researcher, r.name AS name,
           r.orcid AS holder_orcid
    """,
)
SET_ORCID = Query(
    "identity.set_orcid",
    """
    MATCH (r:Researcher {id: $researcher})
    WHERE r.orcid IS NULL AND NOT EXISTS { (:Researcher {orcid: $orcid}) }
    SET r.orcid = $orcid
    MERGE (i:Identifier {key: 'orcid:' + $orcid})
    ON CREATE SET i.scheme = 'orcid', i.value = $orcid
    WITH r, i
    WHERE NOT (i)-[:IDENTIFIES]->()
    MERGE (i)-[x:IDENTIFIES]->(r)
    SET x.method = 'orcid', x.source = 'orcid'
    RETURN r.id AS id
    """,
    "write",
)
