"""Map projections shared by the read queries, so every query returns entities in one shape.

These are constant Cypher fragments joined into query texts when the module loads; no user
value is ever formatted into them.
"""

PAPER = (
    "{.key, .arxiv_id, .doi, .s2_id, .openalex_id, .title, .abstract, .published, .updated, "
    ".year, .primary_category, .citation_count, .n_authors, .hyperauthored, .alphabetical, "
    ".versions, .journal_ref, .withdrawn, .sources, "
    "categories: [(p)-[pic:IN_CATEGORY]->(pcat:Category) | "
    "{code: pcat.code, primary: coalesce(pic.primary, false)}], "
    "matched_authors: COUNT { (p)<-[:AUTHORED]-(:Researcher) }}"
)
RESEARCHER = (
    "{.id, .slug, .name, .name_key, .orcid, .alt_names, .s2_ids, .openalex_ids, .h_index, "
    ".h_index_s2, .h_index_openalex, .paper_count, .citation_count, .merged_into}"
)
# A researcher as a list of authors shows one: enough for models.Researcher and a link.
BRIEF_RESEARCHER = "{.id, .slug, .name}"
INSTITUTION = (
    "{.id, .slug, .name, .ror_id, .openalex_id, .acronyms, .aliases, .country_code, .city, "
    ".types, .established}"
)
AUTHORSHIP = (
    "{.position, .kind, .raw_name, source: a.source, .method, .confidence, "
    "pinned: coalesce(a.pinned, false)}"
)
# The sort value of a paper in a list: yyyymmdd of its date (its year when that is all we
# know) for "newest", its citation count (-1 when unknown) for "most cited"; always an integer.
PAPER_SORT_VALUE = (
    "CASE $sort WHEN 'cited' THEN coalesce(p.citation_count, -1) "
    "ELSE coalesce(p.published.year * 10000 + p.published.month * 100 + p.published.day, "
    "coalesce(p.year, 0) * 10000) END"
)
