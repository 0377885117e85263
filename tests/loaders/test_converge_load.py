"""After each load the touched name blocks are decided again from the final graph: moves are
recorded machine decisions, a second pass has nothing left to move, no author slot is held
twice and every count stays true."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scholargraph.graph import curation
from scholargraph.graph.canonical import canonical_dump, differences, state_of
from scholargraph.graph.db import Database, Tx
from scholargraph.graph.identity.converge import (
    SlotMove,
    components_to_decide,
    linked_blocks,
    profile_rows,
)
from scholargraph.graph.loaders import converge
from scholargraph.graph.loaders.converge import (
    _to_decide,
    apply_moves,
    converge_blocks,
    converge_pass,
    settle_blocks,
)
from scholargraph.graph.loaders.demo import write_demo_files
from scholargraph.graph.loaders.files import file_chunks, one_chunk
from scholargraph.graph.loaders.pipeline import Loader, LoadSummary
from scholargraph.graph.loaders.profiles import write_affiliations, write_authors
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import AffiliationRecord, Batch, InstitutionRef
from scholargraph.queries import Query
from scholargraph.queries import converge as cq
from scholargraph.queries.admin import CLEAR_DATA
from tests.loaders.records_factory import author, paper
from tests.loaders.test_slots import HELD_TWICE, MISCOUNTED, slots

MOVES = Query(
    "test.machine_moves",
    """
    MATCH (e:CurationEvent {kind: 'move'})
    RETURN collect({actor: e.actor, reason: e.reason, papers: e.papers,
                    roles: [(e)-[c:CONCERNS]->(r:Researcher) | c.role]}) AS rows
    """,
)

FILE_UNDER = Query(
    "test.file_under",
    "MATCH (r:Researcher {name: $name}) SET r.name_key = $key",
    "write",
)
# A position-only alignment leaves a slot's ids on its edge, not with its holder.
RESEARCHER_IDS = Query("test.converge_researcher_ids", "MATCH (r:Researcher) RETURN r.id AS id")
LEAVE_ON_EDGE = Query(
    "test.leave_on_edge",
    """
    MATCH (:Researcher)-[a:AUTHORED]->(:Paper {key: $paper})
    SET a.source_ids = a.source_ids + $keys
    """,
    "write",
)
HOLDERS_OF_IDS = Query(
    "test.holders_of_ids",
    """
    MATCH (i:Identifier)-[:IDENTIFIES]->(r:Researcher)
    RETURN i.key AS key, r.id AS researcher, EXISTS { (r)-[:AUTHORED]->() } AS holds_slots,
           r.merged_into AS merged_into
    """,
)
# An id moved without the affiliations its profile gave (as any path could leave it).
MOVE_ID_ALONE = Query(
    "test.move_id_alone",
    """
    MATCH (i:Identifier {key: $key})-[x:IDENTIFIES]->(:Researcher)
    MATCH (target:Researcher {id: $target})
    DELETE x
    CREATE (i)-[:IDENTIFIES]->(target)
    """,
    "write",
)
AFFILIATED_TO = Query(
    "test.affiliated_to",
    """
    MATCH (r:Researcher)-[a:AFFILIATED]->(:Institution)
    RETURN r.id AS researcher, a.from_profile AS from_profile, a.profile_keys AS keys
    """,
)
PAPER_KEYS = Query("test.converge_paper_keys", "MATCH (p:Paper) RETURN p.key AS key")
ORCIDS_SHOWN = Query(
    "test.orcids_shown",
    "MATCH (r:Researcher) WHERE r.merged_into IS NULL AND r.orcid IS NOT NULL "
    "RETURN r.orcid AS orcid",
)
HIDE_ORCIDS = Query("test.hide_orcids", "MATCH (r:Researcher) SET r.orcid = null", "write")
FILED = Query(
    "test.filed",
    "MATCH (r:Researcher) RETURN r.name AS name, r.name_key AS key, r.coauthor_keys AS ties",
)

# Researchers whose id lists are not the identifiers they hold, or retired ones holding any.
IDS_ASTRAY = Query(
    "test.ids_astray",
    """
    MATCH (r:Researcher)
    WITH r, COLLECT { MATCH (i:Identifier)-[:IDENTIFIES]->(r) RETURN i ORDER BY i.key } AS ids,
         COLLECT { UNWIND coalesce(r.s2_ids, []) AS x RETURN x ORDER BY x } AS s2_ids,
         COLLECT { UNWIND coalesce(r.openalex_ids, []) AS x RETURN x ORDER BY x } AS openalex_ids
    WHERE (r.merged_into IS NOT NULL AND size(ids) > 0)
       OR (r.merged_into IS NULL
           AND (s2_ids <> [i IN ids WHERE i.scheme = 's2' | i.value]
                OR openalex_ids <> [i IN ids WHERE i.scheme = 'openalex' | i.value]))
    RETURN r.id AS id, s2_ids, openalex_ids, [i IN ids | i.key] AS ids
    """,
)


async def test_a_load_converges_and_a_second_pass_moves_nothing(
    db: Database, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=120, seed=3)
    await db.run(CLEAR_DATA)
    moved = 0
    for source in ("ror", "arxiv", "s2", "openalex"):
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        summary = await Loader(db, papers_per_transaction=40).run(file_chunks(paths))
        moved += summary.slots_moved
    assert moved > 0  # arXiv-first, some name-only slots land with the wrong namesake
    events = await db.run_rows(MOVES)
    assert sum(len(e["papers"]) for e in events) == moved
    assert all(e["actor"] == "machine" and "name block" in e["reason"] for e in events)
    assert await db.run(IDS_ASTRAY) == []
    assert all(sorted(e["roles"]) == ["source", "target"] for e in events)
    assert await converge_blocks(db) == 0
    assert await db.run(HELD_TWICE) == []
    assert await db.run(MISCOUNTED) == []


async def _every_unit(db: Database, blocks: list[str]) -> list[dict[str, Any]]:
    """The slot and profile mentions of the blocks, read at once."""
    units = await db.run(cq.BLOCK_UNITS, {"blocks": blocks})
    profiles = await db.run(cq.BLOCK_PROFILES, {"blocks": blocks})
    return [*units[0]["rows"], *profile_rows(profiles[0]["rows"])]


async def test_the_groups_to_decide_read_in_parts_are_those_all_the_slots_read_at_once_give(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass finds the groups with anything to decide from each block's printed names
    first, then reads the slots of a part of the groups at a time (a pass after a large load
    touches most of the store): the groups are those of every slot read at once."""
    folder = write_demo_files(tmp_path, papers=120, seed=3)
    await db.run(CLEAR_DATA)
    loader = Loader(db, papers_per_transaction=40)
    for source in ("arxiv", "s2"):  # written, not yet decided again: much to decide
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        async for _, batch in file_chunks(paths):
            await loader.write(batch, LoadSummary())
    # one person's two printings in two blocks, which a particle joins
    giulia = author("Giulia Rossi", "openalex", openalex="A1")
    await loader.writer.write_papers([paper("2401.00001", [giulia], source="openalex")])
    await loader.writer.write_papers(
        [paper("2401.00002", [author("G. di Rossi", "s2", s2="2")], source="s2")]
    )
    blocks = sorted(loader.writer.touched - {"g dirossi"})  # read as a block "g rossi" joins
    rows = await _every_unit(db, blocks)
    found = await db.run(cq.BLOCKS_REDUCING_TO, {"blocks": blocks})
    rows += await _every_unit(
        db, sorted((linked_blocks(rows) | set(found[0]["blocks"])) - {*blocks})
    )
    whole = [group for group in components_to_decide(rows) if set(blocks) & set(group)]
    assert len(whole) > 10 and ("g dirossi", "g rossi") in whole
    monkeypatch.setattr(converge, "UNIT_BLOCKS_PER_READ", 7)  # many parts
    assert await _to_decide(db, blocks) == whole
    assert await _to_decide(db, blocks[::3]) == [
        group for group in whole if set(blocks[::3]) & set(group)
    ]


