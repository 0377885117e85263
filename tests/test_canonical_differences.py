"""Where two canonical dumps differ, as a failed assertion shows it."""

from __future__ import annotations

from scholargraph.graph.canonical import differences


def test_entries_only_one_dump_holds_are_named_on_each_side() -> None:
    left = {"ties": [[1, 2, {"joint": 1}], [2, 3, {"joint": 2}]], "researchers": {1: "Ada"}}
    right = {"ties": [[2, 4, {"joint": 2}], [1, 2, {"joint": 1}]], "researchers": {1: "Ada L."}}
    assert differences(left, right) == [
        "researchers[1]: 'Ada' != 'Ada L.'",
        "ties: only left [[2, 3, {'joint': 2}]]; only right [[2, 4, {'joint': 2}]]",
    ]
    assert differences(left, {**left, "ties": list(reversed(left["ties"]))}) == [
        "ties: the same entries in another order or count"
    ]
    assert differences(left, left) == []


def test_a_limit_keeps_the_first_places() -> None:
    left = {"researchers": {i: f"r{i}" for i in range(10)}}
    right = {"researchers": {i: f"s{i}" for i in range(10)}}
    found = differences(left, right, limit=3)
    assert found == [f"researchers[{i}]: 'r{i}' != 's{i}'" for i in range(3)]
