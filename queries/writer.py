"""The bulk writes of a load: ``UNWIND $rows … MERGE`` batches, one transaction per batch.

List properties grow by a de-duplicating ``reduce`` so re-running a load changes nothing.
Each statement that takes ``$rows`` has its row type beside it (:data:`ROW_TYPES`): the keys
the statement reads, and nothing else.
"""

from __future__ import annotations

from datetime import date
from typing import Any, TypedDict

from scholargraph.queries._query import Query
from scholargraph.queries.curation import SLOT_EDGE_LISTS, joined_lists, widened_years


class InstitutionRow(TypedDict):
    id: int
    slug: str
    name: str
    authoritative: bool
    ror_id: str | None
    openalex_id: str | None
    country_code: str | None
    city: str | None
    status: str | None
    established: int | None
    types: list[str]
    acronyms: list[str]
    aliases: list[str]


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


class ParentLinkRow(TypedDict):
    child: str  # ROR id
    parents: list[str]


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


class ResearcherRow(TypedDict):
    """A researcher's new facts; the list properties grow by these (never shrink)."""

    id: int
    slug: str
    name: str
    name_key: str
    base_key: str | None
    orcid: str | None
    h_index_s2: int | None
    h_index_openalex: int | None
    names: list[str]
    dblp: list[str]
    affiliations: list[str]
    profile_affiliations: list[str]  # a profile's own, kept through feature rebuilds
    coauthors: list[str]
    categories: list[str]
    year_min: int | None
    year_max: int | None


