"""The convergence pass: a name block's free slots grouped as a pure function of the stored
slots, whichever researcher a load first gave them to."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import replace

from scholargraph.graph.identity.converge import (
    SlotMove,
    StoredSlot,
    _one_slot_per_paper,
    blocks_to_decide,
    components_to_decide,
    converge,
    joined_groups,
    linked_blocks,
    printed_names,
    profile_rows,
    stored_slots,
    units_of,
)
from scholargraph.graph.identity.names import base_block_key, parse_name
from scholargraph.graph.loaders.converge import _chunks, moved_groups

SMITH_LAB = ("A. Jones", "B. Brown", "C. White")


def slot(
    researcher: int,
    paper: str,
    *,
    anchored: bool = False,
    coauthors: Iterable[str] = SMITH_LAB,
    name: str = "John Smith",
    affiliations: tuple[str, ...] = (),
    year: int = 2020,
    keys: tuple[str, ...] = (),
    fixed: bool = False,
) -> StoredSlot:
    return StoredSlot(
        researcher=researcher,
        paper=paper,
        position=1,
        raw_name=name,
        anchored=anchored or bool(keys),
        affiliations=affiliations,
        coauthors=tuple(coauthors),
        categories=("cs.LG",),
        year=year,
        keys=keys,
        fixed=fixed,
        held=keys,  # the holder holds the ids its slots carry
    )


def applied(slots: list[StoredSlot], moves: Iterable[SlotMove]) -> dict[str, int | str]:
    """Slot id → holder once the moves are made (a new researcher named by its group)."""
    holder: dict[str, int | str] = {s.slot_id: s.researcher for s in slots}
    for move in moves:
        for paper in move.papers:
            (slot_id,) = [s.slot_id for s in slots if s.paper == paper]
            holder[slot_id] = move.target if move.target is not None else move.group
    return holder


def grouping(holder: Mapping[str, int | str]) -> set[frozenset[str]]:
    groups: dict[int | str, set[str]] = defaultdict(set)
    for slot_id, rid in holder.items():
        groups[rid].add(slot_id)
    return {frozenset(g) for g in groups.values()}


def test_a_free_slot_joins_the_anchor_its_coauthors_point_to() -> None:
    slots = [slot(1, "p1", anchored=True), slot(1, "p2", anchored=True), slot(7, "p3")]
    (move,) = converge(slots)
    assert (move.source, move.target, move.papers) == (7, 1, ("p3",))
    assert "name-only slots on p3" in move.reason


def test_the_grouping_does_not_depend_on_who_holds_the_free_slots_first() -> None:
    other_lab = ("X. Stone", "Y. Rivers", "Z. Fields")
    lab = [("p3", SMITH_LAB), ("p4", other_lab), ("p5", other_lab)]
    anchors = [slot(1, "p1", anchored=True), slot(1, "p2", anchored=True)]
    ways = [
        [slot(1, p, coauthors=c) for p, c in lab],  # all joined the anchor
        [slot(10 + i, p, coauthors=c) for i, (p, c) in enumerate(lab)],  # each alone
        [slot(20, p, coauthors=c) for p, c in lab[::-1]],  # one namesake holds them all
    ]
    results = []
    for free in ways:
        slots = anchors + free
        results.append(grouping(applied(slots, converge(slots))))
    assert results[0] == results[1] == results[2]
    assert frozenset({"p1#1", "p2#1", "p3#1"}) in results[0]
    assert frozenset({"p4#1", "p5#1"}) in results[0]


def test_anchored_slots_stay_and_two_anchors_are_never_joined() -> None:
    slots = [slot(1, "p1", anchored=True), slot(2, "p2", anchored=True), slot(3, "p3")]
    moves = converge(slots)
    assert all(m.papers == ("p3",) for m in moves)
    holder = applied(slots, moves)
    assert (holder["p1#1"], holder["p2#1"]) == (1, 2)


def test_converging_twice_moves_nothing_the_second_time() -> None:
    slots = [
        slot(1, "p1", anchored=True),
        slot(5, "p2"),
        slot(6, "p3", coauthors=("Q. Other", "R. Else")),
        slot(6, "p4", coauthors=("Q. Other", "R. Else")),
    ]
    holder = applied(slots, converge(slots))
    new_ids = {group: 100 + i for i, group in enumerate(sorted({str(h) for h in holder.values()}))}
    again = [
        replace(s, researcher=h if isinstance(h := holder[s.slot_id], int) else new_ids[h])
        for s in slots
    ]
    assert converge(again) == ()


def test_a_profile_known_researcher_keeps_slots_no_source_gave_ids_for() -> None:
    slots = [
        StoredSlot(7, "p1", 1, "John Smith", anchored=False, holder_has_ids=True),
        slot(8, "p2"),
    ]
    assert all("p1" not in m.papers for m in converge(slots))


def test_two_sources_units_are_one_person_whichever_order_put_them_together() -> None:
    """An S2 id on one paper, an OpenAlex id on another, the same lab: one person, whether a
    name-only source had first put both slots on one researcher or not."""
    s2 = slot(1, "p1", keys=("s2:11",))
    together = [s2, slot(1, "p2", keys=("openalex:A7",)), slot(1, "p3")]
    apart = [s2, slot(2, "p2", keys=("openalex:A7",)), slot(3, "p3")]
    assert converge(together) == ()
    moves = converge(apart)
    assert grouping(applied(apart, moves)) == {frozenset({"p1#1", "p2#1", "p3#1"})}
    (with_ids,) = [m for m in moves if m.keys]
    assert (with_ids.source, with_ids.target, with_ids.keys) == (2, 1, ("openalex:A7",))
    assert "identified as openalex:A7" in with_ids.reason


def test_two_ids_of_one_source_are_two_people_whichever_order_joined_them() -> None:
    joined = [slot(1, "p1", keys=("s2:11",)), slot(1, "p2", keys=("s2:12",))]
    (move,) = converge(joined)
    assert (move.source, move.target, move.papers, move.keys) == (1, None, ("p2",), ("s2:12",))
    apart = [slot(1, "p1", keys=("s2:11",)), slot(2, "p2", keys=("s2:12",))]
    assert converge(apart) == ()


def test_a_slot_with_both_ids_makes_one_unit_of_two_ids_of_one_source() -> None:
    slots = [
        slot(1, "p1", keys=("openalex:A7", "s2:11")),
        slot(1, "p2", keys=("openalex:A7", "s2:12")),
        slot(1, "p3", keys=("s2:12",)),
    ]
    (unit,) = units_of(slots)
    assert unit.slots == ("p1#1", "p2#1", "p3#1")
    assert converge(slots) == ()


def test_a_researcher_a_curator_decided_on_is_never_joined_nor_split() -> None:
    curated = [
        slot(1, "p1", keys=("s2:11",), fixed=True),
        slot(1, "p2", keys=("s2:12",), fixed=True),
    ]
    other = slot(2, "p3", keys=("openalex:A7",))
    moves = converge([*curated, other])
    assert moves == ()


def test_only_blocks_with_something_to_decide_are_read_again() -> None:
    def row(block: str, researcher: int, paper: str, ids: list[str]) -> dict[str, object]:
        return {
            "block": block,
            "researcher": researcher,
            "paper": paper,
            "position": 1,
            "source_ids": ids,
            "pinned": False,
            "method": "s2_id" if ids else "new",
            "holder_has_ids": bool(ids),
            "holder_keys": ids,
            "holder_distinct": False,
        }

    rows = [
        row("smith j", 1, "p1", ["s2:11"]),
        row("smith j", 2, "p2", ["s2:12"]),  # two ids of one source: settled
        row("jones a", 3, "p3", ["s2:21"]),
        row("jones a", 4, "p4", ["openalex:A9"]),  # could be one person
        row("brown b", 5, "p5", []),  # a name-only slot
    ]
    assert blocks_to_decide(rows) == ["brown b", "jones a"]


def test_blocks_a_printing_joins_are_decided_together() -> None:
    """``Giulia Rossi`` (an OpenAlex id) and ``G. di Rossi`` (an S2 id) each settle their own
    block, but the particle joins the blocks: a write that put them on one researcher would
    otherwise stay, and one that kept them apart too, whichever order the loads came in."""

    def row(
        block: str, researcher: int, paper: str, name: str, ids: list[str]
    ) -> dict[str, object]:
        return {
            "block": block,
            "researcher": researcher,
            "paper": paper,
            "position": 1,
            "raw_name": name,
            "source_ids": ids,
            "pinned": False,
            "method": "s2_id",
            "holder_has_ids": True,
            "holder_keys": ids,
            "holder_distinct": False,
        }

    rossi = [
        row("g rossi", 1, "p1", "Giulia Rossi", ["openalex:A1"]),
        row("g dirossi", 2, "p2", "G. di Rossi", ["s2:2"]),
    ]
    other = row("l zhang", 3, "p3", "Lei Zhang", ["s2:3"])
    assert blocks_to_decide(rossi[:1]) == blocks_to_decide(rossi[1:]) == []
    assert components_to_decide([*rossi, other]) == [("g dirossi", "g rossi")]
    # the printed names' blocks, their variants and the names read the other way round
    assert linked_blocks(rossi) == {"g rossi", "g dirossi", "r giulia"}
    assert base_block_key(parse_name("G. di Rossi")) == "g rossi"
    assert base_block_key(parse_name("Giulia Rossi")) is None
    # the groups from the printed names alone, and decided a part of whole groups at a time
    names = printed_names([*rossi, other])
    assert joined_groups(names) == [("g dirossi", "g rossi"), ("l zhang",)]
    assert components_to_decide(rossi) + components_to_decide([other]) == [("g dirossi", "g rossi")]
    # a name printed in a block not present joins nothing
    assert joined_groups({"g dirossi": {"G. di Rossi"}}) == [("g dirossi",)]


def test_a_pass_keeps_each_group_of_blocks_in_one_transaction() -> None:
    groups = [("a x",), ("b x", "b y", "b z"), ("c x",)]
    assert _chunks(groups, 2) == [[("a x",)], [("b x", "b y", "b z")], [("c x",)]]
    assert _chunks(groups, 4) == [[("a x",), ("b x", "b y", "b z")], [("c x",)]]


def test_a_pass_decides_again_only_the_groups_its_moves_changed() -> None:
    groups = [("a x",), ("b x", "b y"), ("c x",)]
    rows = [
        {"block": "a x", "researcher": 1},
        {"block": "b y", "researcher": 2},
        {"block": "b x", "researcher": 3},
        {"block": "c x", "researcher": 4},
    ]
    to_new = SlotMove(2, None, ("p1",), group="s1", name="B. Y")
    assert moved_groups([to_new], rows, groups) == [("b x", "b y")]
    ids_only = SlotMove(4, 1, (), group="s2", name="", keys=("s2:9",))
    assert moved_groups([to_new, ids_only], rows, groups) == groups
    assert moved_groups([], rows, groups) == []
    # a researcher the rows do not place: every group is decided again
    assert moved_groups([SlotMove(7, 3, ("p2",), group="s3", name="")], rows, groups) == groups


def _row(
    researcher: int, paper: str, ids: list[str], holds: list[str], **more: object
) -> dict[str, object]:
    """A ``BLOCK_SLOTS`` row: the slot's source ids and the ids its holder holds."""
    return {
        "researcher": researcher,
        "paper": paper,
        "position": more.pop("position", 1),
        "raw_name": "Joseph A. Smith",
        "source_ids": ids,
        "pinned": more.pop("pinned", False),
        "method": more.pop("method", "cross_source"),
        "holder_has_ids": bool(holds),
        "holder_keys": holds,
        "holder_distinct": False,
        "coauthors": list(SMITH_LAB),
        **more,
    }


