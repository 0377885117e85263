"""``benchmarks.order_cases`` and ``benchmarks.bench_order_cases``: the cases are the same for
a seed, hold only the kinds asked for, and say which they hold; a case loads in each order."""

from __future__ import annotations

import pytest

from benchmarks.bench_order_cases import ORDERS, state
from benchmarks.order_cases import KINDS, SOURCES, case
from scholargraph.graph.db import Database


def _printed(seed: int, kinds: frozenset[str]) -> list[tuple[str, str, tuple[str, ...]]]:
    one = case(seed, kinds)
    return [
        (source, p.arxiv_id or "", tuple(a.raw_name for a in p.authorships))
        for source in SOURCES
        for p in one.batches[source].papers
    ]


def test_a_seed_gives_one_case() -> None:
    assert _printed(9, frozenset(KINDS)) == _printed(9, frozenset(KINDS))
    assert _printed(9, frozenset(KINDS)) != _printed(10, frozenset(KINDS))


def test_a_case_holds_only_the_kinds_asked_for_and_names_those_it_holds() -> None:
    for seed in range(1, 41):
        plain = case(seed, frozenset())
        assert plain.kinds == frozenset()
        names = {
            a.raw_name for b in plain.batches.values() for p in b.papers for a in p.authorships
        }
        assert "Jun Lee" not in names
        ids = [
            (a.author.s2_ids or a.author.openalex_ids)[0]
            for b in plain.batches.values()
            for p in b.papers
            for a in p.authorships
            if a.author.s2_ids or a.author.openalex_ids
        ]
        assert all(i.endswith("1") for i in ids)  # no person given a second id
        full = case(seed, frozenset(KINDS))
        assert full.kinds <= set(KINDS)
        printed = {
            a.raw_name for b in full.batches.values() for p in b.papers for a in p.authorships
        }
        assert ("apart" in full.kinds) == ("Jun Lee" in printed)


def test_every_source_gives_each_of_its_papers_authors_at_consecutive_positions() -> None:
    one = case(3)
    arxiv = {p.arxiv_id for p in one.batches["arxiv"].papers}
    for source in SOURCES:
        for p in one.batches[source].papers:
            assert p.arxiv_id in arxiv
            assert [a.position for a in p.authorships] == list(range(1, len(p.authorships) + 1))


async def test_the_case_whose_merge_once_failed_its_load_loads_in_every_order(db: Database) -> None:
    one = case(9)
    assert "split" in one.kinds
    states = [await state(db, one, order) for order in ORDERS]
    assert all(s["counts"] for s in states)


@pytest.mark.parametrize("seed", [34, 68, 81])
async def test_cases_whose_orders_once_differed_give_one_graph_in_every_order(
    db: Database, seed: int
) -> None:
    """34: a name's score took another source's author from his own position; 68: an id new
    to the graph joined another author of the same paper; 81: the same, through a merge the
    batch's other id made."""
    one = case(seed)
    first, *others = [await state(db, one, order) for order in ORDERS]
    assert all(other == first for other in others)
