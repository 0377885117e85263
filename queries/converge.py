"""Reads of the convergence pass (:mod:`graph.identity.converge`): the stored author slots
of name blocks, with each slot's own evidence."""

from typing import TypedDict

from scholargraph.queries._query import Query
from scholargraph.queries.curation import JOIN_AFFILIATION, widened_years


class BlockSlotRow(TypedDict):
    block: str
    researcher: int
    paper: str
    position: int
    raw_name: str
    source_ids: list[str]
    pinned: bool
    method: str
    holder_has_ids: bool
    holder_keys: list[str]
    holder_distinct: bool
    affiliations: list[str]
    coauthors: list[str]
    categories: list[str]
    year: int | None


class BlockUnitRow(TypedDict):
    block: str
    researcher: int
    paper: str
    position: int
    raw_name: str
    source_ids: list[str]
    pinned: bool
    method: str
    holder_has_ids: bool
    holder_keys: list[str]
    holder_distinct: bool


# Every slot of the blocks' live researchers, with only what says who holds it by ids: the
# pass decides from these which blocks hold anything to decide.
BLOCK_UNITS = Query(
    "converge.block_units",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
    WITH DISTINCT block, r
    WITH block, r, [(i:Identifier)-[:IDENTIFIES]->(r) | i.key] AS keys,
         EXISTS { (r)-[:DISTINCT_FROM]-() } AS distinct
    MATCH (r)-[a:AUTHORED]->(p:Paper)
    RETURN collect({block: block, researcher: r.id, paper: p.key, position: a.position,
                    raw_name: a.raw_name, source_ids: coalesce(a.source_ids, []),
                    pinned: coalesce(a.pinned, false), method: a.method,
                    holder_has_ids: r.orcid IS NOT NULL OR size(keys) > 0 OR distinct,
                    holder_keys: keys, holder_distinct: distinct}) AS rows
    """,
)


class ProfileSaid(TypedDict):
    key: str
    names: list[str]
    affiliations: list[str]


class BlockNamesRow(TypedDict):
    block: str
    names: list[str]


# The names printed on the slots of the blocks' live researchers, block by block (a block with
# a slot and no printed name has an empty list): what joins blocks into the groups the pass
# decides, read without the slots (:func:`graph.identity.converge.joined_groups`).
BLOCK_PRINTED_NAMES = Query(
    "converge.block_printed_names",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
    WITH DISTINCT block, r
    MATCH (r)-[a:AUTHORED]->(:Paper)
    WITH block, collect(DISTINCT a.raw_name) AS names
    RETURN collect({block: block, names: names}) AS rows
    """,
)


class BlockProfileRow(TypedDict):
    block: str
    researcher: int
    name: str
    keys: list[str]
    profiles: list[ProfileSaid]  # what the profiles of ``keys`` say
    holder_keys: list[str]
    holder_distinct: bool