async def test_a_researcher_filed_under_another_block_is_filed_again_with_its_coauthors_features(
    db: Database,
) -> None:
    """A researcher filed under a block its slots no longer print (``m smith`` for
    ``M. Smith-Jones``, as a name-variant match can leave one) is filed again under the block
    of the best form its slots print, and its coauthors' features name the new block."""
    await db.run(CLEAR_DATA)
    await GraphWriter(db).write_papers([paper("1911.00066", ["Magnus Eriksson", "M. Smith-Jones"])])
    await db.run(FILE_UNDER, {"name": "M. Smith-Jones", "key": "m smith"})
    await settle_blocks(db, ["m smith"])
    filed = {row["name"]: row for row in await db.run(FILED)}
    assert filed["M. Smith-Jones"]["key"] == "m smithjones"
    assert filed["Magnus Eriksson"]["ties"] == ["m smithjones"]


async def test_ids_a_profile_gave_a_researcher_of_its_own_join_the_holder_of_their_slot(
    db: Database,
) -> None:
    """An OpenAlex work's slot aligned by position alone with a holder another ORCID names
    keeps its ids on the edge; the author's profile, read next, makes a researcher holding
    those ids and no slot. In the other order the slot's researcher took the ids first:
    convergence merges the one holding no slot into the one whose slot carries its ids."""
    await db.run(CLEAR_DATA)
    petit = author("Sébastien Petit", "s2", s2="872745631")
    await GraphWriter(db).write_papers([paper("2208.00033", [petit], source="s2")])
    profile = author(
        "Sébastien Petit", "openalex", openalex="A5347615263", orcid="0009-0006-2838-0393"
    )
    assert await write_authors(db, [profile]) == (1, 0)
    keys = ["openalex:A5347615263", "orcid:0009-0006-2838-0393"]
    await db.run(LEAVE_ON_EDGE, {"paper": "2208.00033", "keys": keys})
    await converge_blocks(db, ["s petit"])
    rows = await db.run(HOLDERS_OF_IDS)
    assert {row["key"] for row in rows} == {"s2:872745631", *keys}
    assert {(row["researcher"], row["holds_slots"], row["merged_into"]) for row in rows} == {
        (rows[0]["researcher"], True, None)
    }
    assert await converge_blocks(db, ["s petit"]) == 0


