"""Who gets an id a slot carries and nobody holds by a slot (graph.identity.unheld)."""

from __future__ import annotations

from typing import Any

from scholargraph.graph.identity.unheld import IdClaims, id_claims, id_links


def _row(
    key: str,
    researcher: int,
    paper: str,
    *,
    holder: int | None = None,
    holder_block: str | None = None,
    holder_has_slots: bool = False,
    pinned: bool = False,
    method: str | None = "cross_source",
) -> dict[str, Any]:
    return {
        "block": "j li",
        "key": key,
        "researcher": researcher,
        "paper": paper,
        "pinned": pinned,
        "method": method,
        "holder": holder,
        "holder_block": holder_block,
        "holder_has_slots": holder_has_slots,
    }


def test_an_id_nobody_holds_goes_to_the_one_holder_of_its_slots() -> None:
    rows = [_row("openalex:A702", 7, "2706.00705"), _row("openalex:A702", 7, "2709.00708")]
    assert id_claims(rows) == IdClaims(given=(("openalex:A702", 7),), joined=())


def test_a_slotless_holder_of_the_id_is_joined_to_the_slots_holder() -> None:
    rows = [_row("openalex:A702", 7, "2706.00705", holder=3)]
    assert id_claims(rows) == IdClaims(given=(), joined=((3, 7, ("openalex:A702",)),))


def test_an_id_on_two_researchers_slots_says_nothing() -> None:
    rows = [_row("s2:711", 7, "2706.00705"), _row("s2:711", 8, "2709.00708")]
    assert id_claims(rows) == IdClaims(given=(), joined=())


def test_an_id_on_two_slots_of_one_paper_says_nothing() -> None:
    rows = [_row("s2:711", 7, "2706.00705"), _row("s2:711", 7, "2706.00705")]
    assert id_claims(rows) == IdClaims(given=(), joined=())


def test_a_slot_a_curator_placed_keeps_its_holder_as_the_curator_left_it() -> None:
    pinned = [_row("s2:711", 7, "2706.00705", pinned=True)]
    placed = [_row("s2:711", 7, "2706.00705", method="curator")]
    assert id_claims(pinned) == id_claims(placed) == IdClaims(given=(), joined=())


def test_a_slotless_researcher_whose_ids_go_two_ways_is_joined_to_neither() -> None:
    rows = [
        _row("s2:711", 7, "2706.00705", holder=3),
        _row("openalex:A702", 8, "2709.00708", holder=3),
    ]
    assert id_claims(rows) == IdClaims(given=(), joined=())


def test_the_claims_do_not_depend_on_the_order_of_the_rows() -> None:
    rows = [
        _row("openalex:A702", 7, "2706.00705"),
        _row("s2:741", 9, "2703.00702", holder=4),
        _row("openalex:A742", 9, "2707.00706", holder=4),
        _row("openalex:A702", 7, "2709.00708"),
    ]
    assert id_claims(rows) == id_claims(reversed(rows))
    assert id_claims(rows) == IdClaims(
        given=(("openalex:A702", 7),), joined=((4, 9, ("openalex:A742", "s2:741")),)
    )


def test_an_id_a_researcher_holds_by_a_slot_is_left_to_the_pass_which_reads_both_blocks() -> None:
    rows = [
        _row("s2:1501", 7, "2507.01506", holder=2, holder_block="j lee", holder_has_slots=True),
        _row(
            "orcid:0000-0002-1825-0097",
            7,
            "2507.01506",
            holder=5,
            holder_block="j li",
            holder_has_slots=True,
        ),
    ]
    assert id_claims(rows) == IdClaims(given=(), joined=())
    assert id_links(rows) == {("j li", "j lee")}


def test_an_orcid_nobody_holds_is_not_given_by_a_slot_alone() -> None:
    assert id_claims([_row("orcid:0000-0002-1825-0097", 7, "2706.00705")]) == IdClaims((), ())


def test_a_slotless_holder_of_an_orcid_on_one_researchers_slots_is_joined_to_them() -> None:
    rows = [_row("orcid:0000-0002-1825-0097", 7, "2208.00033", holder=3, holder_block="s petit")]
    assert id_claims(rows) == IdClaims(given=(), joined=((3, 7, ("orcid:0000-0002-1825-0097",)),))