def test_a_slot_goes_to_the_holder_of_the_id_its_source_gave_it() -> None:
    """An S2 id on two papers, one slot left with a researcher holding no id (one load order
    did this, another put both with the id's holder): one person, whichever it was."""
    together = [
        _row(1, "p1", ["openalex:A5", "s2:13"], ["openalex:A5", "s2:13"]),
        _row(1, "p2", ["s2:13"], ["openalex:A5", "s2:13"]),
    ]
    apart = [together[0], _row(9, "p2", ["s2:13"], [])]
    assert blocks_to_decide([{**r, "block": "smith j"} for r in apart]) == ["smith j"]
    assert converge(stored_slots(together)) == ()
    (move,) = converge(stored_slots(apart))
    assert (move.source, move.target, move.papers) == (9, 1, ("p2",))


def test_an_id_given_to_two_authors_of_one_paper_ties_only_its_holders_slot() -> None:
    rows = [
        _row(1, "p1", ["s2:13"], ["s2:13"]),
        _row(2, "p1", ["s2:13"], [], position=2),  # the source gave both authors one id
    ]
    slots = stored_slots(rows)
    assert [s.keys for s in slots] == [("s2:13",), ()]
    assert converge(slots) == ()


def test_a_slot_a_curator_placed_keeps_to_its_holders_ids() -> None:
    rows = [
        _row(1, "p1", ["s2:13"], ["s2:13"]),
        _row(2, "p2", ["s2:13"], [], pinned=True, method="curator"),
    ]
    assert [s.keys for s in stored_slots(rows)] == [("s2:13",), ()]
    assert converge(stored_slots(rows)) == ()