async def test_an_affiliation_a_profile_gave_stays_with_the_holder_of_the_profiles_id(
    db: Database,
) -> None:
    """An affiliation that only the profile of an id gave rests on holding that id: once the
    block is settled it is the id's holder's, whichever path moved the id."""
    await db.run(CLEAR_DATA)
    first = author("Irina Kuznetsov", "s2", s2="111")
    second = author("Irina Kuznetsov", "s2", s2="222")
    writer = GraphWriter(db)
    await writer.write_papers([paper("2312.00099", [first], source="s2")])
    await writer.write_papers([paper("gr-qc/0309008", [second], source="s2")])
    place = InstitutionRef(ror_id="04afpv804", openalex_id="I1", name="A University")
    await write_affiliations(db, [AffiliationRecord(first, place, "openalex", 2023, 2024)])
    (edge,) = await db.run(AFFILIATED_TO)
    assert edge["from_profile"] and edge["keys"] == ["s2:111"]
    others = [r["id"] for r in await db.run(RESEARCHER_IDS) if r["id"] != edge["researcher"]]
    await db.run(MOVE_ID_ALONE, {"key": "s2:111", "target": others[0]})
    await settle_blocks(db, ["i kuznetsov"])
    assert await db.run(AFFILIATED_TO) == [
        {"researcher": others[0], "from_profile": True, "keys": ["s2:111"]}
    ]


async def test_a_profile_whose_ids_two_researchers_hold_gives_each_the_ids_it_holds(
    db: Database,
) -> None:
    """A profile's ids held by two researchers (apart until a pass joins them): each gets
    the affiliation on the ids it holds, so the edge goes wherever each id goes."""
    await db.run(CLEAR_DATA)
    writer = GraphWriter(db)
    s2_side = author("Irina Kuznetsov", "s2", s2="111")
    openalex_side = author("Irina Kuznetsov", "openalex", openalex="A1")
    await writer.write_papers([paper("2402.00089", [s2_side], source="s2")])
    await writer.write_papers([paper("2312.00099", [openalex_side], source="openalex")])
    profile = AffiliationRecord(
        replace(openalex_side, s2_ids=("111",)),
        InstitutionRef(ror_id="04afpv804", openalex_id="I1", name="A University"),
        "openalex",
        2023,
        2024,
    )
    await write_affiliations(db, [profile])
    edges = sorted(tuple(row["keys"]) for row in await db.run(AFFILIATED_TO))
    assert edges == [("openalex:A1",), ("s2:111",)]


GROUPINGS = Query(
    "test.converge_groupings",
    """
    MATCH (r:Researcher) WHERE r.merged_into IS NULL
    RETURN COLLECT { MATCH (r)-[a:AUTHORED]->(p:Paper)
                     RETURN p.key + '#' + toString(a.position) AS slot ORDER BY slot } AS slots,
           COLLECT { MATCH (i:Identifier)-[:IDENTIFIES]->(r) RETURN i.key AS key ORDER BY key }
           AS keys,
           [r.paper_count, r.citation_count, r.h_index] AS counts
    """,
)


async def _grouped(db: Database) -> list[tuple[tuple[str, ...], tuple[str, ...], str]]:
    rows = await db.run(GROUPINGS)
    return sorted((tuple(r["slots"]), tuple(r["keys"]), repr(r["counts"])) for r in rows)


