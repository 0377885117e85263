"""The write plan is a pure function of the records and the snapshot read for them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scholargraph.graph.identity.plan import BatchPlan, plan
from scholargraph.graph.identity.snapshot import Holder, PaperHolders, ResearcherState, Snapshot
from scholargraph.graph.loaders.writer import prepare_papers
from scholargraph.graph.records import PaperRecord
from tests.loaders.records_factory import author, paper

ADA, BOB = 1_000_001, 1_000_002


def _plan(records: Sequence[PaperRecord], snapshot: Snapshot) -> BatchPlan:
    return plan(list(prepare_papers(list(records), 100).papers), snapshot)


def _holder(
    paper_key: str, position: int, researcher: int, name: str, **row: Any
) -> tuple[str, Holder]:
    source = row.pop("source", "arxiv")
    return paper_key, Holder.from_row(
        {
            "paper": paper_key,
            "position": position,
            "researcher": researcher,
            "name": name,
            "raw_name": name,
            "mentions": [f"{source}:new:{name}"],
            "orcid": None,
            "pinned": False,
            "source": source,
            "sources": [source],
            "method": "new",
            "confidence": 1.0,
            "has_ids": False,
            **row,
        }
    )


def _snapshot(*holders: tuple[str, Holder], **more: Any) -> Snapshot:
    papers: dict[str, list[Holder]] = {}
    for paper_key, holder in holders:
        papers.setdefault(paper_key, []).append(holder)
    return Snapshot(papers={k: PaperHolders.of(v) for k, v in papers.items()}, **more)


def _states(*ids: int) -> dict[int, ResearcherState]:
    return {rid: ResearcherState(rid, None, None, frozenset()) for rid in ids}


def test_new_researchers_get_placeholders_and_planning_twice_gives_one_plan() -> None:
    records = [paper("2101.00001", ["Ada Lovelace", "Bob Babbage"])]
    first, second = _plan(records, Snapshot()), _plan(records, Snapshot())
    assert first == second
    assert len(first.new_groups) == 2
    assert sorted(row["id"] for row in first.researchers) == [-2, -1]
    assert {row["researcher"] for row in first.authorships} == {-1, -2}
    assert [list(row[:3]) for row in first.coauthors] == [[-2, -1, 1]]


def test_a_slot_a_better_source_holds_takes_the_other_sources_mention() -> None:
    snapshot = _snapshot(_holder("2107.00001", 2, BOB, "John Smith"))
    openalex = author("Wei Zhang", "openalex", openalex="A9")
    batch = _plan([paper("2107.00001", ["Ada Lovelace", openalex], source="openalex")], snapshot)
    second = next(row for row in batch.authorships if row["position"] == 2)
    assert second["researcher"] == BOB
    assert (second["method"], second["confidence"]) == ("cross_source", 0.5)
    assert second["mention"] == "openalex:cross_source:Wei Zhang"
    assert batch.identifiers == ()  # a slot aligned by position alone vouches for no id
    assert [row["name"] for row in batch.researchers] == ["Ada Lovelace"]


def test_a_slot_the_owner_of_the_author_order_writes_takes_the_held_edge() -> None:
    snapshot = _snapshot(_holder("2107.00001", 2, BOB, "Wei Zhang", source="openalex"))
    batch = _plan([paper("2107.00001", ["Ada Lovelace", "John Smith"])], snapshot)
    second = next(row for row in batch.authorships if row["position"] == 2)
    assert second["researcher"] < 0  # a new researcher for arXiv's John Smith
    assert [(f["researcher"], f["into"]) for f in batch.folds] == [(BOB, second["researcher"])]
    assert batch.retire[0]["researcher"] == BOB and batch.rebuild == (BOB,)


def test_one_new_id_on_two_held_slots_merges_their_holders() -> None:
    snapshot = _snapshot(
        _holder("1843.00001", 1, ADA, "Ada Lovelace"),
        _holder("1843.00002", 1, BOB, "Ada Lovelace"),
        states=_states(ADA, BOB),
    )
    ada = author("Ada Lovelace", "s2", s2="7")
    batch = _plan(
        [
            paper("1843.00001", [ada], source="s2"),
            paper("1843.00002", [ada], source="s2"),
        ],
        snapshot,
    )
    assert [(m.survivor, m.merged) for m in batch.merges] == [(ADA, BOB)]
    assert {row["researcher"] for row in batch.authorships} == {ADA}
    assert [(row["key"], row["researcher"]) for row in batch.identifiers] == [("s2:7", ADA)]


def test_a_slot_with_a_new_id_joins_the_researcher_another_slot_brought_it_to() -> None:
    snapshot = _snapshot(_holder("1843.00001", 1, ADA, "Ada Lovelace"))
    ada = author("Ada Lovelace", "s2", s2="7")
    batch = _plan(
        [
            paper("1843.00001", [ada], source="s2"),
            paper("1852.00001", [ada, author("Bob Babbage", "s2", s2="8")], source="s2"),
        ],
        snapshot,
    )
    by_paper = {(r["paper"], r["position"]): r for r in batch.authorships}
    assert by_paper[("1852.00001", 1)]["researcher"] == ADA
    assert by_paper[("1852.00001", 1)]["method"] == "s2_id"
    assert len(batch.new_groups) == 1  # Bob only


def test_a_curator_distinct_mark_keeps_two_holders_of_one_id_apart() -> None:
    states = _states(ADA, BOB)
    states[ADA] = ResearcherState(ADA, None, None, frozenset({BOB}))
    snapshot = _snapshot(
        _holder("1843.00001", 1, ADA, "Ada Lovelace"),
        _holder("1843.00002", 1, BOB, "Ada Lovelace"),
        states=states,
    )
    ada = author("Ada Lovelace", "s2", s2="7")
    batch = _plan(
        [paper("1843.00001", [ada], source="s2"), paper("1843.00002", [ada], source="s2")],
        snapshot,
    )
    assert batch.merges == ()
    assert sorted(row["researcher"] for row in batch.authorships) == [ADA, BOB]


def test_a_holder_merged_in_the_batch_into_the_slots_researcher_is_not_folded_into_itself() -> None:
    """A slot's id finds CARL; the name-only holder of the slot, ADA, and CARL are merged in
    the same batch (the id's slot on another paper is ADA's too). After the merge the edge is
    the survivor's own: folding it into itself would delete the slot."""
    carl = 1_000_003
    snapshot = _snapshot(
        _holder("2207.00208", 9, ADA, "S. Mohammadi"),
        _holder("2208.00018", 3, ADA, "S. Mohammadi", has_ids=True, source_ids=["openalex:A1"]),
        _holder("2105.00228", 5, carl, "Sara Mohammadi", has_ids=True),
        identifiers={"s2:7": carl},
        states=_states(ADA, carl),
    )
    sara = author("S. Mohammadi", "s2", s2="7")
    batch = _plan(
        [
            paper("2207.00208", [*(f"Other Author{i}" for i in range(8)), sara], source="s2"),
            paper("2208.00018", ["Wei Wang", "Bo Li", sara], source="s2"),
        ],
        snapshot,
    )
    assert [{m.survivor, m.merged} for m in batch.merges] == [{ADA, carl}]
    survivor = batch.merges[0].survivor
    assert [(f["researcher"], f["into"]) for f in batch.folds if f["researcher"] == f["into"]] == []
    ninth = next(r for r in batch.authorships if (r["paper"], r["position"]) == ("2207.00208", 9))
    assert ninth["researcher"] == survivor