# The blocks' live researchers holding ids that none of their slots carries (a profile's,
# a claim's, what a move left): a row for each such id, with the ids a profile gave beside
# it (``profile_keys``), and what those ids' profiles say: the names and affiliations. The pass
# weighs each as one more anchored mention (see ``graph.identity.converge.profile_rows``).
BLOCK_PROFILES = Query(
    "converge.block_profiles",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
    WITH DISTINCT block, r
    WITH block, r, COLLECT { MATCH (i:Identifier)-[:IDENTIFIES]->(r) RETURN i ORDER BY i.key }
         AS ids,
         reduce(on = [], a IN [(r)-[a:AUTHORED]->(:Paper) | a] | on + coalesce(a.source_ids, []))
         AS on_slots
    WITH block, r, ids, [i IN ids WHERE NOT i.key IN on_slots] AS off
    WHERE size(off) > 0
    UNWIND off AS o
    WITH block, r, ids, o,
         COLLECT { UNWIND coalesce(o.profile_keys, []) + [o.key] AS k
                   RETURN DISTINCT k ORDER BY k } AS keys
    WITH block, r, ids, o, keys,
         COLLECT { MATCH (p:Identifier) WHERE p.key IN keys RETURN p ORDER BY p.key } AS given
    ORDER BY r.id, o.key
    RETURN collect({block: block, researcher: r.id, name: r.name, keys: keys,
                    profiles: [p IN given | {key: p.key,
                                            names: coalesce(p.profile_names, []),
                                            affiliations: coalesce(p.profile_affiliations, [])}],
                    holder_keys: [i IN ids | i.key],
                    holder_distinct: EXISTS { (r)-[:DISTINCT_FROM]-() }}) AS rows
    """,
)
# The blocks of live researchers whose names reduce to the given blocks (``base_key``): a
# pass deciding ``g rossi`` reads ``g dirossi`` too.
BLOCKS_REDUCING_TO = Query(
    "converge.blocks_reducing_to",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {base_key: block})
    USING INDEX SEEK r:Researcher(base_key)
    WHERE r.merged_into IS NULL
    RETURN collect(DISTINCT r.name_key) AS blocks
    """,
)
# The blocks live researchers are filed under now, by id: a load's holders of the slots it
# wrote, some filed under another block than the names printed on those slots.
RESEARCHER_BLOCKS = Query(
    "converge.researcher_blocks",
    """
    UNWIND $ids AS rid
    MATCH (r:Researcher {id: rid})
    USING INDEX SEEK r:Researcher(id)
    WHERE r.merged_into IS NULL AND r.name_key IS NOT NULL
    RETURN collect(DISTINCT r.name_key) AS blocks
    """,
)
# The name keys of every live researcher with a slot.
ALL_BLOCKS = Query(
    "converge.all_blocks",
    """
    MATCH (r:Researcher)
    WHERE r.merged_into IS NULL AND r.name_key IS NOT NULL AND (r)-[:AUTHORED]->()
    RETURN collect(DISTINCT {block: r.name_key}) AS rows
    """,
)
# Every slot of the blocks' live researchers. A hyperauthored paper's coauthors say nothing
# about a person and are left out. A paper's authors are read in a subquery from the paper,
# the slot's own position dropped after: with `b.position <> a.position` in the pattern, the
# planner, on a store emptied just before, could scan every AUTHORED edge by its position
# index for each slot (8-11 s of a 15 s load).
BLOCK_SLOTS = Query(
    "converge.block_slots",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
    WITH DISTINCT block, r
    WITH block, r, [(i:Identifier)-[:IDENTIFIES]->(r) | i.key] AS keys,
         EXISTS { (r)-[:DISTINCT_FROM]-() } AS distinct
    MATCH (r)-[a:AUTHORED]->(p:Paper)
    CALL (p) {
      WITH p WHERE NOT coalesce(p.hyperauthored, false)
      MATCH (p)<-[b:AUTHORED]-()
      RETURN collect([b.position, b.raw_name]) AS authors
    }
    RETURN collect({block: block, researcher: r.id, paper: p.key, position: a.position,
                    raw_name: a.raw_name, source_ids: coalesce(a.source_ids, []),
                    pinned: coalesce(a.pinned, false), method: a.method,
                    holder_has_ids: r.orcid IS NOT NULL OR size(keys) > 0 OR distinct,
                    holder_keys: keys, holder_distinct: distinct,
                    affiliations: coalesce(a.affiliations, []),
                    coauthors: [x IN authors WHERE x[0] <> a.position | x[1]],
                    categories: [(p)-[:IN_CATEGORY]->(c:Category) | c.code],
                    year: p.year}) AS rows
    """,
)


# Identifiers that go along with a unit's slots to another researcher; both researchers'
# id lists are made again from the identifiers they hold.
class KeysRow(TypedDict):
    """The ids ``keys`` (Identifier keys) go from ``source`` to ``target``."""

    source: int
    target: int
    keys: list[str]


MOVE_IDENTIFIER_KEYS = Query(
    "converge.move_identifier_keys",
    """
    UNWIND $rows AS row
    MATCH (source:Researcher {id: row.source}), (target:Researcher {id: row.target})
    USING INDEX SEEK source:Researcher(id)
    USING INDEX SEEK target:Researcher(id)
    CALL (source, target, row) {
      MATCH (i:Identifier)-[x:IDENTIFIES]->(source)
      WHERE i.key IN row.keys
      CREATE (i)-[y:IDENTIFIES]->(target)
      SET y = properties(x)
      DELETE x
    }
    WITH source, target, [k IN row.keys WHERE k STARTS WITH 'orcid:' | substring(k, 6)] AS orcids
    UNWIND [source, target] AS r
    WITH r, target, orcids,
         COLLECT { MATCH (i:Identifier)-[:IDENTIFIES]->(r) RETURN i ORDER BY i.key } AS ids
    SET r.s2_ids = [i IN ids WHERE i.scheme = 's2' | i.value],
        r.openalex_ids = [i IN ids WHERE i.scheme = 'openalex' | i.value],
        r.orcid = CASE WHEN r = target THEN coalesce(r.orcid, head(orcids))
                       WHEN r.orcid IN orcids THEN null ELSE r.orcid END
    """,
    "write",
)


class SlotAffiliationsRow(TypedDict):
    """The ``source``'s slots on ``papers`` go to ``target`` (a move, or a write's fold)."""

    source: int
    target: int
    papers: list[str]


# The affiliations moved slots give go with them, by the institution ids each source gave
# on the slot (``<source>:<scheme>:<value>``), over the years of those papers: run before
# the slots move (a curator's or the pass's move, or a write folding one edge into another).
MOVE_SLOT_AFFILIATIONS = Query(
    "converge.move_slot_affiliations",
    """
    UNWIND $rows AS row
    MATCH (source:Researcher {id: row.source})-[a:AUTHORED]->(p:Paper)
    USING INDEX SEEK source:Researcher(id)
    WHERE p.key IN row.papers
    UNWIND coalesce(a.institutions, []) AS entry
    WITH row, split(entry, ':') AS parts, p.year AS year
    CALL (parts) {
      MATCH (i:Institution {ror_id: parts[2]}) WHERE parts[1] = 'ror' RETURN i
      UNION
      MATCH (i:Institution {openalex_id: parts[2]}) WHERE parts[1] = 'openalex' RETURN i
    }
    WITH row.target AS into, parts[0] AS origin, i, min(year) AS first_year,
         max(year) AS last_year
    MATCH (target:Researcher {id: into})
    USING INDEX SEEK target:Researcher(id)
    MERGE (target)-[b:AFFILIATED {source: origin}]->(i)
    SET """
    + widened_years("b", "first_year", "last_year")
    + """,
        b.from_papers = true,
        b.from_strings = coalesce(b.from_strings, false),
        b.raw = coalesce(b.raw, []),
        b.method = 'id',
        b.score = 1.0
    """,
    "write",
)
# The first and last years (``entries_first``, ``entries_last``) of the profile entries
# ``"<id key>|<first year>|<last year>"`` of the list ``entries`` (a year a profile leaves
# out is empty).
_ENTRY_YEARS = """
         reduce(m = null, x IN entries |
                CASE WHEN split(x, '|')[1] = '' THEN m
                     WHEN m IS NULL OR toInteger(split(x, '|')[1]) < m
                     THEN toInteger(split(x, '|')[1]) ELSE m END) AS entries_first,
         reduce(m = null, x IN entries |
                CASE WHEN split(x, '|')[2] = '' THEN m
                     WHEN m IS NULL OR toInteger(split(x, '|')[2]) > m
                     THEN toInteger(split(x, '|')[2]) ELSE m END) AS entries_last
