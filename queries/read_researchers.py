"""What a researcher page shows: positions, fields, identity, most cited, coauthors, affiliations
and the same-name records. Every query takes a list of researcher ids, so one statement serves
every researcher a request asks about."""

from scholargraph.queries._projections import INSTITUTION, PAPER, RESEARCHER
from scholargraph.queries._query import Query

# A paper counts as matched when every one of its author slots is linked to a researcher, so
# the position of each is known. Alphabetical author lists are counted apart.
PROFILES = Query(
    "read_researchers.profiles",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})
    CALL (r) {
      OPTIONAL MATCH (r)-[a:AUTHORED]->(p:Paper)
      WITH a, p, p IS NOT NULL
                 AND COUNT { (p)<-[:AUTHORED]-(:Researcher) } >= coalesce(p.n_authors, 0)
                 AS matched
      RETURN count(p) AS papers,
             count(CASE WHEN matched THEN 1 END) AS matched,
             count(CASE WHEN matched AND coalesce(p.alphabetical, false) THEN 1 END)
               AS alphabetical,
             count(CASE WHEN matched AND NOT coalesce(p.alphabetical, false)
                        AND a.kind = 'first' THEN 1 END) AS first,
             count(CASE WHEN matched AND NOT coalesce(p.alphabetical, false)
                        AND a.kind = 'middle' THEN 1 END) AS middle,
             count(CASE WHEN matched AND NOT coalesce(p.alphabetical, false)
                        AND a.kind = 'last' THEN 1 END) AS last,
             count(CASE WHEN matched AND NOT coalesce(p.alphabetical, false)
                        AND a.kind = 'solo' THEN 1 END) AS solo
    }
    CALL (r) {
      OPTIONAL MATCH (r)-[:AUTHORED]->(p:Paper)-[ic:IN_CATEGORY]->(c:Category)
      WITH c.code AS code, count(p) AS papers,
           count(CASE WHEN ic.primary THEN 1 END) AS primary_papers
      WHERE code IS NOT NULL
      ORDER BY papers DESC, code
      RETURN collect({code: code, papers: papers, primary_papers: primary_papers}) AS fields
    }
    RETURN id, papers, matched, alphabetical, first, middle, last, solo, fields,
           [(i:Identifier)-[x:IDENTIFIES]->(r) |
             {key: i.key, scheme: i.scheme, value: i.value, method: x.method,
              source: x.source}] AS identifiers,
           COLLECT { MATCH (m:Researcher {merged_into: r.id}) RETURN m.id } AS merged_from
    """,
)
MOST_CITED = Query(
    "read_researchers.most_cited",
    f"""
    UNWIND $ids AS id
    MATCH (r:Researcher {{id: id}})
    CALL (r) {{
      OPTIONAL MATCH (r)-[:AUTHORED]->(p:Paper)
      WHERE p.citation_count IS NOT NULL
      RETURN count(p) AS counted, sum(p.citation_count) AS citations
    }}
    CALL (r) {{
      MATCH (r)-[:AUTHORED]->(p:Paper)
      WHERE p.citation_count IS NOT NULL
      WITH p ORDER BY p.citation_count DESC, p.key DESC LIMIT $limit
      RETURN collect(p {PAPER}) AS papers
    }}
    RETURN id, counted, citations, COUNT {{ (r)-[:AUTHORED]->(:Paper) }} AS total, papers
    """,
)
COAUTHOR_PAGES = Query(
    "read_researchers.coauthor_pages",
    f"""
    UNWIND $ids AS id
    MATCH (r:Researcher {{id: id}})
    CALL (r) {{
      MATCH (r)-[c:COAUTHOR]-(o:Researcher)
      WHERE c.joint_papers >= $min_joint
        AND ($after_joint IS NULL OR c.joint_papers < $after_joint
             OR (c.joint_papers = $after_joint AND o.id > $after_id))
      WITH c, o ORDER BY c.joint_papers DESC, o.id LIMIT $limit
      RETURN collect({{researcher: o {RESEARCHER}, joint_papers: c.joint_papers,
                      first_year: c.first_year, last_year: c.last_year}}) AS rows
    }}
    RETURN id, rows,
           COUNT {{ (r)-[c:COAUTHOR]-(:Researcher) WHERE c.joint_papers >= $min_joint }} AS total
    """,
)
# One row per institution, whatever the number of sources that reported the affiliation,
# with the best-scored edge's method and score (see writer.UPSERT_AFFILIATIONS).
AFFILIATION_PAGES = Query(
    "read_researchers.affiliation_pages",
    f"""
    UNWIND $ids AS id
    MATCH (r:Researcher {{id: id}})
    CALL (r) {{
      MATCH (r)-[a:AFFILIATED]->(i:Institution)
      WITH i, a ORDER BY coalesce(a.score, -1.0) DESC, a.method
      WITH i, collect(DISTINCT a.source) AS sources, min(a.first_year) AS first_year,
           max(a.last_year) AS last_year, head(collect(a.method)) AS method,
           max(a.score) AS score
      WITH i, sources, first_year, last_year, method, score, coalesce(last_year, 0) AS sort
      WHERE $after_sort IS NULL OR sort < $after_sort
            OR (sort = $after_sort AND i.id > $after_id)
      ORDER BY sort DESC, i.id LIMIT $limit
      RETURN collect({{institution: i {INSTITUTION}, sources: sources, first_year: first_year,
                      last_year: last_year, method: method, score: score,
                      sort: sort}}) AS rows
    }}
    RETURN id, rows,
           size(COLLECT {{ MATCH (r)-[:AFFILIATED]->(i:Institution) RETURN DISTINCT i.id }})
           AS total
    """,
)
# Everyone else filed under the same name block, with what the "same person?" score reads.
_SCORING_FEATURES = """{.id, .slug, .name, .name_key, .alt_names, .orcid, .s2_ids, .openalex_ids,
    .affiliation_names, .coauthor_keys, .category_codes, .year_min, .year_max, .paper_count,
    .citation_count, .h_index, .h_index_s2, .h_index_openalex, .topic,
    ror_ids: [(x)-[:AFFILIATED]->(i:Institution) WHERE i.ror_id IS NOT NULL | i.ror_id],
    distinct_from: [(x)-[:DISTINCT_FROM]-(d:Researcher) | d.id]}"""
SAME_NAME = Query(
    "read_researchers.same_name",
    f"""
    UNWIND $ids AS id
    MATCH (r:Researcher {{id: id}})
    CALL (r) {{
      WITH r AS x
      RETURN x {_SCORING_FEATURES} AS self
    }}
    CALL (r) {{
      MATCH (x:Researcher {{name_key: r.name_key}})
      WHERE x.merged_into IS NULL AND x <> r
      WITH x ORDER BY x.paper_count DESC, x.id LIMIT $limit
      OPTIONAL MATCH (r)-[c:COAUTHOR]-(x)
      WITH x {_SCORING_FEATURES} AS features, coalesce(c.joint_papers, 0) AS together
      RETURN collect(features {{.*, together: together}}) AS others
    }}
    RETURN id, self, others,
           COUNT {{ (o:Researcher {{name_key: r.name_key}}) WHERE o.merged_into IS NULL
                   AND o <> r }} AS total
    """,
)
MEMBER_PAGES = Query(
    "read_researchers.member_pages",
    f"""
    UNWIND $ids AS id
    MATCH (i:Institution {{id: id}})
    CALL (i) {{
      MATCH (r:Researcher)-[:AFFILIATED]->(i)
      WITH DISTINCT r
      WHERE r.merged_into IS NULL
        AND ($after_papers IS NULL OR r.paper_count < $after_papers
             OR (r.paper_count = $after_papers AND r.id > $after_id))
      WITH r ORDER BY r.paper_count DESC, r.id LIMIT $limit
      RETURN collect(r {RESEARCHER}) AS rows
    }}
    RETURN id, rows,
           size(COLLECT {{ MATCH (r:Researcher)-[:AFFILIATED]->(i) WHERE r.merged_into IS NULL
                          RETURN DISTINCT r.id }}) AS total
    """,
)