def test_a_slot_whose_holder_arrives_by_a_swap_is_aligned_by_name_and_takes_its_ids() -> None:
    """arXiv gave "H. Xu" (1) to the Honghan Xu of another paper (ADA, by name) and
    "Honghan Xu" (2) to a new researcher (BOB). OpenAlex's ORCID puts ADA at 2: the two
    exchange their edges, and OpenAlex's "H. Xu" at 1, with its new author id, is BOB's by
    name as well as by position — the id goes with it, as it would had OpenAlex come first."""
    orcid = "0000-0002-1825-0097"
    snapshot = _snapshot(
        _holder("2103.00108", 1, ADA, "Honghan Xu", raw_name="H. Xu", mentions=["arxiv:new:H. Xu"]),
        _holder("2103.00108", 2, BOB, "Honghan Xu"),
        identifiers={f"orcid:{orcid}": ADA},
        states=_states(ADA, BOB),
    )
    records = [
        author("H. Xu", "openalex", openalex="A5830414798"),
        author("Honghan Xu", "openalex", orcid=orcid),
    ]
    batch = _plan([paper("2103.00108", records, source="openalex")], snapshot)
    assert [(s["first"], s["second"]) for s in batch.swaps] == [(ADA, BOB)]
    first = next(r for r in batch.authorships if r["position"] == 1)
    assert (first["researcher"], first["method"], first["confidence"]) == (
        BOB,
        "cross_source",
        1.0,
    )
    assert ("openalex:A5830414798", BOB) in [(r["key"], r["researcher"]) for r in batch.identifiers]


def test_a_name_placed_edge_goes_to_the_new_person_an_orcid_at_its_position_names() -> None:
    """arXiv's "R. Virtanen" was placed by name with the Riikka Virtanen of another paper
    (ADA, ORCID …0993). OpenAlex prints "R. Virtanen" at that position with another ORCID:
    another person, who takes the edge (fold) as she would hold it had OpenAlex come first,
    where an alignment by position alone would give ADA a slot her ORCID says is not hers."""
    snapshot = _snapshot(
        _holder(
            "2111.00030",
            1,
            ADA,
            "Riikka Virtanen",
            raw_name="R. Virtanen",
            mentions=["arxiv:name_score:R. Virtanen"],
            method="name_score",
            orcid="0000-0001-5482-0993",
            has_ids=True,
        ),
        states=_states(ADA),
    )
    other = author("R. Virtanen", "openalex", orcid="0000-0002-3070-5293", openalex="A53")
    batch = _plan([paper("2111.00030", [other], source="openalex")], snapshot)
    first = next(r for r in batch.authorships if r["position"] == 1)
    assert first["researcher"] < 0 and first["confidence"] == 1.0
    assert [(f["researcher"], f["into"]) for f in batch.folds] == [(ADA, first["researcher"])]
    assert {r["key"] for r in batch.identifiers} >= {"orcid:0000-0002-3070-5293", "openalex:A53"}


