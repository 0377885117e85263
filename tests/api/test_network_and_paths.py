"""Coauthor networks ready to draw, and collaboration paths with their evidence."""

from __future__ import annotations

from typing import Any

import pytest

from scholargraph.graph.repo import network as network_repo
from tests.api.conftest import Api
from tests.api.graphdata import (
    BULUC,
    CHENG,
    DEMMEL,
    GILBERT,
    HSIEH,
    KEUTZER,
    MOREAU,
    YOU,
    ZIMING,
)

NETWORK = """
query($id: ID!, $depth: Int = 1, $max: Int = 200, $min: Int = 1, $from: Int, $to: Int) {
  researcher(id: $id) {
    network(depth: $depth, maxNodes: $max, minJointPapers: $min, yearFrom: $from, yearTo: $to) {
      center truncated modularity communityCount
      nodes { id name hop community x y paperCount meanYear }
      edges { source target jointPapers firstYear lastYear }
    }
  }
}
"""


async def network(api: Api, center: int, **variables: Any) -> dict[str, Any]:
    data = await api.data(NETWORK, {"id": str(center), **variables})
    result: dict[str, Any] = data["researcher"]["network"]
    return result


def assert_drawable(found: dict[str, Any]) -> None:
    ids = {n["id"] for n in found["nodes"]}
    assert len(ids) == len(found["nodes"])
    for edge in found["edges"]:
        assert edge["source"] in ids and edge["target"] in ids
        assert int(edge["source"]) < int(edge["target"])
    for node in found["nodes"]:
        assert -1.0 <= node["x"] <= 1.0 and -1.0 <= node["y"] <= 1.0
        assert 0 <= node["community"] < found["communityCount"]
    communities = {n["community"] for n in found["nodes"]}
    assert communities == set(range(found["communityCount"]))


async def test_one_hop_network(api: Api) -> None:
    found = await network(api, YOU)
    assert_drawable(found)
    assert found["center"] == str(YOU)
    assert len(found["nodes"]) == 10  # You and nine coauthors
    assert found["nodes"][0]["id"] == str(YOU) and found["nodes"][0]["hop"] == 0
    assert {n["hop"] for n in found["nodes"][1:]} == {1}
    # Nine ties of You's, and the ties among the other ATP authors and among the other
    # authors of the alphabetical paper.
    assert len(found["edges"]) == 9 + 3 + 3
    assert found["truncated"] is False
    you = found["nodes"][0]
    assert you["paperCount"] == 6
    assert you["meanYear"] == pytest.approx((2023 + 2019 + 2020 + 2021 + 2022 + 2023) / 6)


async def test_two_hops_strongest_ties_first_cut_at_max_nodes(api: Api) -> None:
    found = await network(api, YOU, depth=2)
    assert_drawable(found)
    hops = {int(n["id"]): n["hop"] for n in found["nodes"]}
    assert hops[KEUTZER] == 2 and hops[BULUC] == 2
    assert GILBERT not in hops
    small = await network(api, YOU, depth=2, max=3)
    assert small["truncated"] is True
    # Hsieh (two joint papers) comes before everyone with one; among those, the lowest id.
    assert [int(n["id"]) for n in small["nodes"]] == [YOU, CHENG, HSIEH]


GRAPHOLOGY = """
query($id: ID!) { researcher(id: $id) { network(depth: 2, maxNodes: 3) { graphology } } }
"""


async def test_graphology_value_is_the_same_network(api: Api) -> None:
    typed = await network(api, YOU, depth=2, max=3)
    data = await api.data(GRAPHOLOGY, {"id": str(YOU)})
    value = data["researcher"]["network"]["graphology"]
    assert value["options"] == {"type": "undirected", "multi": False, "allowSelfLoops": False}
    assert value["attributes"] == {
        "center": str(YOU),
        "truncated": True,
        "modularity": typed["modularity"],
        "communityCount": typed["communityCount"],
    }
    assert [
        {"id": n["key"], **{k: n["attributes"][k] for k in ("name", "hop", "community", "x", "y")}}
        for n in value["nodes"]
    ] == [{k: n[k] for k in ("id", "name", "hop", "community", "x", "y")} for n in typed["nodes"]]
    assert [
        {"source": e["source"], "target": e["target"], **e["attributes"]} for e in value["edges"]
    ] == typed["edges"]
    # graphology keys the ties itself on import, undirected as the graph's type says
    assert all(set(e) == {"source", "target", "attributes"} for e in value["edges"])


async def test_big_reads_split_in_two_give_the_same_network(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api.app.state.projections, "projection", None)  # on the database
    whole = await network(api, YOU, depth=2)
    monkeypatch.setattr(network_repo, "SPLIT_AT", 2)
    api.statements.clear()
    split = await network(api, YOU, depth=2)
    assert split == whole
    # the nodes and the second hop (the first is You alone) went as two halves each
    assert api.statements.count("read_network.nodes") == 2
    assert api.statements.count("read_network.edges_from") == 1 + 2


async def test_min_joint_papers_and_year_window(api: Api) -> None:
    strong = await network(api, YOU, min=2)
    assert [int(n["id"]) for n in strong["nodes"]] == [YOU, HSIEH]
    assert strong["edges"] == [
        {
            "source": str(YOU),
            "target": str(HSIEH),
            "jointPapers": 2,
            "firstYear": 2020,
            "lastYear": 2021,
        }
    ]
    early = await network(api, YOU, **{"from": 2015, "to": 2019})
    assert sorted(int(n["id"]) for n in early["nodes"]) == [YOU, DEMMEL]


