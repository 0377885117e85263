"""One author id a source gave two people: split where another source's ids and the evidence
agree that they are two, kept whole where the evidence says one person a source split."""

from __future__ import annotations

from scholargraph.graph.identity.converge import StoredSlot, converge
from scholargraph.graph.identity.overmerge import bridges, contested, parts

PHYSICS = ("A. Jones", "B. Brown", "C. White")
BIOLOGY = ("X. Stone", "Y. Rivers", "Z. Fields")


def slot(
    researcher: int,
    paper: str,
    keys: tuple[str, ...],
    lab: tuple[str, ...],
    category: str,
    year: int,
    held: tuple[str, ...] | None = None,
) -> StoredSlot:
    place = "Peking University" if lab == PHYSICS else "University of Toronto"
    return StoredSlot(
        researcher=researcher,
        paper=paper,
        position=1,
        raw_name="Wei Zhang",
        anchored=True,
        affiliations=(place,),
        coauthors=lab,
        categories=(category,),
        year=year,
        keys=keys,
        held=keys if held is None else held,  # one researcher holds an id
    )


def two_people_one_openalex_id(
    researcher_of_second: int, *, biologist_holds_a7: bool = False
) -> list[StoredSlot]:
    """A physicist in Beijing (S2 11) and, decades later, a biologist in Toronto (S2 12), of
    one name, whom OpenAlex made one (A7). Apart, the physicist holds A7, unless the load's
    order gave it to the biologist."""
    first, second = ("openalex:A7", "s2:11"), ("openalex:A7", "s2:12")
    apart = researcher_of_second != 1
    physicist = ("s2:11",) if apart and biologist_holds_a7 else first
    biologist = second if not apart or biologist_holds_a7 else ("s2:12",)
    return [
        slot(1, "p1", first, PHYSICS, "hep-th", 1985, held=physicist),
        slot(1, "p2", first, PHYSICS, "hep-th", 1986, held=physicist),
        slot(1, "p3", ("openalex:A7",), PHYSICS, "hep-th", 1987, held=physicist[:1]),
        slot(researcher_of_second, "p4", second, BIOLOGY, "q-bio.GN", 2024, held=biologist),
        slot(researcher_of_second, "p5", ("s2:12",), BIOLOGY, "q-bio.GN", 2025, held=("s2:12",)),
    ]


def test_the_id_that_joins_two_ids_of_another_source_is_the_bridge() -> None:
    keys = {s.slot_id: frozenset(s.keys) for s in two_people_one_openalex_id(1)}
    assert contested(keys)
    assert bridges(keys) == {"openalex:A7"}
    tied, loose = parts(keys, bridges(keys))
    assert tied == [["p1#1", "p2#1"], ["p4#1", "p5#1"]]
    assert loose == ["p3#1"]


def test_two_people_one_source_made_one_are_split_whichever_order_joined_them() -> None:
    for joined in (True, False):
        slots = two_people_one_openalex_id(1 if joined else 2)
        moves = converge(slots)
        holder = {s.slot_id: s.researcher for s in slots}
        for move in moves:
            for paper in move.papers:
                holder[f"{paper}#1"] = move.target if move.target is not None else -1
        physicist = {holder[s] for s in ("p1#1", "p2#1", "p3#1")}
        biologist = {holder[s] for s in ("p4#1", "p5#1")}
        assert len(physicist) == len(biologist) == 1 and physicist != biologist
        # the OpenAlex id stays with the physicist, who carries it on most slots
        assert all("openalex:A7" not in m.keys for m in moves)
        if joined:
            (move,) = moves
            assert (move.source, move.target, move.papers, move.keys) == (
                1,
                None,
                ("p4", "p5"),
                ("s2:12",),
            )


def test_one_person_a_source_split_in_two_stays_whole() -> None:
    """Same lab, same field; a move and a few years apart are not enough to split."""
    slots = [
        slot(1, "p1", ("openalex:A7", "s2:11"), PHYSICS, "hep-th", 2010),
        slot(1, "p2", ("openalex:A7", "s2:12"), PHYSICS, "hep-th", 2016),
        slot(1, "p3", ("s2:12",), BIOLOGY, "hep-th", 2017),
    ]
    assert converge(slots) == ()


def test_the_id_goes_to_the_part_that_keeps_it_whoever_a_load_gave_it_to() -> None:
    """Apart already, but the load's order gave A7 to the biologist: the split keeps it with
    the physicist, who carries it on most slots, and it goes to them."""
    slots = two_people_one_openalex_id(2, biologist_holds_a7=True)
    (move,) = converge(slots)
    assert (move.source, move.target, move.papers, move.keys) == (2, 1, (), ("openalex:A7",))
    assert move.reason.startswith("openalex:A7 go to researcher 1")
    settled = two_people_one_openalex_id(2)
    assert converge(settled) == ()
