"""The bulk writes of a load: ``UNWIND $rows … MERGE`` batches, one transaction per batch.

List properties grow by a de-duplicating ``reduce`` so re-running a load changes nothing.
"""

from scholargraph.queries._query import Query

UPSERT_INSTITUTIONS = Query(
    "writer.upsert_institutions",
    """
    UNWIND $rows AS row
    MERGE (i:Institution {id: row.id})
    ON CREATE SET i.slug = row.slug, i.name = row.name
    SET i.ror_id = coalesce(i.ror_id, row.ror_id),
        i.openalex_id = coalesce(i.openalex_id, row.openalex_id),
        i.name = CASE WHEN row.authoritative THEN row.name ELSE coalesce(i.name, row.name) END,
        i.slug = CASE WHEN row.authoritative THEN row.slug ELSE i.slug END,
        i.country_code = coalesce(row.country_code, i.country_code),
        i.city = coalesce(row.city, i.city),
        i.status = coalesce(row.status, i.status),
        i.established = coalesce(row.established, i.established),
        i.types = CASE WHEN size(row.types) > 0 THEN row.types ELSE coalesce(i.types, []) END,
        i.acronyms = reduce(acc = coalesce(i.acronyms, []), x IN row.acronyms |
                            CASE WHEN x IN acc THEN acc ELSE acc + x END),
        i.aliases = reduce(acc = coalesce(i.aliases, []), x IN row.aliases |
                           CASE WHEN x IN acc THEN acc ELSE acc + x END)
    SET i.names_text = reduce(t = '', x IN i.acronyms + i.aliases | t + ' ' + x)
    """,
    "write",
)
# A child names its parents by ROR id; the link is made when both are in the graph, from
# whichever of the two arrives last (records of one dump come in any order).
LINK_INSTITUTION_PARENTS = Query(
    "writer.link_institution_parents",
    """
    UNWIND $rows AS row
    MATCH (child:Institution {ror_id: row.child})
    SET child.parent_rors = row.parents
    WITH child
    UNWIND child.parent_rors AS parent_ror
    MATCH (parent:Institution {ror_id: parent_ror})
    MERGE (child)-[:PART_OF]->(parent)
    """,
    "write",
)
LINK_WAITING_CHILDREN = Query(
    "writer.link_waiting_children",
    """
    MATCH (child:Institution)
    WHERE child.parent_rors IS NOT NULL AND any(p IN child.parent_rors WHERE p IN $rors)
    UNWIND [p IN child.parent_rors WHERE p IN $rors] AS parent_ror
    MATCH (parent:Institution {ror_id: parent_ror})
    MERGE (child)-[:PART_OF]->(parent)
    """,
    "write",
)
UPSERT_RESEARCHERS = Query(
    "writer.upsert_researchers",
    """
    UNWIND $rows AS row
    MERGE (r:Researcher {id: row.id})
    ON CREATE SET r.slug = row.slug, r.name = row.name, r.name_key = row.name_key,
                  r.paper_count = 0, r.citation_count = 0
    SET r.orcid = CASE WHEN r.orcid IS NULL AND row.orcid IS NOT NULL
                            AND NOT EXISTS { (:Researcher {orcid: row.orcid}) }
                       THEN row.orcid ELSE r.orcid END,
        r.h_index_s2 = coalesce(row.h_index_s2, r.h_index_s2),
        r.h_index_openalex = coalesce(row.h_index_openalex, r.h_index_openalex),
        r.alt_names = reduce(acc = coalesce(r.alt_names, []), x IN row.names |
                             CASE WHEN x IN acc OR x = r.name THEN acc ELSE acc + x END),
        r.dblp = reduce(acc = coalesce(r.dblp, []), x IN row.dblp |
                        CASE WHEN x IN acc THEN acc ELSE acc + x END),
        r.affiliation_names = reduce(acc = coalesce(r.affiliation_names, []),
                                     x IN row.affiliations |
                                     CASE WHEN x IN acc THEN acc ELSE acc + x END)[..20],
        r.coauthor_keys = reduce(acc = coalesce(r.coauthor_keys, []), x IN row.coauthors |
                                 CASE WHEN x IN acc THEN acc ELSE acc + x END)[..100],
        r.category_codes = reduce(acc = coalesce(r.category_codes, []), x IN row.categories |
                                  CASE WHEN x IN acc THEN acc ELSE acc + x END)[..20],
        r.year_min = CASE WHEN row.year_min IS NULL THEN r.year_min
                          WHEN r.year_min IS NULL OR row.year_min < r.year_min THEN row.year_min
                          ELSE r.year_min END,
        r.year_max = CASE WHEN row.year_max IS NULL THEN r.year_max
                          WHEN r.year_max IS NULL OR row.year_max > r.year_max THEN row.year_max
                          ELSE r.year_max END
    SET r.alt_names_text = reduce(t = '', x IN r.alt_names | t + ' ' + x)
    """,
    "write",
)
UPSERT_IDENTIFIERS = Query(
    "writer.upsert_identifiers",
    """
    UNWIND $rows AS row
    MATCH (r:Researcher {id: row.researcher})
    MERGE (i:Identifier {key: row.key})
    ON CREATE SET i.scheme = row.scheme, i.value = row.value
    WITH i, r, row
    WHERE NOT (i)-[:IDENTIFIES]->()
    MERGE (i)-[x:IDENTIFIES]->(r)
    SET x.method = row.method, x.source = row.source
    WITH r, row
    SET r.s2_ids = CASE WHEN row.scheme = 's2' AND NOT row.value IN coalesce(r.s2_ids, [])
                        THEN coalesce(r.s2_ids, []) + row.value ELSE coalesce(r.s2_ids, []) END,
        r.openalex_ids = CASE WHEN row.scheme = 'openalex'
                                   AND NOT row.value IN coalesce(r.openalex_ids, [])
                              THEN coalesce(r.openalex_ids, []) + row.value
                              ELSE coalesce(r.openalex_ids, []) END
    """,
    "write",
)
UPSERT_PAPERS = Query(
    "writer.upsert_papers",
    """
    UNWIND $rows AS row
    MERGE (p:Paper {key: row.key})
    ON CREATE SET p += row.props, p.sources = [row.source], p.retrieved = row.retrieved
    WITH p, row, p.retrieved IS NULL OR row.retrieved >= p.retrieved AS newer
    SET p += CASE WHEN newer THEN row.props ELSE {} END,
        p.retrieved = CASE WHEN newer THEN row.retrieved ELSE p.retrieved END,
        p.arxiv_id = coalesce(p.arxiv_id, row.props.arxiv_id),
        p.sources = CASE WHEN row.source IN p.sources THEN p.sources
                         ELSE p.sources + row.source END
    WITH p, row
    UNWIND row.categories AS cat
    MATCH (c:Category {code: cat.code})
    MERGE (p)-[ic:IN_CATEGORY]->(c)
    SET ic.primary = cat.primary
    """,
    "write",
)
UPSERT_AUTHORSHIPS = Query(
    "writer.upsert_authorships",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.paper}), (r:Researcher {id: row.researcher})
    MERGE (r)-[a:AUTHORED]->(p)
    WITH a, row, a.rank IS NULL OR row.rank <= a.rank AS stronger
    SET a.position = row.position, a.kind = row.kind, a.raw_name = row.raw_name,
        a.source = row.source,
        a.method = CASE WHEN stronger THEN row.method ELSE a.method END,
        a.confidence = CASE WHEN stronger THEN row.confidence ELSE a.confidence END,
        a.rank = CASE WHEN stronger THEN row.rank ELSE a.rank END,
        a.sources = reduce(acc = coalesce(a.sources, []), x IN [row.source] |
                           CASE WHEN x IN acc THEN acc ELSE acc + x END),
        a.source_ids = reduce(acc = coalesce(a.source_ids, []), x IN row.source_ids |
                              CASE WHEN x IN acc THEN acc ELSE acc + x END),
        a.pinned = coalesce(a.pinned, false)
    """,
    "write",
)
DROP_SLOTS = Query(
    "writer.drop_slots",
    """
    UNWIND $rows AS row
    MATCH (r:Researcher {id: row.researcher})-[a:AUTHORED]->(p:Paper {key: row.paper})
    WHERE NOT coalesce(a.pinned, false)
    DELETE a
    """,
    "write",
)
RETIRE_EMPTY = Query(
    "writer.retire_empty",
    """
    UNWIND $rows AS row
    MATCH (r:Researcher {id: row.researcher})
    WHERE r.merged_into IS NULL AND NOT (r)-[:AUTHORED]->() AND NOT ()-[:IDENTIFIES]->(r)
    SET r.merged_into = row.into
    """,
    "write",
)
UPSERT_AFFILIATIONS = Query(
    "writer.upsert_affiliations",
    """
    UNWIND $rows AS row
    MATCH (r:Researcher {id: row.researcher}), (i:Institution {id: row.institution})
    MERGE (r)-[a:AFFILIATED {source: row.source}]->(i)
    SET a.first_year = CASE WHEN row.first_year IS NULL THEN a.first_year
                            WHEN a.first_year IS NULL OR row.first_year < a.first_year
                            THEN row.first_year ELSE a.first_year END,
        a.last_year = CASE WHEN row.last_year IS NULL THEN a.last_year
                           WHEN a.last_year IS NULL OR row.last_year > a.last_year
                           THEN row.last_year ELSE a.last_year END
    """,
    "write",
)
REFRESH_COAUTHORS = Query(
    "writer.refresh_coauthors",
    """
    UNWIND $pairs AS pair
    MATCH (a:Researcher {id: pair[0]}), (b:Researcher {id: pair[1]})
    CALL (a, b) {
      OPTIONAL MATCH (a)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(b)
      WHERE NOT coalesce(p.hyperauthored, false)
      RETURN count(p) AS n, min(p.year) AS first_year, max(p.year) AS last_year
    }
    OPTIONAL MATCH (a)-[old:COAUTHOR]-(b)
    CALL (a, b, n, first_year, last_year) {
      WITH * WHERE n > 0
      MERGE (a)-[c:COAUTHOR]->(b)
      SET c.joint_papers = n, c.first_year = first_year, c.last_year = last_year
    }
    CALL (old, n) {
      WITH * WHERE n = 0 AND old IS NOT NULL
      DELETE old
    }
    """,
    "write",
)
REFRESH_RESEARCHER_COUNTS = Query(
    "writer.refresh_researcher_counts",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})
    CALL (r) {
      OPTIONAL MATCH (r)-[:AUTHORED]->(p:Paper)
      WITH coalesce(p.citation_count, 0) AS c, p ORDER BY c DESC
      WITH collect(c) AS cs, count(p) AS n
      RETURN n, reduce(s = 0, x IN cs | s + x) AS total,
             size([i IN range(0, size(cs) - 1) WHERE cs[i] >= i + 1]) AS h
    }
    SET r.paper_count = n, r.citation_count = total, r.h_index = h
    """,
    "write",
)
# Pairs where one side is a researcher created in this very transaction cannot have a
# COAUTHOR edge yet: they are created outright, which spares the MERGE's scan of both
# researchers' existing ties.
CREATE_COAUTHORS = Query(
    "writer.create_coauthors",
    """
    UNWIND $rows AS row
    MATCH (a:Researcher {id: row[0]}), (b:Researcher {id: row[1]})
    CREATE (a)-[:COAUTHOR {joint_papers: row[2], first_year: row[3], last_year: row[4]}]->(b)
    """,
    "write",
)
# Rows are [a, b, joint papers, first year, last year].
INCREMENT_COAUTHORS = Query(
    "writer.increment_coauthors",
    """
    UNWIND $rows AS row
    MATCH (a:Researcher {id: row[0]}), (b:Researcher {id: row[1]})
    MERGE (a)-[c:COAUTHOR]->(b)
    ON CREATE SET c.joint_papers = 0
    SET c.joint_papers = c.joint_papers + row[2],
        c.first_year = CASE WHEN c.first_year IS NULL OR row[3] < c.first_year
                            THEN row[3] ELSE c.first_year END,
        c.last_year = CASE WHEN c.last_year IS NULL OR row[4] > c.last_year
                           THEN row[4] ELSE c.last_year END
    """,
    "write",
)