async def test_a_profile_read_before_or_after_its_persons_slots_gives_one_grouping(
    db: Database,
) -> None:
    """An OpenAlex profile of an author its works do not list (a work's authorships cut at
    100): read first, a later slot of the name joins its researcher when written; read last,
    it makes a researcher of its own. Convergence weighs the profile as one more mention of
    the block, so both orders end in one grouping, every live researcher holding a slot or
    an id, with the same counts (a profile's researcher no slot reached counts none)."""
    pandey = author("Abhishek M. Pandey", "s2", s2="2144")
    other = author("Abhishek M. Pandey", "s2", s2="9177")
    profile = author("Abhishek M. Pandey", "openalex", openalex="A5380236466")
    papers = [
        paper("2403.01667", ["Lena Berg", pandey], source="s2", year=2024),
        paper("1011.00201", [other, "Tom Hale"], source="s2", year=2010, categories=("hep-th",)),
    ]
    found = []
    for profile_first in (True, False):
        await db.run(CLEAR_DATA)
        if profile_first:
            await write_authors(db, [profile])
        await GraphWriter(db).write_papers(papers)
        if not profile_first:
            await write_authors(db, [profile])
        await converge_blocks(db, ["a pandey"])
        found.append(await _grouped(db))
        assert await converge_blocks(db, ["a pandey"]) == 0
    assert found[0] == found[1]
    assert all(slots or keys for slots, keys, _ in found[0])


async def test_settling_counts_a_researcher_no_slot_reached(db: Database) -> None:
    """A profile's researcher that no slot reached counts no paper, as one whose slots the
    pass moved away does: settled, its counts do not depend on whether a slot ever came."""
    await db.run(CLEAR_DATA)
    await write_authors(db, [author("Abhishek M. Pandey", "openalex", openalex="A5380236466")])
    assert [row["counts"] for row in await db.run(GROUPINGS)] == [[0, 0, None]]
    await settle_blocks(db, ["a pandey"])
    assert [row["counts"] for row in await db.run(GROUPINGS)] == [[0, 0, 0]]


TWIN_SLOT = Query(
    "test.twin_slot",
    """
    MATCH (p:Paper {key: $paper})
    CREATE (r:Researcher {id: $id, name: $name, name_key: 'v sharma', slug: 'vikram-sharma'})
    CREATE (r)-[:AUTHORED {position: 1, raw_name: $name, source: 'openalex',
                           sources: ['openalex'], source_ids: [], mentions: [],
                           affiliations: [], institutions: $institutions}]->(p)
    """,
    "write",
)


async def test_a_slot_seen_twice_keeps_the_institution_ids_of_both_edges_when_merged(
    db: Database,
) -> None:
    """Two researchers holding one slot (a write's position-only alignment, before the pass
    joins them) are merged into one edge that keeps the institution ids either edge had, as
    it keeps their sources, ids and affiliation strings."""
    await db.run(CLEAR_DATA)
    s2_side = author("Vikram Sharma", "s2", s2="1877")
    await GraphWriter(db).write_papers([paper("1604.00097", [s2_side], source="s2")])
    (held,) = await db.run(RESEARCHER_IDS)
    keys = ["openalex:openalex:I288982472", "openalex:ror:02xv9s098"]
    twin = {"paper": "1604.00097", "id": 7_777_777, "name": "Vikram Sharma", "institutions": keys}
    await db.run(TWIN_SLOT, twin)
    await curation.merge(db, held["id"], [7_777_777], actor="machine", reason="one slot")
    assert [row["institutions"] for row in await db.run(SLOT_INSTITUTIONS)] == [keys]


SLOT_HOLDER_AFFILIATIONS = Query(
    "test.slot_holder_affiliations",
    """
    MATCH (r:Researcher)-[:AUTHORED]->(:Paper {key: $paper})
    RETURN r.name AS name,
           COLLECT { MATCH (r)-[:AFFILIATED]->(i:Institution) RETURN i.ror_id } AS institutions
    """,
)
SLOT_INSTITUTIONS = Query(
    "test.slot_institutions",
    """
    MATCH (:Researcher)-[a:AUTHORED]->(p:Paper)
    RETURN p.key AS paper, a.position AS position, a.institutions AS institutions
    ORDER BY paper, position
    """,
)


# Two researchers named Vikram Sharma under two ORCIDs (no write may merge them): OpenAlex's,
# and S2's, each placed by its id on a paper of its own; then one position of 1604.00097.
OPENALEX_SHARMA = author(
    "Vikram Sharma", "openalex", openalex="A5000000001", orcid="0000-0002-1825-0097"
)
S2_SHARMA = author("Vikram Sharma", "s2", s2="1877", orcid="0000-0001-5109-3700")
IIT = InstitutionRef(ror_id="049tgcd06", openalex_id="I68891433", name="IIT Delhi")
OPENALEX_WORK = paper("1604.00097", [OPENALEX_SHARMA], source="openalex", institutions={1: IIT})
S2_WORK = paper("1604.00097", [S2_SHARMA], source="s2")