def test_no_move_gives_a_researcher_a_second_slot_of_one_paper() -> None:
    """Two printings of one name on one paper are two authors: a move that would bring the
    second to the researcher holding the first (who keeps it) is dropped, the rest of the
    move goes ahead with only the ids of the slots it still takes; a move bringing a slot to
    a researcher whose slot of that paper moves away runs after that move; two that wait on
    each other go through a new researcher."""
    first = StoredSlot(7, "2406.00171", 1, "Inés S. González", anchored=False)
    second = StoredSlot(8, "2406.00171", 2, "Inés González", anchored=False, held=("s2:1",))
    other = StoredSlot(8, "1808.00031", 1, "Inés González", anchored=False, held=("s2:2",))
    move = SlotMove(8, 7, ("1808.00031", "2406.00171"), "g", "Inés González", ("s2:1", "s2:2"))
    (kept,) = _one_slot_per_paper([move], [first, second, other])
    assert kept.papers == ("1808.00031",) and kept.keys == ("s2:2",)
    leaving = SlotMove(7, None, ("2406.00171",), "h", "Inés S. González")
    assert _one_slot_per_paper([move, leaving], [first, second, other]) == (leaving, move)
    back = SlotMove(7, 8, ("2406.00171",), "h", "Inés S. González")
    # Two moves waiting on each other (the two exchange their slots of one paper): the first
    # sets its waiting slot down on a new researcher, and takes it from there last.
    parked = SlotMove(8, None, ("2406.00171",), "g~parked", "Inés González", ("s2:1",))
    direct = SlotMove(8, 7, ("1808.00031",), "g", "Inés González", ("s2:2",))
    later = SlotMove(8, 7, ("2406.00171",), "g", "Inés González", ("s2:1",), parked="g~parked")
    assert _one_slot_per_paper([move, back], [first, second, other]) == (
        parked,
        direct,
        back,
        later,
    )