"""
# The affiliations the profiles of moving ids gave go with the ids; what only they gave the
# source goes from it.
MOVE_PROFILE_AFFILIATIONS = Query(
    "converge.move_profile_affiliations",
    """
    UNWIND $rows AS row
    MATCH (source:Researcher {id: row.source})-[a:AFFILIATED]->(i:Institution)
    USING INDEX SEEK source:Researcher(id)
    WHERE any(k IN coalesce(a.profile_keys, []) WHERE k IN row.keys)
    MATCH (target:Researcher {id: row.target})
    USING INDEX SEEK target:Researcher(id)
    MERGE (target)-[b:AFFILIATED {source: a.source}]->(i)
    WITH a, b, row,
         [x IN coalesce(a.profile_years, []) WHERE split(x, '|')[0] IN row.keys] AS entries
    WITH a, b, row, entries, """
    + _ENTRY_YEARS
    + """
    SET """
    + widened_years("b", "entries_first", "entries_last")
    + """,
        b.profile_years = COLLECT { UNWIND coalesce(b.profile_years, []) + entries AS x
                                    RETURN DISTINCT x ORDER BY x },
        b.from_papers = coalesce(b.from_papers, false),
        b.from_profile = true,
        b.from_strings = coalesce(b.from_strings, false),
        b.raw = coalesce(b.raw, []),
        b.method = 'id',
        b.score = 1.0,
        b.profile_keys = COLLECT { UNWIND coalesce(b.profile_keys, [])
                                          + [k IN a.profile_keys WHERE k IN row.keys] AS x
                                   RETURN DISTINCT x ORDER BY x }
    WITH a, row
    SET a.profile_keys = [k IN a.profile_keys WHERE NOT k IN row.keys],
        a.profile_years = [x IN coalesce(a.profile_years, [])
                           WHERE NOT split(x, '|')[0] IN row.keys]
    WITH a
    WHERE size(a.profile_keys) = 0
    SET a.from_profile = false
    WITH a
    WHERE NOT coalesce(a.from_papers, false) AND NOT coalesce(a.from_strings, false)
    DELETE a
    """,
    "write",
)
# What each of the researchers' affiliations rests on now, made again from it: their
# slots' institution ids (``from_papers``), the strings of their slots the matcher linked
# (``from_strings``: the strings of ``raw`` some slot still prints) and the profiles of the
# ids they still hold (``from_profile``, with the profiles' own years; an edge written before
# profiles were keyed keeps its word); the years are those of what remains, and an
# affiliation nothing rests on any more goes. Whatever order the
# slots and ids arrived and moved in, the same slots and ids give the same edges.
SETTLE_AFFILIATIONS = Query(
    "converge.settle_affiliations",
    """
    UNWIND $ids AS id
    MATCH (r:Researcher {id: id})-[a:AFFILIATED]->(i:Institution)
    USING INDEX SEEK r:Researcher(id)
    CALL (r, a, i) {
      OPTIONAL MATCH (r)-[s:AUTHORED]->(p:Paper)
      WHERE any(x IN coalesce(s.institutions, [])
                WHERE x = a.source + ':ror:' + i.ror_id
                   OR x = a.source + ':openalex:' + i.openalex_id)
      RETURN count(p) AS papers, min(p.year) AS paper_first, max(p.year) AS paper_last
    }
    CALL (r, a) {
      OPTIONAL MATCH (r)-[s:AUTHORED]->(p:Paper)
      WHERE any(x IN coalesce(a.raw, [])
                WHERE a.source + ':' + x IN coalesce(s.raw_affiliations, []))
      RETURN min(p.year) AS string_first, max(p.year) AS string_last,
             reduce(all = [], x IN collect(s.raw_affiliations) | all + x) AS printed
    }
    WITH a, papers > 0 AS by_papers, paper_first, paper_last, string_first, string_last,
         [x IN coalesce(a.raw, []) WHERE a.source + ':' + x IN printed] AS kept,
         [m IN coalesce(a.matches, [])
          WHERE a.source + ':' + substring(m, size(split(m, '|')[0] + split(m, '|')[1]) + 2)
                IN printed] AS matched,
         [k IN coalesce(a.profile_keys, [])
          WHERE k IN [(x:Identifier)-[:IDENTIFIES]->(r) | x.key]] AS profiles,
         a.profile_keys IS NULL AND coalesce(a.from_profile, false) AS unkeyed
    WITH a, by_papers, kept, matched, paper_first, paper_last, string_first, string_last,
         profiles, unkeyed, unkeyed OR size(profiles) > 0 AS by_profile,
         [x IN coalesce(a.profile_years, [])
          WHERE unkeyed OR split(x, '|')[0] IN profiles] AS entries
    WITH a, by_papers, kept, matched, size(kept) > 0 AS by_strings, by_profile, profiles,
         unkeyed, paper_first, paper_last, string_first, string_last, entries, """
    + _ENTRY_YEARS
    + """
    WITH a, by_papers, kept, matched, by_strings, by_profile, profiles, unkeyed, entries,
         [y IN [CASE WHEN by_papers THEN paper_first END, string_first,
                CASE WHEN by_profile THEN entries_first END] WHERE y IS NOT NULL] AS firsts,
         [y IN [CASE WHEN by_papers THEN paper_last END, string_last,
                CASE WHEN by_profile THEN entries_last END] WHERE y IS NOT NULL] AS lasts,
         reduce(best = null, m IN matched |
                CASE WHEN best IS NULL OR toFloat(split(m, '|')[0]) > toFloat(split(best, '|')[0])
                          OR (toFloat(split(m, '|')[0]) = toFloat(split(best, '|')[0])
                              AND split(m, '|')[1] < split(best, '|')[1])
                     THEN m ELSE best END) AS best
    CALL (a, by_papers, by_strings, by_profile) {
      WITH * WHERE NOT (by_papers OR by_strings OR by_profile)
      DELETE a
    }
    CALL (a, by_papers, by_strings, by_profile, kept, matched, best, firsts, lasts, profiles,
          unkeyed, entries) {
      WITH * WHERE by_papers OR by_strings OR by_profile
      SET a.from_papers = by_papers,
          a.from_strings = by_strings,
          a.from_profile = by_profile,
          a.profile_keys = CASE WHEN unkeyed THEN null ELSE profiles END,
          a.profile_years = CASE WHEN unkeyed THEN a.profile_years ELSE entries END,
          a.raw = kept,
          a.matches = matched,
          a.first_year = CASE WHEN size(firsts) = 0 THEN a.first_year
                              ELSE reduce(m = firsts[0], y IN firsts |
                                          CASE WHEN y < m THEN y ELSE m END) END,
          a.last_year = CASE WHEN size(lasts) = 0 THEN a.last_year
                             ELSE reduce(m = lasts[0], y IN lasts |
                                         CASE WHEN y > m THEN y ELSE m END) END,
          a.method = CASE WHEN by_papers OR by_profile THEN 'id'
                          WHEN best IS NOT NULL THEN split(best, '|')[1] ELSE a.method END,
          a.score = CASE WHEN by_papers OR by_profile THEN 1.0
                         WHEN best IS NOT NULL THEN toFloat(split(best, '|')[0])
                         ELSE a.score END
    }
    """,
    "write",
)
# The researchers' affiliations a profile gave, whose ids another researcher holds now (an
# id moved by a path that left its profile's affiliations behind): [source, holder, keys].
STRAY_PROFILE_AFFILIATIONS = Query(
    "converge.stray_profile_affiliations",
    """
    UNWIND $ids AS id
    MATCH (s:Researcher {id: id})-[a:AFFILIATED]->(:Institution)
    USING INDEX SEEK s:Researcher(id)
    UNWIND coalesce(a.profile_keys, []) AS key
    MATCH (i:Identifier {key: key})-[:IDENTIFIES]->(r:Researcher)
    USING INDEX SEEK i:Identifier(key)
    WHERE r <> s
    WITH s, r, collect(DISTINCT key) AS keys
    ORDER BY s.id, r.id
    RETURN collect({source: s.id, target: r.id, keys: keys}) AS rows
    """,
)


class MovingAllRow(SlotAffiliationsRow):
    """Every slot ``source`` holds (``papers``) goes to ``target`` with the ids ``keys``."""

    keys: list[str]


# A unit that was all the source held takes every affiliation along (a profile's too). An
# edge a profile whose ids stay with the source gave is copied, not moved: the source keeps
# it by that profile, the target by whatever else it rests on (settling keeps on each only
# what still gives it).
MOVE_ALL_AFFILIATIONS = Query(
    "converge.move_all_affiliations",
    """
    UNWIND $rows AS row
    MATCH (source:Researcher {id: row.source})
    USING INDEX SEEK source:Researcher(id)
    WHERE all(k IN [(source)-[:AUTHORED]->(p:Paper) | p.key] WHERE k IN row.papers)
    MATCH (source)-[a:AFFILIATED]->(i:Institution)
    MATCH (target:Researcher {id: row.target})
    USING INDEX SEEK target:Researcher(id)
    WITH a, i, target, any(k IN coalesce(a.profile_keys, []) WHERE NOT k IN row.keys) AS stays
    MERGE (target)-[b:AFFILIATED {source: a.source}]->(i)
    """
    + JOIN_AFFILIATION
    + """
    WITH a, stays
    WHERE NOT stays
    DELETE a
    """,
    "write",
)


class ResearcherNamesRow(TypedDict):
    id: int
    name: str
    raw_names: list[str]
    mentions: list[str]
    profile_names: list[str]


# The live researchers of the blocks, with every form of their name their slots print
# (each source's, in its mentions) and the profiles of the ids they hold give.
BLOCK_RESEARCHER_NAMES = Query(
    "converge.block_researcher_names",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
    WITH DISTINCT r
    WITH r, [(r)-[a:AUTHORED]->(:Paper) | a] AS slots
    RETURN collect({id: r.id, name: r.name,
                    raw_names: [a IN slots WHERE a.raw_name IS NOT NULL | a.raw_name],
                    mentions: reduce(all = [], a IN slots | all + coalesce(a.mentions, [])),
                    profile_names: reduce(all = [], names IN
                                          [(i:Identifier)-[:IDENTIFIES]->(r) |
                                           coalesce(i.profile_names, [])] | all + names)})
           AS rows
    """,
)