async def _two_sharmas(db: Database) -> GraphWriter:
    await db.run(CLEAR_DATA)
    writer = GraphWriter(db)
    await writer.write_papers([paper("1601.00001", [OPENALEX_SHARMA], source="openalex")])
    await writer.write_papers([paper("1512.00002", [S2_SHARMA], source="s2")])
    return writer


async def test_a_slot_aligned_by_position_alone_keeps_its_institution_ids_on_the_edge(
    db: Database,
) -> None:
    """An OpenAlex slot whose author id finds one researcher while the position is held by
    another (S2's, placed first by its S2 id, under another ORCID) is aligned with the holder
    by position alone. Its ids stay on the edge for the pass after the load, and the holder
    takes the institutions it names: written first, the slot would have given them to the
    edge S2's slot later folded into, and what a slot says must not depend on whether its
    source came first."""
    writer = await _two_sharmas(db)
    await writer.write_papers([S2_WORK])
    await writer.write_papers([OPENALEX_WORK])
    slots = {row["paper"]: row["institutions"] for row in await db.run(SLOT_INSTITUTIONS)}
    assert slots["1604.00097"] == ["openalex:openalex:I68891433", "openalex:ror:049tgcd06"]
    holders = await db.run(SLOT_HOLDER_AFFILIATIONS, {"paper": "1604.00097"})
    assert holders == [{"name": "Vikram Sharma", "institutions": ["049tgcd06"]}]


async def test_an_edge_folded_into_the_holder_of_its_position_gives_it_its_institutions(
    db: Database,
) -> None:
    """The other order of the test above: OpenAlex's slot written first, on its own
    researcher, with its institution; S2's slot at the same position, placed by its S2 id on
    another (two ORCIDs), takes the position by the author order's precedence and the
    OpenAlex edge folds into it. The holder is affiliated with what the folded edge names,
    as when the OpenAlex slot came second."""
    writer = await _two_sharmas(db)
    await writer.write_papers([OPENALEX_WORK])
    await writer.write_papers([S2_WORK])
    holders = await db.run(SLOT_HOLDER_AFFILIATIONS, {"paper": "1604.00097"})
    assert holders == [{"name": "Vikram Sharma", "institutions": ["049tgcd06"]}]
    (held,) = await db.run(HOLDER_ORCID, {"paper": "1604.00097"})
    assert held["orcid"] == "0000-0001-5109-3700"


HOLDER_ORCID = Query(
    "test.holder_orcid",
    "MATCH (r:Researcher)-[:AUTHORED]->(:Paper {key: $paper}) RETURN r.orcid AS orcid",
)


async def test_ids_a_profile_gave_moving_alone_leave_their_holders_other_affiliations(
    db: Database,
) -> None:
    """The pass moves an S2 profile's id away from a researcher holding no slot (an earlier
    pass had joined the profile to an OpenAlex one): the affiliation the OpenAlex profile gave
    stays with the holder of its id; nothing the moving id's profile did not give goes along."""
    await db.run(CLEAR_DATA)
    openalex = author("Jukka Nieminen", "openalex", openalex="A53")
    place = InstitutionRef(ror_id="04afpv804", openalex_id="I1", name="A University")
    await write_authors(db, [openalex])
    await write_affiliations(db, [AffiliationRecord(openalex, place, "openalex", 2022)])
    await write_authors(db, [author("Jukka Nieminen", "s2", s2="1075")])
    holders = {row["key"]: row["researcher"] for row in await db.run(HOLDERS_OF_IDS)}
    await db.run(MOVE_ID_ALONE, {"key": "s2:1075", "target": holders["openalex:A53"]})
    move = SlotMove(
        holders["openalex:A53"], holders["s2:1075"], (), "s2", "", ("s2:1075",), profile=True
    )
    await db.unit(lambda tx: apply_moves(tx, [move]))
    assert await db.run(AFFILIATED_TO) == [
        {"researcher": holders["openalex:A53"], "from_profile": True, "keys": ["openalex:A53"]}
    ]