def _profile(researcher: int, key: str, given: list[str], name: str) -> dict[str, object]:
    """A ``BLOCK_PROFILES`` row: one id no slot of the researcher carries."""
    holds = {1: ["openalex:A1", "s2:9", "orcid:X"], 2: ["s2:7"]}[researcher]
    return {
        "block": "j nieminen",
        "researcher": researcher,
        "name": name,
        "keys": sorted({key, *given}),
        "profiles": [{"key": key, "names": [name], "affiliations": [f"{key} U"]}],
        "holder_keys": holds,
        "holder_distinct": False,
    }


def test_each_profile_a_researcher_holds_is_a_mention_of_its_own() -> None:
    # Two profiles joined on one researcher before any slot of their name came weigh as two
    # mentions, as they do when each made a researcher of its own: the order they were
    # joined in says nothing of who they are.
    rows = [
        _profile(1, "openalex:A1", ["orcid:X"], "Jukka Nieminen"),
        _profile(1, "orcid:X", ["openalex:A1"], "J. Nieminen"),
        _profile(1, "s2:9", [], "Jukka Nieminen"),
        _profile(2, "s2:7", [], "Jukka Nieminen"),
    ]
    mentions = profile_rows(rows)
    assert [(m["researcher"], m["paper"], m["source_ids"]) for m in mentions] == [
        (1, "profile:openalex:A1", ["openalex:A1", "orcid:X"]),
        (1, "profile:s2:9", ["s2:9"]),
        (2, "profile:s2:7", ["s2:7"]),
    ]
    assert mentions[0]["affiliations"] == ["openalex:A1 U", "orcid:X U"]
    assert mentions[1]["affiliations"] == ["s2:9 U"]


def _bare_profile(researcher: int, key: str, holds: list[str]) -> dict[str, object]:
    return {
        **_profile(1, key, [], "Jukka Nieminen"),
        "researcher": researcher,
        "holder_keys": holds,
    }


def _final(rows: list[dict[str, object]]) -> set[frozenset[str]]:
    """The grouping of the mentions of ``rows`` once the pass's moves are made."""
    slots = stored_slots(rows)
    holder: dict[str, int | str] = {s.slot_id: s.researcher for s in slots}
    for move in converge(slots):
        to = move.target if move.target is not None else move.group
        for s in slots:
            moving = s.paper in move.papers or (s.profile and set(s.keys) <= set(move.keys))
            if moving and s.researcher == move.source:
                holder[s.slot_id] = to
    return grouping(holder)


def test_two_profiles_joined_before_a_slot_of_their_name_came_are_decided_as_if_apart() -> None:
    """An S2 and an OpenAlex profile of one name, no slot carrying their ids: one load order
    joined them on one researcher before a slot of the name came, another left each with a
    researcher of its own. The pass weighs each profile as a mention of its own either way."""
    slot_row = {
        **_row(3, "2311.00258", [], [], raw_name="Jukka Nieminen", method="new"),
        "block": "j nieminen",
        "coauthors": ["Mira Tal"],
        "year": 2023,
    }
    both = ["openalex:A53", "s2:1075"]
    joined = profile_rows(
        [_bare_profile(1, "openalex:A53", both), _bare_profile(1, "s2:1075", both)]
    )
    apart = profile_rows(
        [_bare_profile(1, "openalex:A53", both[:1]), _bare_profile(2, "s2:1075", both[1:])]
    )
    assert len(joined) == len(apart) == 2
    assert _final([slot_row, *joined]) == _final([slot_row, *apart])
