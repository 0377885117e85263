"""The root paper list with filters and sorts, and search."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import Api
from tests.api.graphdata import NUS, YOU, ZIMING, ZIMING_ORCID

PAPERS = """
query($filter: PaperFilterInput, $sort: PaperSort = NEWEST, $first: Int = 24, $after: String) {
  papers(filter: $filter, sort: $sort, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id: key citationCount } }
  }
}
"""


async def papers(api: Api, **variables: Any) -> dict[str, Any]:
    result: dict[str, Any] = (await api.data(PAPERS, variables))["papers"]
    return result


def ids(connection: dict[str, Any]) -> list[str]:
    return [e["node"]["id"] for e in connection["edges"]]


async def test_every_paper_newest_first(api: Api) -> None:
    found = await papers(api)
    assert found["totalCount"] == 11
    assert ids(found)[0] == "2302.00009"
    assert ids(found)[-1] == "astro-ph/9901001"


@pytest.mark.parametrize(
    ("paper_filter", "expected"),
    [
        (
            {"category": "cs.LG"},
            ["2109.00006", "2107.00007", "2105.00005", "2004.00004", "1905.00001"],
        ),
        ({"category": "cs.LG", "yearFrom": 2021}, ["2109.00006", "2107.00007", "2105.00005"]),
        ({"researcher": str(ZIMING)}, ["2301.08658"]),
        ({"researcher": str(YOU), "yearTo": 2020}, ["2004.00004", "1905.00001"]),
        ({"institution": "NUS"}, ["2302.00009", "2301.08658", "2210.00008", "2107.00007"]),
        ({"institution": str(NUS), "category": "cs.LG"}, ["2107.00007"]),
        ({"yearFrom": 1990, "yearTo": 2000}, ["astro-ph/9901001"]),
    ],
)
async def test_filters(api: Api, paper_filter: dict[str, Any], expected: list[str]) -> None:
    found = await papers(api, filter=paper_filter)
    assert ids(found) == expected
    assert found["totalCount"] == len(expected)


async def test_most_cited_first_pages_through_every_paper_once(api: Api) -> None:
    everything = await papers(api, sort="MOST_CITED")
    counts = [e["node"]["citationCount"] for e in everything["edges"]]
    assert counts[:3] == [900, 300, 70]
    assert counts[-1] is None  # unknown counts come last
    seen: list[str] = []
    after = None
    while True:
        chunk = await papers(api, sort="MOST_CITED", first=3, after=after)
        seen.extend(ids(chunk))
        if not chunk["pageInfo"]["hasNextPage"]:
            break
        after = chunk["pageInfo"]["endCursor"]
    assert seen == ids(everything)


async def test_a_cursor_of_another_list_or_garbage_is_bad_input(api: Api) -> None:
    newest = await papers(api, first=1)
    _, errors = await api.errors(
        PAPERS, {"sort": "MOST_CITED", "after": newest["pageInfo"]["endCursor"]}
    )
    assert api.codes(errors) == ["BAD_INPUT"]
    _, errors = await api.errors(PAPERS, {"after": "!!!"})
    assert api.codes(errors) == ["BAD_INPUT"]


async def test_filters_with_unknown_things_say_so(api: Api) -> None:
    _, errors = await api.errors(PAPERS, {"filter": {"category": "cs.XX"}})
    assert api.codes(errors) == ["NOT_FOUND"]
    _, errors = await api.errors(PAPERS, {"filter": {"institution": "Atlantis University"}})
    assert api.codes(errors) == ["NOT_FOUND"]
    _, errors = await api.errors(PAPERS, {"filter": {"yearFrom": 2022, "yearTo": 2020}})
    assert api.codes(errors) == ["BAD_INPUT"]


SEARCH = """
query($q: String!, $kinds: [SearchKind!], $first: Int = 10, $after: String) {
  search(query: $q, kinds: $kinds, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges {
      kind score
      node {
        __typename
        ... on Paper { id: key title }
        ... on Researcher { id: key name }
        ... on Institution { id: key name }
      }
    }
  }
}
"""


async def search(api: Api, query: str, **variables: Any) -> dict[str, Any]:
    result: dict[str, Any] = (await api.data(SEARCH, {"q": query, **variables}))["search"]
    return result


async def test_search_names_across_kinds(api: Api) -> None:
    found = await search(api, "ziming liu", kinds=["RESEARCHER"])
    assert {e["node"]["name"] for e in found["edges"]} == {"Ziming Liu"}
    assert found["totalCount"] == 4  # the merged-away "Z. Liu" is not offered
    assert all(e["kind"] == "RESEARCHER" for e in found["edges"])
    scores = [e["score"] for e in found["edges"]]
    assert scores == sorted(scores, reverse=True)


async def test_search_titles_and_institutions_together(api: Api) -> None:
    found = await search(api, "tensor parallel")
    assert found["edges"][0]["node"] == {
        "__typename": "Paper",
        "id": "2301.08658",
        "title": "ATP: Adaptive Tensor Parallelism for Foundation Models",
    }
    berkeley = await search(api, "berkeley")
    assert berkeley["edges"][0]["node"]["__typename"] == "Institution"


async def test_search_pages_with_cursors(api: Api) -> None:
    first = await search(api, "liu", first=2)
    assert first["pageInfo"]["hasNextPage"] is True
    rest = await search(api, "liu", first=10, after=first["pageInfo"]["endCursor"])
    names = [e["node"] for e in first["edges"] + rest["edges"]]
    assert len(names) == first["totalCount"] == 5
    assert len({n["id"] for n in names}) == 5


@pytest.mark.parametrize(
    ("query", "typename", "entity"),
    [
        (ZIMING_ORCID, "Researcher", str(ZIMING)),
        (f"{ZIMING}-ziming-liu", "Researcher", str(ZIMING)),
        ("arXiv:2301.08658v1", "Paper", "2301.08658"),
        ("https://ror.org/01tgyzw49", "Institution", str(NUS)),
    ],
)
async def test_search_by_identifier(api: Api, query: str, typename: str, entity: str) -> None:
    found = await search(api, query)
    assert found["totalCount"] == 1
    assert found["edges"][0]["score"] == 1.0
    assert (found["edges"][0]["node"]["__typename"], found["edges"][0]["node"]["id"]) == (
        typename,
        entity,
    )


async def test_search_text_with_lucene_syntax_is_just_words(api: Api) -> None:
    found = await search(api, 'ATP: "tensor" AND (foundation) OR *')
    assert [e["node"]["id"] for e in found["edges"]] == []
    found = await search(api, "adaptive tensor")
    assert found["edges"][0]["node"]["id"] == "2301.08658"
    _, errors = await api.errors(SEARCH, {"q": "   "})
    assert api.codes(errors) == ["BAD_INPUT"]