async def test_settling_shows_the_orcid_a_researcher_holds(db: Database) -> None:
    """A path that moved an ORCID identifier may leave the iD shown behind: settling shows
    the ORCID of the identifier held, unless another researcher shows it."""
    await db.run(CLEAR_DATA)
    celik = author("Zeynep Çelik", "s2", s2="777", orcid="0000-0002-8189-7352")
    await GraphWriter(db).write_papers([paper("1904.00290", [celik], source="s2")])
    await db.run(HIDE_ORCIDS)
    assert await db.run(ORCIDS_SHOWN) == []
    await settle_blocks(db, ["z celik"])
    assert await db.run(ORCIDS_SHOWN) == [{"orcid": "0000-0002-8189-7352"}]


async def test_a_pass_names_every_block_it_decided(db: Database) -> None:
    """The blocks a printed name joins to the ones asked for are decided with them, and
    named, so that what depends on their researchers' papers (topics, strings) is made
    again too."""
    await db.run(CLEAR_DATA)
    writer = GraphWriter(db)
    await writer.write_papers([paper("2201.00002", ["G. di Rossi", "Tom Hale"])])
    await writer.write_papers([paper("2201.00001", ["Giulia Rossi", "Ada Lind"])])
    decided = await converge_pass(db, ["g rossi"])
    assert {"g rossi", "g dirossi"} <= decided.blocks
    assert "a lind" not in decided.blocks


async def test_a_unit_moving_every_slot_leaves_the_affiliation_of_a_profile_whose_id_stays(
    db: Database,
) -> None:
    """The pass moves every slot a researcher holds, with the S2 id they carry, to another
    researcher, while the OpenAlex profile's id stays: the affiliation that profile gave
    stays with it. Moved along, it was settled away from a researcher not holding the id,
    and lost (OpenAlex's profile read first, then S2's slot, in the 10,000-paper demo)."""
    await db.run(CLEAR_DATA)
    openalex = author("Catherine Parker", "openalex", openalex="A51")
    place = InstitutionRef(ror_id="02t81af71", openalex_id="I2", name="Edinburgh College")
    await write_authors(db, [openalex])
    await write_affiliations(db, [AffiliationRecord(openalex, place, "openalex", 2024)])
    s2_slot = author("C. F. Parker", "s2", s2="268")
    await GraphWriter(db).write_papers([paper("quant-ph/9406006", [s2_slot], source="s2")])
    await write_authors(db, [author("Catherine Parker", "s2", s2="999")])
    holders = {row["key"]: row["researcher"] for row in await db.run(HOLDERS_OF_IDS)}
    profile, slot, other = holders["openalex:A51"], holders["s2:268"], holders["s2:999"]
    papers = tuple(row["key"] for row in await db.run(PAPER_KEYS))
    if slot != profile:
        gather = SlotMove(slot, profile, papers, "", "Catherine Parker", ("s2:268",))
        await db.unit(lambda tx: apply_moves(tx, [gather]))
    move = SlotMove(profile, other, papers, "", "Catherine Parker", ("s2:268",))
    await db.unit(lambda tx: apply_moves(tx, [move]))
    await settle_blocks(db, ["c parker"])
    assert await db.run(AFFILIATED_TO) == [
        {"researcher": profile, "from_profile": True, "keys": ["openalex:A51"]}
    ]


async def test_a_researcher_a_profile_made_is_filed_alike_whether_its_slot_came_first_or_last(
    db: Database,
) -> None:
    """A profile names its person ``José Martín Delgado`` (block ``j delgado``); the slot its
    ORCID reaches prints ``José Martín-Delgado`` (``j martindelgado``). Profile first, the
    slot joins the profile's researcher, filed under a block the slot does not print; slot
    first, the researcher is filed under the slot's. The pass settles the blocks of the
    researchers a load wrote slots to, so both orders file them alike."""
    orcid = "0000-0002-1497-3829"
    profile = author("José Martín Delgado", "openalex", openalex="A5196909187", orcid=orcid)
    slot = author("José Martín-Delgado", "s2", s2="225520755", orcid=orcid)
    batches = [Batch(authors=[profile]), Batch(papers=[paper("2207.00464", [slot], source="s2")])]
    found = []
    for order in (batches, batches[::-1]):
        await db.run(CLEAR_DATA)
        for batch in order:
            await Loader(db).run(one_chunk(batch))
        found.append(sorted((row["name"], row["key"]) for row in await db.run(FILED)))
    assert found[0] == found[1] == [("José Martín Delgado", "j martindelgado")]


SPLIT_PAPERS = ("cs/0001040", "cs/0601013", "0712.0040")


