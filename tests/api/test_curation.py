"""Curator mutations: behind the token, recorded, and reflected in the graph."""

from __future__ import annotations

from typing import Any

import pytest

from scholargraph.graph.db import Database
from scholargraph.queries import Query
from tests.api.conftest import CURATOR_TOKEN, Api
from tests.api.graphdata import (
    BULUC,
    CHENG,
    DEMMEL,
    DU,
    GILBERT,
    MERGED_Z_LIU,
    YOU,
    ZIMING,
    ZIMING_MIT,
    ZIMING_TJU,
)

MERGE = """
mutation($survivor: ID!, $merged: [ID!]!, $reason: String!) {
  merge(survivor: $survivor, merged: $merged, reason: $reason, actor: "ana") {
    event { id kind actor reason at papers roles { researcherId role researcher { id: key } } }
    researchers { id: key paperCount }
  }
}
"""
SPLIT = """
mutation($researcher: ID!, $papers: [String!]!, $into: ID) {
  split(researcher: $researcher, papers: $papers, into: $into, reason: "two people") {
    event { kind papers roles { researcherId role } }
    researchers { id: key name paperCount }
  }
}
"""
DISTINCT = """
mutation($a: ID!, $b: ID!) {
  markDistinct(researcher: $a, other: $b, reason: "different fields") { event { kind } }
}
"""
PIN = """
mutation($researcher: ID!, $paper: String!) {
  pinPaper(researcher: $researcher, paper: $paper, reason: "checked the PDF") {
    event { kind papers }
  }
}
"""
PROFILE = """
query($id: ID!) {
  researcher(id: $id) {
    id: key paperCount altNames orcid
    identity { mergedFrom s2Ids }
    coauthors(first: 20) { edges { jointPapers node { id: key } } }
    papers { edges { node { id: key } authorship { method pinned confidence } } }
    curationEvents { kind actor reason roles { researcherId role } }
  }
}
"""


async def profile(api: Api, researcher: int) -> dict[str, Any]:
    data = await api.data(PROFILE, {"id": str(researcher)})
    result: dict[str, Any] = data["researcher"]
    return result


@pytest.mark.parametrize("token", [None, "wrong-token"])
async def test_mutations_need_the_curator_token(api: Api, token: str | None) -> None:
    body, errors = await api.errors(
        MERGE, {"survivor": str(ZIMING), "merged": [str(ZIMING_TJU)], "reason": "x"}, token=token
    )
    assert body["data"] is None
    assert api.codes(errors) == ["UNAUTHENTICATED"]
    assert "SCHOLARGRAPH_CURATOR_TOKEN" in errors[0]["message"]
    assert (await profile(api, ZIMING_TJU))["id"] == str(ZIMING_TJU)  # nothing changed


async def test_merge_moves_everything_and_is_recorded(api: Api) -> None:
    variables = {"survivor": str(ZIMING), "merged": [str(ZIMING_TJU)], "reason": "same person"}
    result = (await api.data(MERGE, variables, token=CURATOR_TOKEN))["merge"]
    event = result["event"]
    assert (event["kind"], event["actor"], event["reason"]) == ("MERGE", "ana", "same person")
    assert event["papers"] == ["2302.00009"]
    assert {(r["researcherId"], r["role"]) for r in event["roles"]} == {
        (str(ZIMING), "SURVIVOR"),
        (str(ZIMING_TJU), "MERGED"),
    }
    assert {r["id"]: r["paperCount"] for r in result["researchers"]} == {
        str(ZIMING): 2,
        str(ZIMING_TJU): 0,
    }
    survivor = await profile(api, ZIMING_TJU)  # the merged id now resolves to the survivor
    assert survivor["id"] == str(ZIMING)
    assert sorted(survivor["identity"]["mergedFrom"]) == sorted(
        [str(MERGED_Z_LIU), str(ZIMING_TJU)]
    )
    assert [e["node"]["id"] for e in survivor["papers"]["edges"]] == ["2302.00009", "2301.08658"]
    # COAUTHOR rebuilt: You and Ziming now share two papers.
    joint = {int(e["node"]["id"]): e["jointPapers"] for e in survivor["coauthors"]["edges"]}
    assert joint == {YOU: 2, CHENG: 1, DU: 1}
    assert survivor["curationEvents"][0]["kind"] == "MERGE"
    you = await profile(api, YOU)
    you_joint = {int(e["node"]["id"]): e["jointPapers"] for e in you["coauthors"]["edges"]}
    assert ZIMING_TJU not in you_joint and you_joint[ZIMING] == 2


@pytest.mark.parametrize(
    ("survivor", "merged", "why"),
    [
        (DEMMEL, BULUC, "both authors of 1506.00002"),
        (ZIMING, MERGED_Z_LIU, "already merged"),
    ],
)
async def test_merges_that_contradict_the_graph_are_refused(
    api: Api, survivor: int, merged: int, why: str
) -> None:
    variables = {"survivor": str(survivor), "merged": [str(merged)], "reason": "try"}
    _, errors = await api.errors(MERGE, variables, token=CURATOR_TOKEN)
    assert api.codes(errors) == ["CONFLICT"]
    assert why in errors[0]["message"]


