"""The network's maxAuthors: ties recounted from the papers with at most K authors."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import Api
from tests.api.graphdata import (
    AHN,
    BAKER,
    BULUC,
    CHENG,
    COLE,
    DEMMEL,
    DU,
    HSIEH,
    KEUTZER,
    YOU,
    ZIMING,
    ZIMING_TJU,
)
from tests.api.test_network_and_paths import assert_drawable, network

WITH_MAX_AUTHORS = """
query($id: ID!, $k: Int, $depth: Int = 1, $min: Int = 1, $from: Int) {
  researcher(id: $id) {
    network(depth: $depth, minJointPapers: $min, yearFrom: $from, maxAuthors: $k) {
      center truncated modularity communityCount
      nodes { id name hop community x y paperCount meanYear }
      edges { source target jointPapers firstYear lastYear }
    }
  }
}
"""


async def small_paper_network(api: Api, center: int, k: int, **variables: object) -> dict[str, Any]:
    data = await api.data(WITH_MAX_AUTHORS, {"id": str(center), "k": k, **variables})
    result: dict[str, Any] = data["researcher"]["network"]
    return result


def ties(found: dict[str, Any]) -> dict[tuple[int, int], int]:
    return {(int(e["source"]), int(e["target"])): e["jointPapers"] for e in found["edges"]}


async def test_large_papers_add_no_ties(api: Api) -> None:
    # The ATP paper and the alphabetical survey have four authors; 2302.00009 has three.
    found = await small_paper_network(api, YOU, 3)
    assert_drawable(found)
    assert sorted(int(n["id"]) for n in found["nodes"]) == sorted([YOU, DEMMEL, HSIEH, ZIMING_TJU])
    assert ties(found) == {(YOU, DEMMEL): 1, (YOU, HSIEH): 2, (YOU, ZIMING_TJU): 1}
    pairs_only = await small_paper_network(api, YOU, 2)
    assert sorted(int(n["id"]) for n in pairs_only["nodes"]) == [YOU, DEMMEL, HSIEH]


async def test_a_cap_above_every_paper_matches_the_coauthor_edges(api: Api) -> None:
    capped = await small_paper_network(api, YOU, 4)
    plain = await network(api, YOU)
    assert ties(capped) == ties(plain)
    # The ring's own ties (among the ATP authors, among the survey's) are recounted too.
    ring = {CHENG, ZIMING, DU, AHN, BAKER, COLE}
    assert sum(1 for a, b in ties(capped) if a in ring and b in ring) == 6


async def test_thresholds_apply_to_the_recounted_ties(api: Api) -> None:
    strong = await small_paper_network(api, YOU, 3, min=2)
    assert [int(n["id"]) for n in strong["nodes"]] == [YOU, HSIEH]
    recent = await small_paper_network(api, YOU, 3, **{"from": 2020})
    assert sorted(int(n["id"]) for n in recent["nodes"]) == sorted([YOU, HSIEH, ZIMING_TJU])
    two_hops = await small_paper_network(api, YOU, 2, depth=2)
    hops = {int(n["id"]): n["hop"] for n in two_hops["nodes"]}
    assert hops == {YOU: 0, DEMMEL: 1, HSIEH: 1, BULUC: 2, KEUTZER: 2}


async def test_a_cap_below_two_is_refused(api: Api) -> None:
    _, errors = await api.errors(WITH_MAX_AUTHORS, {"id": str(YOU), "k": 1})
    assert api.codes(errors) == ["BAD_INPUT"]