def _split_by_s2(printed: tuple[str, ...], *, openalex_on: tuple[int, ...]) -> tuple[Batch, Batch]:
    """One person's three papers (:data:`SPLIT_PAPERS`), each printing her name as
    ``printed`` says: S2 gives the first two one author id and the third another (it split
    her); OpenAlex has the papers ``openalex_on``, with one id. Returns (OpenAlex, S2)."""
    s2_ids = ("351829825", "351829825", "2167543030")
    s2 = [
        paper(key, [author(name, "s2", s2=s2_id)], source="s2")
        for key, name, s2_id in zip(SPLIT_PAPERS, printed, s2_ids, strict=True)
    ]
    openalex = [
        paper(
            SPLIT_PAPERS[i],
            [author(printed[i], "openalex", openalex="A5393478485")],
            source="openalex",
        )
        for i in openalex_on
    ]
    return Batch(papers=openalex), Batch(papers=s2)


async def _grouped_in_orders(
    db: Database, *orders: list[Batch]
) -> list[list[tuple[tuple[str, ...], tuple[str, ...], str]]]:
    """The groupings after loading the batches in each order, each a load of its own."""
    found = []
    for order in orders:
        await db.run(CLEAR_DATA)
        for batch in order:
            await Loader(db).run(one_chunk(batch))
        found.append(await _grouped(db))
    return found


async def test_one_persons_slots_printed_with_and_without_the_hyphen_end_on_one_researcher(
    db: Database,
) -> None:
    """``Carmen D. García López`` is filed under ``c lopez``, ``Carmen D. García-López`` under
    ``c garcialopez``. Two S2 ids and an OpenAlex id tie one person's slots across both
    printings (S2 split her; a slot carrying the OpenAlex id and one S2 id joins them). In
    either order of the sources the pass compares the two blocks as one and puts every slot
    on one researcher."""
    hyphen, space = "Carmen D. García-López", "Carmen D. García López"
    openalex, s2 = _split_by_s2((hyphen, space, hyphen), openalex_on=(1, 2))
    batches = [openalex, s2]
    found = await _grouped_in_orders(db, batches, batches[::-1])
    assert found[0] == found[1]
    assert [slots for slots, _, _ in found[0] if slots] == [
        ("0712.0040#1", "cs/0001040#1", "cs/0601013#1")
    ]


async def test_one_persons_slots_an_id_ties_across_two_unrelated_blocks_end_alike_in_any_order(
    db: Database,
) -> None:
    """One S2 id on ``Jun Li`` and ``Jun Lee`` (blocks ``j li`` and ``j lee``, which no
    variant spelling joins), an OpenAlex id across the two printings too, and a second S2 id
    (S2 split the person). The pass decides the unit the ids make whole, in one block: cut at
    the block boundary, OpenAlex first gave one grouping and S2 first another."""
    printed = ("Jun Li", "Jun Lee", "Jun Lee")
    openalex, s2 = _split_by_s2(printed, openalex_on=(0, 2))
    arxiv = Batch(papers=[paper(k, [n]) for k, n in zip(SPLIT_PAPERS, printed, strict=True)])
    found = await _grouped_in_orders(db, [openalex, s2, arxiv], [s2, openalex, arxiv])
    assert found[0] == found[1]
    assert [slots for slots, _, _ in found[0] if slots] == [
        ("0712.0040#1", "cs/0001040#1", "cs/0601013#1")
    ]


async def test_an_id_two_sources_printings_leave_on_one_slot_is_its_holders_in_any_order(
    db: Database,
) -> None:
    """OpenAlex prints a slot ``Jun Lee`` with its id, arXiv prints it ``J. Li``: names the
    write path does not take for one another, so the later source's slot is aligned by
    position alone. OpenAlex first, its id made a researcher that arXiv's printing then
    took the slot from (one holding the id and no slot, in another block); arXiv first, the
    id stayed on the edge, held by nobody. Either way the slot's holder is who the id names:
    the pass gives it to them, so both orders end with one graph."""
    openalex = Batch(
        papers=[
            paper("2701.00700", [author("Jun Li", "openalex", openalex="A711")], source="openalex"),
            paper(
                "2706.00705", [author("Jun Lee", "openalex", openalex="A702")], source="openalex"
            ),
        ]
    )
    arxiv = Batch(papers=[paper("2701.00700", ["Jun Li"]), paper("2706.00705", ["J. Li"])])
    states = []
    for order in ([openalex, arxiv], [arxiv, openalex]):
        await db.run(CLEAR_DATA)
        for batch in order:
            await Loader(db).run(one_chunk(batch))
        states.append(state_of(await canonical_dump(db)))
        holders = {row["key"]: row for row in await db.run(HOLDERS_OF_IDS)}
        assert holders["openalex:A702"]["holds_slots"]
        assert holders["openalex:A702"]["researcher"] != holders["openalex:A711"]["researcher"]
    assert not differences(states[0], states[1])


