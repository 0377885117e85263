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