class SettleRow(TypedDict):
    id: int
    name: str
    name_key: str  # the block of the name shown
    base_key: str | None  # names.base_block_key of that name
    alt_names: list[str]


# What a researcher's loads, in whatever order, add up to: the name shown and the others
# kept (chosen in :func:`graph.identity.name_forms.settled_names`) and the name's block (the
# ids of the researchers whose block changed are returned: their coauthors' features name
# it); what the profiles of
# the ids they hold say (the highest h-index a source's profiles give, their
# affiliations); their DBLP ids sorted; the id lists made from the identifiers they hold,
# and the ORCID iD shown from the ORCID identifier they hold (a path that moved the identifier
# may have left the iD shown behind), unless another researcher shows it.
SETTLE_RESEARCHERS = Query(
    "converge.settle_researchers",
    """
    UNWIND $rows AS row
    MATCH (r:Researcher {id: row.id})
    USING INDEX SEEK r:Researcher(id)
    WITH r, row,
         COLLECT { MATCH (i:Identifier)-[:IDENTIFIES]->(r) RETURN i ORDER BY i.key } AS ids
    WITH r, row, ids, [i IN ids WHERE i.profile_source IS NOT NULL] AS profiles,
         r.name_key <> row.name_key AS rekeyed,
         head([i IN ids WHERE i.scheme = 'orcid' | i.value]) AS held_orcid
    SET r.name = row.name,
        r.name_key = row.name_key,
        r.base_key = row.base_key,
        r.alt_names = row.alt_names,
        r.alt_names_text = reduce(t = '', x IN row.alt_names | t + ' ' + x),
        r.h_index_s2 = reduce(h = null, i IN profiles |
                              CASE WHEN i.profile_source = 's2'
                                        AND (h IS NULL OR i.profile_h_index > h)
                                   THEN i.profile_h_index ELSE h END),
        r.h_index_openalex = reduce(h = null, i IN profiles |
                                    CASE WHEN i.profile_source = 'openalex'
                                              AND (h IS NULL OR i.profile_h_index > h)
                                         THEN i.profile_h_index ELSE h END),
        r.profile_affiliations = COLLECT {
          UNWIND profiles AS i UNWIND i.profile_affiliations AS x
          RETURN DISTINCT x ORDER BY x LIMIT 20 },
        r.dblp = COLLECT {
          UNWIND coalesce(r.dblp, []) + reduce(all = [], i IN profiles | all + i.profile_dblp)
            AS x
          RETURN DISTINCT x ORDER BY x },
        r.s2_ids = [i IN ids WHERE i.scheme = 's2' | i.value],
        r.openalex_ids = [i IN ids WHERE i.scheme = 'openalex' | i.value],
        r.orcid = CASE WHEN held_orcid IS NULL
                            OR EXISTS { MATCH (o:Researcher {orcid: held_orcid}) WHERE o <> r }
                       THEN r.orcid ELSE held_orcid END
    WITH r WHERE rekeyed
    RETURN r.id AS id
    """,
    "write",
)
# The researchers tied to any of $ids.
COAUTHORS_OF = Query(
    "converge.coauthors_of",
    """
    UNWIND $ids AS id
    MATCH (:Researcher {id: id})-[:COAUTHOR]-(o:Researcher)
    RETURN collect(DISTINCT o.id) AS ids
    """,
)