async def test_a_loner_is_a_network_of_one(api: Api) -> None:
    found = await network(api, MOREAU, depth=2, min=2)
    assert [n["id"] for n in found["nodes"]] == [str(MOREAU)]
    assert found["edges"] == []
    assert found["communityCount"] == 1


PATH = """
query($from: ID!, $to: ID!, $max: Int = 6, $k: Int = 1, $yearFrom: Int, $category: String,
      $institution: String, $strongest: Boolean = false) {
  collaborationPath(from: $from, to: $to, maxLength: $max, k: $k, yearFrom: $yearFrom,
                    category: $category, institution: $institution, strongest: $strongest) {
    found distance maxLength message
    source { id: key } target { id: key }
    chains {
      length weakestHop totalJointPapers uncertain
      researchers { id: key }
      hops {
        source { id: key } target { id: key } jointPapers confidence uncertain
        papers { id: key year }
      }
    }
  }
}
"""


async def path(api: Api, a: int, b: int, **variables: Any) -> dict[str, Any]:
    data = await api.data(PATH, {"from": str(a), "to": str(b), **variables})
    result: dict[str, Any] = data["collaborationPath"]
    return result


def chain_ids(found: dict[str, Any]) -> list[list[int]]:
    return [[int(r["id"]) for r in chain["researchers"]] for chain in found["chains"]]


THROUGH_DEMMEL = [YOU, DEMMEL, BULUC, GILBERT]
THROUGH_HSIEH = [YOU, HSIEH, KEUTZER, GILBERT]


async def test_shortest_chains_with_the_papers_behind_each_hop(api: Api) -> None:
    found = await path(api, YOU, GILBERT, k=3)
    assert (found["found"], found["distance"]) == (True, 3)
    assert chain_ids(found) == [THROUGH_DEMMEL, THROUGH_HSIEH]
    demmel_route = found["chains"][0]
    assert [h["jointPapers"] for h in demmel_route["hops"]] == [1, 1, 1]
    assert [p["id"] for p in demmel_route["hops"][1]["papers"]] == ["1506.00002"]
    # Buluç's slot on the 2012 paper was matched by a same-name score (0.6).
    last = demmel_route["hops"][2]
    assert (last["confidence"], last["uncertain"]) == (0.6, True)
    assert demmel_route["uncertain"] is True
    hsieh_route = found["chains"][1]
    assert hsieh_route["uncertain"] is False
    assert [p["id"] for p in hsieh_route["hops"][0]["papers"]] == ["2107.00007", "2004.00004"]
    assert found["message"] == "Yang You and John R. Gilbert are 3 hops apart"


async def test_strongest_chain(api: Api) -> None:
    found = await path(api, YOU, GILBERT, strongest=True)
    assert chain_ids(found) == [THROUGH_HSIEH]
    assert (found["chains"][0]["weakestHop"], found["chains"][0]["totalJointPapers"]) == (1, 4)


@pytest.mark.parametrize(
    ("restriction", "expected"),
    [
        ({"yearFrom": 2016}, THROUGH_HSIEH),
        ({"category": "cs.LG"}, THROUGH_HSIEH),
        ({"institution": "UC Berkeley"}, THROUGH_DEMMEL),
    ],
)
async def test_restricted_paths(api: Api, restriction: dict[str, Any], expected: list[int]) -> None:
    found = await path(api, YOU, GILBERT, k=5, **restriction)
    assert chain_ids(found) == [expected]
    for hop in found["chains"][0]["hops"]:
        assert hop["papers"]
        if "yearFrom" in restriction:
            assert all(p["year"] >= restriction["yearFrom"] for p in hop["papers"])


async def test_one_restricted_chain(api: Api) -> None:
    found = await path(api, YOU, GILBERT, yearFrom=2016)
    assert chain_ids(found) == [THROUGH_HSIEH]
    assert (await path(api, YOU, GILBERT, institution="UC Berkeley"))["distance"] == 3


async def test_no_path_within_the_limit_says_so(api: Api) -> None:
    found = await path(api, ZIMING, GILBERT, max=3)
    assert (found["found"], found["distance"], found["chains"]) == (False, None, [])
    assert found["message"] == "no path within 3 hops from Ziming Liu to John R. Gilbert"
    assert (await path(api, ZIMING, GILBERT, max=4))["distance"] == 4
    assert (await path(api, ZIMING, MOREAU, max=8))["found"] is False


async def test_a_researcher_is_zero_hops_from_themself(api: Api) -> None:
    found = await path(api, YOU, YOU)
    assert (found["distance"], chain_ids(found)) == (0, [[YOU]])


async def test_path_limits(api: Api) -> None:
    _, errors = await api.errors(PATH, {"from": str(YOU), "to": str(GILBERT), "k": 6})
    assert api.codes(errors) == ["LIMIT_EXCEEDED"]
    _, errors = await api.errors(PATH, {"from": str(YOU), "to": str(GILBERT), "max": 0})
    assert api.codes(errors) == ["BAD_INPUT"]
    _, errors = await api.errors(PATH, {"from": str(YOU), "to": "12"})
    assert api.codes(errors) == ["NOT_FOUND"]
