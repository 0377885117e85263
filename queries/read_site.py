"""What the reference site reads that no other read gives: the researcher and institution
indexes, the keys its sitemaps list, the entities nearest to an address that names none, and
the graph's state (for ``ETag``/``Last-Modified``).

Index pages are numbered (``$skip``/``$limit``); sitemap reads are keyset pages over the
entity keys (``$after``, exclusive), so a sitemap of a million URLs is read a slice at a time.
"""

from scholargraph.queries._projections import INSTITUTION, RESEARCHER
from scholargraph.queries._query import Query

# Nothing: read for its bookmark, which changes whenever a write lands.
GRAPH_STATE = Query("read_site.graph_state", "RETURN 1 AS seen")

_RESEARCHER_ORDER = {
    "papers": "r.paper_count DESC, r.id",
    "citations": "r.citation_count DESC, r.id",
    "name": "r.name, r.id",
}


def _researcher_index(sort: str) -> Query:
    return Query(
        f"read_site.researchers_by_{sort}",
        f"""
        CALL () {{
          MATCH (r:Researcher) WHERE r.merged_into IS NULL
          RETURN count(r) AS total
        }}
        CALL () {{
          MATCH (r:Researcher) WHERE r.merged_into IS NULL
          WITH r ORDER BY {_RESEARCHER_ORDER[sort]} SKIP $skip LIMIT $limit
          RETURN collect(r {RESEARCHER}) AS rows
        }}
        RETURN total, rows
        """,
    )


RESEARCHER_INDEX = {sort: _researcher_index(sort) for sort in _RESEARCHER_ORDER}

_INSTITUTION_ORDER = {
    "researchers": "members DESC, i.id",
    "name": "i.name, i.id",
}


def _institution_index(sort: str) -> Query:
    return Query(
        f"read_site.institutions_by_{sort}",
        f"""
        CALL () {{
          MATCH (i:Institution)
          RETURN count(i) AS total
        }}
        CALL () {{
          MATCH (i:Institution)
          WITH i, COUNT {{ (i)<-[:AFFILIATED]-(r:Researcher) WHERE r.merged_into IS NULL }}
               AS members
          ORDER BY {_INSTITUTION_ORDER[sort]} SKIP $skip LIMIT $limit
          RETURN collect({{institution: i {INSTITUTION}, members: members}}) AS rows
        }}
        RETURN total, rows
        """,
    )


INSTITUTION_INDEX = {sort: _institution_index(sort) for sort in _INSTITUTION_ORDER}

# Where each sitemap chunk starts: the key just before every ``$size``-th entity in key
# order (the first chunk starts at the beginning), and how many entities there are.
_LISTED = {
    "researchers": ("MATCH (x:Researcher) WHERE x.merged_into IS NULL", "x.id"),
    "papers": ("MATCH (x:Paper) WHERE NOT x.key STARTS WITH 's2:'", "x.key"),
    "institutions": ("MATCH (x:Institution)", "x.id"),
}


def _chunks(kind: str) -> Query:
    match, key = _LISTED[kind]
    return Query(
        f"read_site.sitemap_chunks_{kind}",
        f"""
        {match}
        WITH {key} AS key ORDER BY key
        WITH collect(key) AS keys
        RETURN size(keys) AS total,
               CASE WHEN size(keys) > $size
                    THEN [i IN range($size, size(keys) - 1, $size) | keys[i - 1]]
                    ELSE [] END AS afters
        """,
    )


SITEMAP_CHUNKS = {kind: _chunks(kind) for kind in _LISTED}

SITEMAP_RESEARCHERS = Query(
    "read_site.sitemap_researchers",
    """
    MATCH (x:Researcher) WHERE x.id > $after AND x.merged_into IS NULL
    WITH x ORDER BY x.id LIMIT $limit
    RETURN collect({key: x.id, slug: x.slug}) AS rows
    """,
)
SITEMAP_PAPERS = Query(
    "read_site.sitemap_papers",
    """
    MATCH (x:Paper) WHERE x.key > $after AND NOT x.key STARTS WITH 's2:'
    WITH x ORDER BY x.key LIMIT $limit
    RETURN collect({key: x.key, title: x.title,
                    modified: toString(coalesce(x.updated, x.published))}) AS rows
    """,
)
SITEMAP_INSTITUTIONS = Query(
    "read_site.sitemap_institutions",
    """
    MATCH (x:Institution) WHERE x.id > $after
    WITH x ORDER BY x.id LIMIT $limit
    RETURN collect({key: x.id, slug: x.slug}) AS rows
    """,
)

# The entities whose keys sit just below and just above one that names nothing.
NEAREST_RESEARCHERS = Query(
    "read_site.nearest_researchers",
    f"""
    CALL () {{
      MATCH (r:Researcher) WHERE r.id < $id AND r.merged_into IS NULL
      WITH r ORDER BY r.id DESC LIMIT $limit
      RETURN r
      UNION
      MATCH (r:Researcher) WHERE r.id > $id AND r.merged_into IS NULL
      WITH r ORDER BY r.id LIMIT $limit
      RETURN r
    }}
    WITH r ORDER BY abs(r.id - $id), r.id
    RETURN collect(r {RESEARCHER}) AS rows
    """,
)
NEAREST_PAPERS = Query(
    "read_site.nearest_papers",
    """
    CALL () {
      MATCH (p:Paper) WHERE p.key < $key AND NOT p.key STARTS WITH 's2:'
      WITH p ORDER BY p.key DESC LIMIT $limit
      RETURN p
      UNION
      MATCH (p:Paper) WHERE p.key > $key AND NOT p.key STARTS WITH 's2:'
      WITH p ORDER BY p.key LIMIT $limit
      RETURN p
    }
    WITH p ORDER BY p.key
    RETURN collect(p {.key, .title, .published, .year, .primary_category}) AS rows
    """,
)
NEAREST_INSTITUTIONS = Query(
    "read_site.nearest_institutions",
    f"""
    CALL () {{
      MATCH (i:Institution) WHERE i.id < $id
      WITH i ORDER BY i.id DESC LIMIT $limit
      RETURN i
      UNION
      MATCH (i:Institution) WHERE i.id > $id
      WITH i ORDER BY i.id LIMIT $limit
      RETURN i
    }}
    WITH i ORDER BY abs(i.id - $id), i.id
    RETURN collect(i {INSTITUTION}) AS rows
    """,
)
