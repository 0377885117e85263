"""Paper lists with filters and keyset pagination, and the authors of papers.

A list starts from the most selective thing its filter names (a researcher, an institution, a
category, or else every paper) and applies the rest of the filter as predicates. Each query
takes a list of filters (``$filters``), so the paper lists of many researchers in one request
are one statement. A filter row holds ``index``, ``researcher``, ``institution``, ``category``,
``year_from``, ``year_to`` and the keyset cursor ``after_sort``/``after_key``; ``$sort`` is
``newest`` or ``cited`` and ``$limit`` the page size plus one.

A paper is "at" an institution when one of its authors is affiliated with the institution, or
with a part of it, in the paper's year (any year when the affiliation's years are unknown).
"""

from scholargraph.queries._projections import (
    AUTHORSHIP,
    BRIEF_RESEARCHER,
    PAPER,
    PAPER_SORT_VALUE,
    RESEARCHER,
)
from scholargraph.queries._query import Query

_AT_INSTITUTION = (
    "(p.year IS NULL OR ((af.first_year IS NULL OR af.first_year <= p.year) "
    "AND (af.last_year IS NULL OR af.last_year >= p.year)))"
)
_STARTS = {
    "all": "MATCH (p:Paper) WITH p, null AS a",
    "researcher": "MATCH (:Researcher {id: f.researcher})-[a:AUTHORED]->(p:Paper)",
    "category": "MATCH (:Category {code: f.category})<-[:IN_CATEGORY]-(p:Paper) WITH p, null AS a",
    "institution": "MATCH (:Institution {id: f.institution})<-[:PART_OF*0..3]-(:Institution)"
    "<-[af:AFFILIATED]-(:Researcher)-[:AUTHORED]->(p:Paper) "
    f"WHERE {_AT_INSTITUTION} WITH p, null AS a",
}
_FILTERS = f"""
      (f.category IS NULL OR EXISTS {{ (p)-[:IN_CATEGORY]->(:Category {{code: f.category}}) }})
      AND (f.researcher IS NULL OR EXISTS {{ (:Researcher {{id: f.researcher}})-[:AUTHORED]->(p) }})
      AND (f.year_from IS NULL OR p.year >= f.year_from)
      AND (f.year_to IS NULL OR p.year <= f.year_to)
      AND (f.institution IS NULL OR EXISTS {{
        MATCH (p)<-[:AUTHORED]-(:Researcher)-[af:AFFILIATED]->(:Institution)
              -[:PART_OF*0..3]->(:Institution {{id: f.institution}})
        WHERE {_AT_INSTITUTION} }})
"""


def _page(start: str) -> Query:
    return Query(
        f"read_papers.page_by_{start}",
        f"""
        UNWIND $filters AS f
        CALL (f) {{
          {_STARTS[start]}
          WITH DISTINCT p, a
          WHERE {_FILTERS}
          WITH p, a, {PAPER_SORT_VALUE} AS sort
          WHERE f.after_sort IS NULL OR sort < f.after_sort
                OR (sort = f.after_sort AND p.key < f.after_key)
          WITH p, a, sort ORDER BY sort DESC, p.key DESC LIMIT $limit
          RETURN collect({{paper: p {PAPER}, sort: sort,
                          authorship: CASE WHEN a IS NULL THEN null ELSE a {AUTHORSHIP} END}})
                 AS rows
        }}
        RETURN f.index AS index, rows
        """,
    )


def _count(start: str) -> Query:
    return Query(
        f"read_papers.count_by_{start}",
        f"""
        UNWIND $filters AS f
        CALL (f) {{
          {_STARTS[start]}
          WITH DISTINCT p
          WHERE {_FILTERS}
          RETURN count(p) AS total
        }}
        RETURN f.index AS index, total
        """,
    )


PAGES = {start: _page(start) for start in _STARTS}
COUNTS = {start: _count(start) for start in _STARTS}


def _author_pages(name: str, *, backward: bool, researcher: str) -> Query:
    """A page of each paper's matched authors in author order: after ``$after`` forward, or
    (backward) just before ``$before`` (none: the last ones), nearest first, which the caller
    puts back in author order. ``researcher`` is the projection of each author."""
    bound, order = ("$before IS NULL OR a.position < $before", "a.position DESC, r.id DESC")
    if not backward:
        bound, order = ("$after IS NULL OR a.position > $after", "a.position, r.id")
    return Query(
        name,
        f"""
    UNWIND $keys AS key
    MATCH (p:Paper {{key: key}})
    CALL (p) {{
      MATCH (p)<-[a:AUTHORED]-(r:Researcher)
      WHERE {bound}
      WITH a, r ORDER BY {order} LIMIT $limit
      RETURN collect({{authorship: a {AUTHORSHIP}, researcher: r {researcher}}}) AS rows
    }}
    RETURN key, rows, COUNT {{ (p)<-[:AUTHORED]-(:Researcher) }} AS total
    """,
    )


AUTHOR_PAGES = _author_pages("read_papers.author_pages", backward=False, researcher=RESEARCHER)
AUTHOR_PAGES_BACKWARD = _author_pages(
    "read_papers.author_pages_backward", backward=True, researcher=RESEARCHER
)
# The same pages when only the authors' ids, names and slugs are asked for: a page of 24
# papers' authors is then a third lighter for the server and the driver.
BRIEF_AUTHOR_PAGES = _author_pages(
    "read_papers.brief_author_pages", backward=False, researcher=BRIEF_RESEARCHER
)
BRIEF_AUTHOR_PAGES_BACKWARD = _author_pages(
    "read_papers.brief_author_pages_backward", backward=True, researcher=BRIEF_RESEARCHER
)