UPSERT_RESEARCHERS = Query(
    "writer.upsert_researchers",
    """
    UNWIND $rows AS row
    MERGE (r:Researcher {id: row.id})
    ON CREATE SET r.slug = row.slug, r.name = row.name, r.name_key = row.name_key,
                  r.base_key = row.base_key,
                  r.paper_count = 0, r.citation_count = 0
    SET r.orcid = CASE WHEN r.orcid IS NULL AND row.orcid IS NOT NULL
                            AND NOT EXISTS { (:Researcher {orcid: row.orcid}) }
                       THEN row.orcid ELSE r.orcid END,
        r.h_index_s2 = CASE WHEN r.h_index_s2 IS NULL OR row.h_index_s2 > r.h_index_s2
                            THEN row.h_index_s2 ELSE r.h_index_s2 END,
        r.h_index_openalex = CASE WHEN r.h_index_openalex IS NULL
                                       OR row.h_index_openalex > r.h_index_openalex
                                  THEN row.h_index_openalex ELSE r.h_index_openalex END,
        r.alt_names = reduce(acc = coalesce(r.alt_names, []), x IN row.names |
                             CASE WHEN x IN acc OR x = r.name THEN acc ELSE acc + x END),
        r.dblp = COLLECT { UNWIND coalesce(r.dblp, []) + row.dblp AS x
                           RETURN DISTINCT x ORDER BY x },
        r.affiliation_names = reduce(acc = coalesce(r.affiliation_names, []),
                                     x IN row.affiliations |
                                     CASE WHEN x IN acc THEN acc ELSE acc + x END)[..20],
        r.profile_affiliations = reduce(acc = coalesce(r.profile_affiliations, []),
                                        x IN row.profile_affiliations |
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


class IdentifierRow(TypedDict):
    key: str  # "<scheme>:<value>"
    scheme: str
    value: str
    researcher: int
    method: str
    source: str


UPSERT_IDENTIFIERS = Query(
    "writer.upsert_identifiers",
    """
    UNWIND $rows AS row
    MATCH (r:Researcher {id: row.researcher})
    USING INDEX SEEK r:Researcher(id)
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


class ProfileRow(TypedDict):
    key: str  # the profile's own id: "<source>:<value>"
    source: str
    names: list[str]
    h_index: int | None
    affiliations: list[str]
    dblp: list[str]
    keys: list[str]  # every id the profile gives, its own among them


# A profile is kept on its own id: whoever holds the id holds what the profile says, so a
# later move of the id (graph.loaders.converge) takes the profile along. Each of its ids
# keeps the ids any profile gave beside it (``profile_keys``, a union whatever the order):
# ids that name one person together, whoever holds each.
SET_IDENTIFIER_PROFILES = Query(
    "writer.set_identifier_profiles",
    """
    UNWIND $rows AS row
    MATCH (i:Identifier {key: row.key})
    SET i.profile_source = row.source,
        i.profile_names = row.names,
        i.profile_h_index = row.h_index,
        i.profile_affiliations = row.affiliations,
        i.profile_dblp = row.dblp
    WITH row
    MATCH (j:Identifier) WHERE j.key IN row.keys
    SET j.profile_keys = COLLECT { UNWIND coalesce(j.profile_keys, []) + row.keys AS k
                                   RETURN DISTINCT k ORDER BY k }
    """,
    "write",
)


class CategoryRow(TypedDict):
    code: str
    primary: bool


class PaperRow(TypedDict):
    """A paper's fields as a batch's records of it leave them (see
    :mod:`graph.identity.precedence`): the properties whose winner changed, every field's
    winning rank, the categories when they changed (else None), the sources and the latest
    retrieval."""

    key: str
    sources: list[str]
    retrieved: date | None
    props: dict[str, Any]
    ranks: list[str]
    categories: list[CategoryRow] | None


# Field by field the best source's value, never the newest record's whole: the winners are
# chosen before the write (graph.identity.precedence), and ``field_ranks`` keeps the rank of
# each, against which the next record's values are weighed. A paper no source has titled
# yet has the title "" until one does.
UPSERT_PAPERS = Query(
    "writer.upsert_papers",
    """
    UNWIND $rows AS row
    MERGE (p:Paper {key: row.key})
    ON CREATE SET p.title = '', p.sources = []
    SET p += row.props,
        p.field_ranks = row.ranks,
        p.retrieved = CASE WHEN p.retrieved IS NULL OR row.retrieved > p.retrieved
                           THEN row.retrieved ELSE p.retrieved END,
        p.sources = COLLECT { UNWIND coalesce(p.sources, []) + row.sources AS x
                              RETURN DISTINCT x ORDER BY x }
    WITH p, row
    CALL (p, row) {
      WITH * WHERE row.categories IS NOT NULL
      MATCH (p)-[old:IN_CATEGORY]->(c:Category)
      WHERE NOT c.code IN [x IN row.categories | x.code]
      DELETE old
    }
    WITH p, row
    UNWIND coalesce(row.categories, []) AS cat
    MATCH (c:Category {code: cat.code})
    MERGE (p)-[ic:IN_CATEGORY]->(c)
    SET ic.primary = cat.primary
    """,
    "write",
)


class AuthorshipRow(TypedDict):
    """One source's mention of one author slot, for the researcher it resolved to.

    The edge keeps the position, kind, raw name and source of the source that owns the
    author order (the lowest ``$order`` rank), the strongest rule that matched it (lowest
    ``rank``) with its confidence, and the union of every source's ids, affiliations and
    ``mention`` (``"<source>:<method>:<raw name>"``, one per source), each list sorted
    (``source_ids`` and ``affiliations`` come sorted and without repeats).
    """

    paper: str
    researcher: int
    position: int
    kind: str
    raw_name: str
    source: str
    method: str
    rank: int
    confidence: float
    source_ids: list[str]
    mention: str
    affiliations: list[str]
    institutions: list[str]  # "<source>:<scheme>:<value>" of the institutions it names
    raw_affiliations: list[str]  # "<source>:<string>" printed without an institution id


# $order: {source: rank} of author-order precedence, lowest first. Each row's claim to the
# order and to the rule is weighed inside the SET, against the edge as the rows before it left
# it: weighed in a WITH before the SET, it is planned before an Eager and sees every row's edge
# as the statement found it (two rows of one edge: one source printing a person twice).
UPSERT_AUTHORSHIPS = Query(
    "writer.upsert_authorships",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.paper}), (r:Researcher {id: row.researcher})
    USING INDEX SEEK p:Paper(key) USING INDEX SEEK r:Researcher(id)
    MERGE (r)-[a:AUTHORED]->(p)
    SET a += CASE WHEN a.source IS NULL OR a.source = row.source
                       OR $order[row.source] < coalesce($order[a.source], size(keys($order)))
                  THEN {position: row.position, kind: row.kind, raw_name: row.raw_name,
                        source: row.source}
                  ELSE {} END,
        a += CASE WHEN a.rank IS NULL OR row.rank <= a.rank
                  THEN {method: row.method, confidence: row.confidence, rank: row.rank}
                  ELSE {} END,
        a.sources = CASE WHEN a.sources IS NULL THEN [row.source]
                         WHEN row.source IN a.sources THEN a.sources
                         ELSE COLLECT { UNWIND a.sources + row.source AS x
                                        RETURN x ORDER BY x } END,
        a.source_ids = CASE WHEN all(x IN row.source_ids WHERE x IN coalesce(a.source_ids, []))
                            THEN coalesce(a.source_ids, [])
                            WHEN a.source_ids IS NULL THEN row.source_ids
                            ELSE COLLECT { UNWIND a.source_ids + row.source_ids AS x
                                           RETURN DISTINCT x ORDER BY x } END,
        a.mentions = CASE WHEN a.mentions IS NULL THEN [row.mention]
                          WHEN row.mention IN a.mentions THEN a.mentions
                          ELSE COLLECT { UNWIND [m IN a.mentions
                                                 WHERE NOT m STARTS WITH row.source + ':']
                                                + row.mention AS x
                                         RETURN x ORDER BY x } END,
        a.affiliations = CASE WHEN all(x IN row.affiliations
                                       WHERE x IN coalesce(a.affiliations, []))
                              THEN coalesce(a.affiliations, [])
                              WHEN a.affiliations IS NULL THEN row.affiliations
                              ELSE COLLECT { UNWIND a.affiliations + row.affiliations AS x
                                             RETURN DISTINCT x ORDER BY x } END,
        a.institutions = CASE WHEN all(x IN row.institutions
                                       WHERE x IN coalesce(a.institutions, []))
                              THEN coalesce(a.institutions, [])
                              ELSE COLLECT { UNWIND coalesce(a.institutions, [])
                                                    + row.institutions AS x
                                             RETURN DISTINCT x ORDER BY x } END,
        a.raw_affiliations = CASE WHEN all(x IN row.raw_affiliations
                                           WHERE x IN coalesce(a.raw_affiliations, []))
                                  THEN coalesce(a.raw_affiliations, [])
                                  ELSE COLLECT { UNWIND coalesce(a.raw_affiliations, [])
                                                        + row.raw_affiliations AS x
                                                 RETURN DISTINCT x ORDER BY x } END,
        a.pinned = coalesce(a.pinned, false)
    """,
    "write",
)

# An edge on a paper no one held before the batch, written by one row (see
# ``BatchPlan.split_authorships``): what ``UPSERT_AUTHORSHIPS`` sets on a new edge, set
# outright (the rows' lists come sorted and without repeats).
CREATE_AUTHORSHIPS = Query(
    "writer.create_authorships",
    """
    UNWIND $rows AS row
    MATCH (p:Paper {key: row.paper}), (r:Researcher {id: row.researcher})
    USING INDEX SEEK p:Paper(key) USING INDEX SEEK r:Researcher(id)
    CREATE (r)-[:AUTHORED {position: row.position, kind: row.kind, raw_name: row.raw_name,
                           source: row.source, method: row.method,
                           confidence: row.confidence, rank: row.rank,
                           sources: [row.source], source_ids: row.source_ids,
                           mentions: [row.mention], affiliations: row.affiliations,
                           institutions: row.institutions,
                           raw_affiliations: row.raw_affiliations, pinned: false}]->(p)
    """,
    "write",
)


class SwapRow(TypedDict):
    """``first`` and ``second`` exchange their edges on ``paper``: each takes the other's
    position, printed name, mentions, ids, affiliations and rule."""

    paper: str
    first: int
    second: int


SWAP_SLOTS = Query(
    "writer.swap_slots",
    """
    UNWIND $rows AS row
    MATCH (:Researcher {id: row.first})-[a:AUTHORED]->(p:Paper {key: row.paper})
    MATCH (:Researcher {id: row.second})-[b:AUTHORED]->(p)
    WHERE NOT coalesce(a.pinned, false) AND NOT coalesce(b.pinned, false)
    WITH a, b, properties(a) AS mine, properties(b) AS theirs
    SET a = theirs, b = mine
    """,
    "write",
)


class FoldRow(TypedDict):
    """A slot held twice: ``researcher``'s edge on ``paper`` folds into ``into``'s, which a
    mention from ``source`` wrote in this batch (that source's older mention is dropped)."""

    paper: str
    researcher: int
    into: int
    source: str


# Weighed inside the SET like UPSERT_AUTHORSHIPS (two folds into one holder on one paper).
FOLD_SLOTS = Query(
    "writer.fold_slots",
    """
    UNWIND $rows AS row
    MATCH (:Researcher {id: row.researcher})-[a:AUTHORED]->(p:Paper {key: row.paper})
    WHERE NOT coalesce(a.pinned, false)
    MATCH (:Researcher {id: row.into})-[b:AUTHORED]->(p)
    WHERE b <> a
    SET b += CASE WHEN a.source <> row.source
                       AND coalesce($order[a.source], size(keys($order)))
                           < coalesce($order[b.source], size(keys($order)))
                  THEN {position: a.position, kind: a.kind, raw_name: a.raw_name,
                        source: a.source}
                  ELSE {} END,
        b += CASE WHEN coalesce(a.rank, 99) < coalesce(b.rank, 99)
                  THEN {method: a.method, confidence: a.confidence, rank: a.rank}
                  ELSE {} END,
        b.mentions = COLLECT { UNWIND coalesce(b.mentions, [])
                                      + [m IN coalesce(a.mentions, [])
                                         WHERE NOT m STARTS WITH row.source + ':'] AS x
                               RETURN DISTINCT x ORDER BY x },
    """
    + joined_lists("b", "a", SLOT_EDGE_LISTS)
    + """
    DELETE a
    """,
    "write",
)


class RetireRow(TypedDict):
    researcher: int
    into: int


RETIRE_EMPTY = Query(
    "writer.retire_empty",
    """
    UNWIND $rows AS row
    MATCH (r:Researcher {id: row.researcher})
    USING INDEX SEEK r:Researcher(id)
    WHERE r.merged_into IS NULL AND NOT (r)-[:AUTHORED]->() AND NOT ()-[:IDENTIFIES]->(r)
    SET r.merged_into = row.into
    """,
    "write",
)


class AffiliationRow(TypedDict):
    """An affiliation a source gave: by institution id (a slot's or a profile's), or by a
    slot's string the matcher linked (``from_strings``, see
    :mod:`graph.institutions.linking`). The edge keeps the highest ``score`` with its
    ``method`` (a tie: the method first in alphabetical order) and the first 20 strings of
    ``raw`` in sorted order (the first 20 of all it was given, whatever their order); what
    each part rests on, to be made again when slots or ids move (see
    ``converge.settle_affiliations``): each string's match as ``matches``
    (``"<score>|<method>|<string>"``) and each profile's years as ``profile_years``
    (``"<id key>|<first year>|<last year>"``)."""

    researcher: int
    institution: int
    source: str
    first_year: int | None
    last_year: int | None
    from_papers: bool  # a slot's institution id
    from_strings: bool  # a slot's string, matched
    profile_keys: list[str]  # the ids of the profile that gave it ([] from papers)
    method: str
    score: float
    raw: list[str]


# The rows of one edge are taken together (a batch gives an edge one row per slot): the
# merge and its SETs run once per edge, and every rule holds whatever the rows' order (taken
# one by one in one statement, each row's test of the stored score ran before any row's SET,
# so the last row won instead of the best).
UPSERT_AFFILIATIONS = Query(
    "writer.upsert_affiliations",
    """
    UNWIND $rows AS row
    WITH row ORDER BY row.score DESC, row.method
    WITH row.researcher AS researcher, row.institution AS institution, row.source AS source,
         collect(row) AS rows, min(row.first_year) AS first_year,
         max(row.last_year) AS last_year
    MATCH (r:Researcher {id: researcher}), (i:Institution {id: institution})
    USING INDEX SEEK r:Researcher(id)
    MERGE (r)-[a:AFFILIATED {source: source}]->(i)
    WITH a, first_year, last_year, rows[0] AS best,
         any(one IN rows WHERE one.from_papers) AS from_papers,
         [one IN rows WHERE NOT (one.from_papers OR one.from_strings)] AS profiles,
         [one IN rows WHERE one.from_strings] AS strings,
         COLLECT { UNWIND rows AS one UNWIND one.raw AS x RETURN x } AS raw
    SET """
    + widened_years("a", "first_year", "last_year")
    + """,
        a.profile_years = COLLECT {
                            UNWIND coalesce(a.profile_years, [])
                                   + COLLECT { UNWIND profiles AS one
                                               UNWIND one.profile_keys AS k
                                               RETURN k + '|'
                                                      + coalesce(toString(one.first_year), '')
                                                      + '|'
                                                      + coalesce(toString(one.last_year), '')
                                             } AS x
                            RETURN DISTINCT x ORDER BY x },
        a.matches = COLLECT { UNWIND coalesce(a.matches, [])
                                     + COLLECT { UNWIND strings AS one UNWIND one.raw AS x
                                                 RETURN toString(one.score) + '|'
                                                        + one.method + '|' + x } AS m
                              RETURN DISTINCT m ORDER BY m },
        a.from_papers = coalesce(a.from_papers, false) OR from_papers,
        a.from_profile = coalesce(a.from_profile, false) OR size(profiles) > 0,
        a.from_strings = coalesce(a.from_strings, false) OR size(strings) > 0,
        a.profile_keys = COLLECT { UNWIND coalesce(a.profile_keys, [])
                                          + COLLECT { UNWIND profiles AS one
                                                      UNWIND one.profile_keys AS k
                                                      RETURN k } AS x
                                   RETURN DISTINCT x ORDER BY x }
    WITH a, best, raw, a.score IS NULL OR best.score > a.score
                       OR (best.score = a.score AND best.method < a.method) AS better
    SET a.method = CASE WHEN better THEN best.method ELSE a.method END,
        a.score = CASE WHEN better THEN best.score ELSE a.score END,
        a.raw = COLLECT { UNWIND coalesce(a.raw, []) + raw AS x
                          RETURN DISTINCT x ORDER BY x LIMIT 20 }
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
    USING INDEX SEEK r:Researcher(id)
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
# Features a researcher is matched by, made again from their stored authorships (after a
# merge, a split or a folded slot): affiliations (each slot's, then the profile's), the
# coauthors of papers with at most the coauthor cap of authors, categories, first and last
# year. Each list keeps its most frequent entries, ties by value. The lists are made in the
# WITH, where each is planned from its researcher on: made in the SET, each was planned on
# its own, and on a store emptied just before, once from a scan (68 s of a 7 s load). For the
# same reason the coauthors carry no label and no predicate an index could answer: with
# `o:Researcher` and `o.name_key IS NOT NULL`, such a store's plan could start from every
# researcher with a name key (14 s of a 15 s load).
REBUILD_FEATURES = Query(
    "writer.rebuild_features",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})
    USING INDEX SEEK r:Researcher(id)
    CALL (r) {
      OPTIONAL MATCH (r)-[:AUTHORED]->(p:Paper)
      RETURN min(p.year) AS year_min, max(p.year) AS year_max
    }
    WITH r, year_min, year_max,
         COLLECT { MATCH (r)-[a:AUTHORED]->(:Paper)
                   UNWIND coalesce(a.affiliations, []) AS x
                   WITH x, count(*) AS n ORDER BY n DESC, x LIMIT 20
                   RETURN x } AS affiliations,
         COLLECT { MATCH (r)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(o)
                   WHERE o <> r AND NOT coalesce(p.hyperauthored, false)
                   WITH o.name_key AS x, count(*) AS n
                   WHERE x IS NOT NULL
                   WITH x, n ORDER BY n DESC, x LIMIT 100
                   RETURN x } AS coauthor_keys,
         COLLECT { MATCH (r)-[:AUTHORED]->(:Paper)-[:IN_CATEGORY]->(c:Category)
                   WITH c.code AS x, count(*) AS n ORDER BY n DESC, x LIMIT 20
                   RETURN x } AS category_codes
    SET r.year_min = year_min,
        r.year_max = year_max,
        r.affiliation_names = reduce(acc = affiliations,
                                     x IN coalesce(r.profile_affiliations, []) |
                                     CASE WHEN x IN acc THEN acc ELSE acc + x END)[..20],
        r.coauthor_keys = coauthor_keys,
        r.category_codes = category_codes
    """,
    "write",
)
# [a, b, joint papers, first year, last year], a < b: lists, not maps, for the largest
# parameter of a batch.
CoauthorRow = tuple[int, int, int, int | None, int | None]
# Pairs where one side is a researcher created in this very transaction cannot have a
# COAUTHOR edge yet: they are created outright, which spares the MERGE's scan of both
# researchers' existing ties.
CREATE_COAUTHORS = Query(
    "writer.create_coauthors",
    """
    UNWIND $rows AS row
    MATCH (a:Researcher {id: row[0]}), (b:Researcher {id: row[1]})
    USING INDEX SEEK a:Researcher(id) USING INDEX SEEK b:Researcher(id)
    CREATE (a)-[:COAUTHOR {joint_papers: row[2], first_year: row[3], last_year: row[4]}]->(b)
    """,
    "write",
)
INCREMENT_COAUTHORS = Query(
    "writer.increment_coauthors",
    """
    UNWIND $rows AS row
    MATCH (a:Researcher {id: row[0]}), (b:Researcher {id: row[1]})
    USING INDEX SEEK a:Researcher(id) USING INDEX SEEK b:Researcher(id)
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

# The type of the rows each statement unwinds as ``row``.
ROW_TYPES: dict[Query, Any] = {
    UPSERT_INSTITUTIONS: InstitutionRow,
    LINK_INSTITUTION_PARENTS: ParentLinkRow,
    UPSERT_RESEARCHERS: ResearcherRow,
    UPSERT_IDENTIFIERS: IdentifierRow,
    SET_IDENTIFIER_PROFILES: ProfileRow,
    UPSERT_PAPERS: PaperRow,
    UPSERT_AUTHORSHIPS: AuthorshipRow,
    CREATE_AUTHORSHIPS: AuthorshipRow,
    SWAP_SLOTS: SwapRow,
    FOLD_SLOTS: FoldRow,
    RETIRE_EMPTY: RetireRow,
    UPSERT_AFFILIATIONS: AffiliationRow,
    CREATE_COAUTHORS: CoauthorRow,
    INCREMENT_COAUTHORS: CoauthorRow,
}