async def test_an_id_new_to_the_graph_joins_no_one_to_another_author_of_the_same_paper(
    db: Database,
) -> None:
    """arXiv gives one ``J. Li`` the first slots of two papers; S2 gives the second one's
    ``J. Li`` and the first one's second author, ``Jun Lee``, one new id. Joining ``Jun Lee``
    to that ``J. Li`` would make him two authors of one paper and hold the first slot
    twice: the slot stays apart, and the pass decides whom the id names. Either order ends
    with one graph, each slot held once, ``Jun Lee`` holding both slots S2's id gives."""
    s2 = Batch(
        papers=[
            paper(
                "2803.06802",
                [author("J. Li", "s2", s2="6811"), author("Jun Lee", "s2", s2="6801")],
                source="s2",
            ),
            paper("2804.06803", [author("J. Li", "s2", s2="6801"), "Raj Patel"], source="s2"),
        ]
    )
    arxiv = Batch(
        papers=[
            paper("2803.06802", ["J. Li", "Jun Li"]),
            paper("2804.06803", ["J. Li", "Raj Patel"]),
        ]
    )
    states = []
    for order in ([arxiv, s2], [s2, arxiv]):
        await db.run(CLEAR_DATA)
        for batch in order:
            await Loader(db).run(one_chunk(batch))
            assert await db.run(HELD_TWICE) == []
        states.append(state_of(await canonical_dump(db)))
        holders = {row["key"]: row["researcher"] for row in await db.run(HOLDERS_OF_IDS)}
        held = {(s["paper"], s["position"]): s["id"] for s in await slots(db)}
        assert held[("2803.06802", 2)] == held[("2804.06803", 1)] == holders["s2:6801"]
        assert held[("2803.06802", 1)] == holders["s2:6811"] != holders["s2:6801"]
    assert not differences(states[0], states[1])


async def test_a_slot_an_id_ties_to_a_holder_filed_under_another_block_is_decided_with_it(
    db: Database,
) -> None:
    """OpenAlex gives ``Jun Lee`` one id on two papers; arXiv prints the second ``J. Li``.
    OpenAlex first, arXiv's printing takes that slot to a researcher filed under ``j li``,
    a block whose printed names do not reach ``j lee``, where the id's holder is. The id
    ties the two blocks: the pass decides them together and the unit ends whole, as it does
    with arXiv first."""
    openalex = Batch(
        papers=[
            paper(
                key,
                [author("Jun Lee", "openalex", openalex="A1501"), "Lena Ott"],
                source="openalex",
            )
            for key in ("2502.01501", "2507.01506")
        ]
    )
    arxiv = Batch(
        papers=[paper("2502.01501", ["Jun Lee", "Lena Ott"]), paper("2507.01506", ["J. Li"])]
    )
    found = await _grouped_in_orders(db, [openalex, arxiv], [arxiv, openalex])
    assert found[0] == found[1]
    assert ("2502.01501#1", "2507.01506#1") in [slots for slots, _, _ in found[0]]


NAMED_IDS = Query("test.named_ids", "MATCH (r:Researcher) RETURN r.name AS name, r.id AS id")


async def test_a_slot_moved_to_a_researcher_of_another_block_is_named_so_by_its_coauthors(
    db: Database,
) -> None:
    """Features name each coauthor by the block their researcher is filed under. A move of
    a slot to a researcher filed under another block (``J.-L. Lefebvre``'s to the researcher
    filed under ``j delefebvre``) makes the features of the paper's other authors again,
    not only the two researchers': they name whoever holds the slot now, not whoever held it
    when the order of loading last made them."""
    await db.run(CLEAR_DATA)
    writer = GraphWriter(db)
    await writer.write_papers([paper("2501.00447", ["Andreas Hoffmann", "J.-L. Lefebvre"])])
    await writer.write_papers([paper("2207.00464", ["Jérôme de Lefebvre"])])
    filed = {row["name"]: row for row in await db.run(FILED)}
    assert filed["Andreas Hoffmann"]["ties"] == ["j lefebvre"]
    ids = {row["name"]: row["id"] for row in await db.run(NAMED_IDS)}
    wave = curation.MoveWave()
    wave.add(
        curation.SlotMoving(
            ids["J.-L. Lefebvre"], ids["Jérôme de Lefebvre"], ("2501.00447",), "a test's move"
        )
    )

    async def move(tx: Tx) -> None:
        await curation.move_slots(tx, wave)

    await db.unit(move)
    filed = {row["name"]: row for row in await db.run(FILED)}
    assert filed["Andreas Hoffmann"]["ties"] == ["j delefebvre"]