# A researcher with no slot left (retired, or kept for the ids a profile gave) has no
# coauthor: ties a fold left on them go.
DROP_SLOTLESS_TIES = Query(
    "converge.drop_slotless_ties",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE NOT (r)-[:AUTHORED]->()
    MATCH (r)-[c:COAUTHOR]-()
    WITH DISTINCT c
    DELETE c
    """,
    "write",
)

# The ids the blocks' slots carry that their holders do not hold, each with who holds it
# (None: nobody), that holder's block, and whether they hold any slot. Such an id ties its
# slot to its holder's block, which the pass then decides with the slot's; an id nobody
# holds, or only a researcher with no slot, is one a load order left on a slot's edge alone
# (a position-only alignment vouches for none), or with a researcher of its own made before
# another source's printing took the slot (see graph.identity.unheld).
SLOT_IDS_AWAY = Query(
    "converge.slot_ids_away",
    """
    UNWIND $blocks AS block
    MATCH (r:Researcher {name_key: block})
    USING INDEX SEEK r:Researcher(name_key)
    WHERE r.merged_into IS NULL
    MATCH (r)-[a:AUTHORED]->(p:Paper)
    WITH block, r, a, p,
         [k IN coalesce(a.source_ids, [])
          WHERE (k STARTS WITH 's2:' AND NOT substring(k, 3) IN coalesce(r.s2_ids, []))
             OR (k STARTS WITH 'openalex:'
                 AND NOT substring(k, 9) IN coalesce(r.openalex_ids, []))
             OR (k STARTS WITH 'orcid:' AND substring(k, 6) <> coalesce(r.orcid, ''))] AS away
    UNWIND away AS k
    OPTIONAL MATCH (i:Identifier {key: k})
    OPTIONAL MATCH (i)-[:IDENTIFIES]->(h:Researcher)
    WITH block, r, a, p, k, h
    WHERE h IS NULL OR (h <> r AND h.merged_into IS NULL)
    RETURN collect({block: block, key: k, researcher: r.id, paper: p.key,
                    pinned: coalesce(a.pinned, false), method: a.method,
                    holder: h.id, holder_block: h.name_key,
                    holder_has_slots: h IS NOT NULL AND EXISTS { (h)-[:AUTHORED]->() }}) AS rows
    """,
)


class SlotIdAwayRow(TypedDict):
    block: str
    key: str
    researcher: int
    paper: str
    pinned: bool
    method: str | None
    holder: int | None  # None: nobody holds the id
    holder_block: str | None
    holder_has_slots: bool


# The type of the rows each statement unwinds as ``row``.
ROW_TYPES: dict[Query, object] = {
    SETTLE_RESEARCHERS: SettleRow,
    MOVE_SLOT_AFFILIATIONS: SlotAffiliationsRow,
    MOVE_IDENTIFIER_KEYS: KeysRow,
    MOVE_PROFILE_AFFILIATIONS: KeysRow,
    MOVE_ALL_AFFILIATIONS: MovingAllRow,
}