def test_a_name_placed_edge_goes_to_the_researcher_an_id_at_its_position_finds() -> None:
    """arXiv's "Wei Wang" was placed by name with BOB; OpenAlex's author id at that position
    is ADA's, and the two may not merge (different ORCIDs). The id decides: ADA takes the
    edge, as ADA would hold it had OpenAlex come first."""
    snapshot = _snapshot(
        _holder(
            "2308.00095",
            1,
            BOB,
            "Wei Wang",
            mentions=["arxiv:name_score:Wei Wang"],
            method="name_score",
            orcid="0000-0001-0000-0001",
            has_ids=True,
        ),
        identifiers={"openalex:A56": ADA},
        states={
            ADA: ResearcherState(ADA, "0000-0002-0000-0002", None, frozenset()),
            BOB: ResearcherState(BOB, "0000-0001-0000-0001", None, frozenset()),
        },
    )
    wang = author("Wei Wang", "openalex", openalex="A56")
    batch = _plan([paper("2308.00095", [wang], source="openalex")], snapshot)
    assert batch.merges == ()
    first = next(r for r in batch.authorships if r["position"] == 1)
    assert (first["researcher"], first["method"], first["confidence"]) == (ADA, "openalex_id", 1.0)
    assert [(f["researcher"], f["into"]) for f in batch.folds] == [(BOB, ADA)]


def test_an_id_held_by_the_author_at_another_position_leaves_each_position_to_its_holder() -> None:
    """arXiv placed "Hongrui Sun" (1, BOB) and "H. Sun" (2, ADA) by name; an earlier
    grouping left Hongrui's S2 author id with ADA. S2 prints both authors in the same order,
    under the same names: the id finds ADA, who holds position 2 by the order's source, while
    the record prints ADA's name there. The positions decide, each position keeps one
    researcher, and the id stays on the slot's edge for convergence to weigh."""
    both = {"sources": ["arxiv", "openalex"]}
    snapshot = _snapshot(
        _holder("1603.00028", 1, BOB, "Hongrui Sun", **both),
        _holder("1603.00028", 2, ADA, "Hongrui Sun", raw_name="H. Sun", **both),
        identifiers={"s2:802893003": ADA},
        states=_states(ADA, BOB),
    )
    records = [author("Hongrui Sun", "s2", s2="802893003"), author("H. Sun", "s2", s2="4711")]
    batch = _plan([paper("1603.00028", records, source="s2")], snapshot)
    held = sorted((r["position"], r["researcher"]) for r in batch.authorships)
    assert held == [(1, BOB), (2, ADA)]
    first = next(r for r in batch.authorships if r["position"] == 1)
    assert first["source_ids"] == ["s2:802893003"] and first["method"] == "cross_source"
    assert batch.folds == () and batch.merges == ()


def test_two_holders_folded_on_one_paper_have_their_own_tie_recounted() -> None:
    """Two name-placed holders of one paper fold into the researchers the ids name: the tie
    between the two of them loses that paper too, not only their ties with the others."""
    first, second = 1_000_003, 1_000_004
    snapshot = _snapshot(
        _holder("0808.0019", 1, first, "Ada Lovelace", source="s2", sources=["s2"]),
        _holder("0808.0019", 2, second, "Bob Babbage", source="s2", sources=["s2"]),
        identifiers={"openalex:A1": ADA, "openalex:A2": BOB},
        states=_states(ADA, BOB, first, second),
    )
    records = [
        author("Ada Lovelace", "openalex", openalex="A1"),
        author("Bob Babbage", "openalex", openalex="A2"),
    ]
    batch = _plan([paper("0808.0019", records, source="openalex")], snapshot)
    assert {(f["researcher"], f["into"]) for f in batch.folds} == {(first, ADA), (second, BOB)}
    assert (first, second) in batch.recount


def test_two_authors_of_one_paper_whose_names_join_blocks_stay_two_people() -> None:
    """``Mary T. Smith`` and ``M. Smith-Jones`` are clustered in one block (the hyphenated
    surname's variant is ``m smith``), but as two authors of one record they are two people,
    with or without their source's ids."""
    for source, ids in (("openalex", ("A5587860961", "A5129250335")), ("arxiv", (None, None))):
        names = [
            author("Paul Collins", source),
            author("Mary T. Smith", source, openalex=ids[0]),
            author("M. Zhang", source),
            author("M. Smith-Jones", source, openalex=ids[1]),
        ]
        planned = _plan([paper("2211.00232", names, source=source)], Snapshot())
        holders = {row["position"]: row["researcher"] for row in planned.authorships}
        assert sorted(holders) == [1, 2, 3, 4], source
        assert len(set(holders.values())) == 4, source