async def test_distinct_researchers_cannot_be_merged(api: Api) -> None:
    await api.data(DISTINCT, {"a": str(ZIMING), "b": str(ZIMING_MIT)}, token=CURATOR_TOKEN)
    variables = {"survivor": str(ZIMING_MIT), "merged": [str(ZIMING)], "reason": "try"}
    _, errors = await api.errors(MERGE, variables, token=CURATOR_TOKEN)
    assert api.codes(errors) == ["CONFLICT"]
    assert "marked distinct" in errors[0]["message"]
    same = await api.data(
        "query($id: ID!) { researcher(id: $id) { sameName { records {"
        " researcher { id: key } markedDistinct } } } }",
        {"id": str(ZIMING)},
    )
    marked = {
        r["researcher"]["id"]: r["markedDistinct"]
        for r in same["researcher"]["sameName"]["records"]
    }
    assert marked[str(ZIMING_MIT)] is True


async def test_split_to_a_new_researcher_pins_the_moved_slots(api: Api, graph: Database) -> None:
    variables = {"researcher": str(YOU), "papers": ["1905.00001v2"]}
    result = (await api.data(SPLIT, variables, token=CURATOR_TOKEN))["split"]
    assert result["event"]["papers"] == ["1905.00001"]
    roles = {r["role"]: int(r["researcherId"]) for r in result["event"]["roles"]}
    new = roles["TARGET"]
    assert roles["SOURCE"] == YOU and new not in (YOU, DEMMEL)
    created = await profile(api, new)
    assert created["paperCount"] == 1
    assert created["papers"]["edges"][0]["authorship"] == {
        "method": "CURATOR",
        "pinned": True,
        "confidence": 1.0,
    }
    assert [int(e["node"]["id"]) for e in created["coauthors"]["edges"]] == [DEMMEL]
    you = await profile(api, YOU)
    assert you["paperCount"] == 5
    assert DEMMEL not in {int(e["node"]["id"]) for e in you["coauthors"]["edges"]}
    rows = await graph.run(_DISTINCT_PAIRS, {"a": YOU, "b": new})
    assert rows == [{"n": 1}]


_DISTINCT_PAIRS = Query(
    "test_curation.distinct_pairs",
    "MATCH (:Researcher {id: $a})-[d:DISTINCT_FROM]-(:Researcher {id: $b}) RETURN count(d) AS n",
)


async def test_split_back_into_a_merged_researcher_revives_it(api: Api) -> None:
    merge = {"survivor": str(ZIMING), "merged": [str(ZIMING_TJU)], "reason": "looked alike"}
    await api.data(MERGE, merge, token=CURATOR_TOKEN)
    variables = {"researcher": str(ZIMING), "papers": ["2302.00009"], "into": str(ZIMING_TJU)}
    await api.data(SPLIT, variables, token=CURATOR_TOKEN)
    revived = await profile(api, ZIMING_TJU)
    assert revived["id"] == str(ZIMING_TJU)
    assert [e["node"]["id"] for e in revived["papers"]["edges"]] == ["2302.00009"]
    assert [e["kind"] for e in revived["curationEvents"]] == ["SPLIT", "MERGE"]


async def test_split_of_a_paper_they_did_not_write_is_not_found(api: Api) -> None:
    variables = {"researcher": str(YOU), "papers": ["1203.00003"]}
    _, errors = await api.errors(SPLIT, variables, token=CURATOR_TOKEN)
    assert api.codes(errors) == ["NOT_FOUND"]
    assert (await profile(api, YOU))["paperCount"] == 6  # rolled back


async def test_pin_paper(api: Api) -> None:
    variables = {"researcher": str(BULUC), "paper": "1203.00003"}
    result = await api.data(PIN, variables, token=CURATOR_TOKEN)
    assert result["pinPaper"]["event"] == {"kind": "PIN", "papers": ["1203.00003"]}
    path = await api.data(
        "query($a: ID!, $b: ID!) { collaborationPath(from: $a, to: $b) { chains { uncertain } } }",
        {"a": str(BULUC), "b": str(GILBERT)},
    )
    # The 0.6 same-name match is now a curator's decision: the hop is no longer uncertain.
    assert path["collaborationPath"]["chains"] == [{"uncertain": False}]
    _, errors = await api.errors(
        PIN, {"researcher": str(YOU), "paper": "1203.00003"}, token=CURATOR_TOKEN
    )
    assert api.codes(errors) == ["BAD_INPUT"]


async def test_a_decision_needs_a_reason(api: Api) -> None:
    variables = {"survivor": str(ZIMING), "merged": [str(ZIMING_TJU)], "reason": " "}
    _, errors = await api.errors(MERGE, variables, token=CURATOR_TOKEN)
    assert api.codes(errors) == ["BAD_INPUT"]
