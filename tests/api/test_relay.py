"""Relay conventions: global ids, node(id:) and nodes(ids:), the nodes shortcut of
connections, and closed vocabularies as enums."""

from __future__ import annotations

import base64

import pytest

from tests.api.conftest import Api
from tests.api.graphdata import BERKELEY, MERGED_Z_LIU, YOU, ZIMING


def gid(type_name: str, key: object) -> str:
    """graphql-relay's toGlobalId, written out independently of the server's code."""
    return base64.b64encode(f"{type_name}:{key}".encode()).decode()


NODE = """
query($id: ID!) {
  node(id: $id) {
    __typename id
    ... on Researcher { key name }
    ... on Paper { key title }
    ... on Institution { key name }
    ... on Category { code name }
  }
}"""


async def test_every_node_type_round_trips_through_its_global_id(api: Api) -> None:
    data = await api.data(
        """{
          researcher(id: "2004394") { id key }
          paper(id: "2301.08658") { id key primaryCategory { id code } }
          institution(ref: "1") { id key }
        }"""
    )
    researcher, paper = data["researcher"], data["paper"]
    category, institution = paper["primaryCategory"], data["institution"]
    assert researcher == {"id": gid("Researcher", ZIMING), "key": str(ZIMING)}
    assert paper["id"] == gid("Paper", "2301.08658")
    assert institution == {"id": gid("Institution", BERKELEY), "key": str(BERKELEY)}
    assert category["id"] == gid("Category", category["code"])
    for obj, typename in [
        (researcher, "Researcher"),
        (paper, "Paper"),
        (institution, "Institution"),
        (category, "Category"),
    ]:
        found = (await api.data(NODE, {"id": obj["id"]}))["node"]
        assert found["__typename"] == typename
        assert found["id"] == obj["id"]


async def test_global_ids_are_accepted_where_keys_were(api: Api) -> None:
    by_key = await api.data(
        """{ researcher(id: "2004394") { name }
             paper(id: "2301.08658") { title }
             institution(ref: "1") { name }
             category(code: "cs.DC") { name } }"""
    )
    by_global = await api.data(
        """query($r: ID!, $p: String!, $i: String!, $c: String!) {
             researcher(id: $r) { name } paper(id: $p) { title }
             institution(ref: $i) { name } category(code: $c) { name } }""",
        {
            "r": gid("Researcher", ZIMING),
            "p": gid("Paper", "2301.08658"),
            "i": gid("Institution", BERKELEY),
            "c": gid("Category", "cs.DC"),
        },
    )
    assert by_global == by_key
    path = await api.data(
        """query($a: ID!, $b: ID!) { collaborationPath(from: $a, to: $b) { distance } }""",
        {"a": gid("Researcher", ZIMING), "b": str(YOU)},
    )
    assert path == await api.data(
        f'{{ collaborationPath(from: "{ZIMING}", to: "{YOU}") {{ distance }} }}'
    )
    assert path["collaborationPath"]["distance"] == 1
    filtered = await api.data(
        """query($r: ID!) { papers(filter: {researcher: $r}) { totalCount } }""",
        {"r": gid("Researcher", YOU)},
    )
    assert filtered == await api.data(
        f'{{ papers(filter: {{researcher: "{YOU}"}}) {{ totalCount }} }}'
    )


async def test_a_merged_away_researchers_global_id_gives_the_survivor(api: Api) -> None:
    found = (await api.data(NODE, {"id": gid("Researcher", MERGED_Z_LIU)}))["node"]
    assert found["key"] == str(ZIMING)
    assert found["id"] == gid("Researcher", ZIMING)


async def test_nodes_keeps_order_and_nulls_what_names_nothing(api: Api) -> None:
    ids = [gid("Paper", "2301.08658"), gid("Researcher", 1), gid("Researcher", YOU)]
    data = await api.data(
        "query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }", {"ids": ids}
    )
    assert data["nodes"] == [
        {"__typename": "Paper", "id": ids[0]},
        None,
        {"__typename": "Researcher", "id": ids[2]},
    ]
    assert (await api.data(NODE, {"id": gid("Category", "no.SUCH")})) == {"node": None}


@pytest.mark.parametrize(
    "bad",
    [
        "2004394",  # a key, not a global id: node(id:) cannot know its type
        "not base64!",
        base64.b64encode(b"Planet:3").decode(),
        base64.b64encode(b"Researcher:").decode(),
        base64.b64encode(b"\xff\xfe").decode(),
        base64.b64encode(b"Researcher:abc").decode(),
        base64.b64encode(b"Institution:Harvard").decode(),
        "x" * 5000,
    ],
)
async def test_a_bad_global_id_is_bad_input(api: Api, bad: str) -> None:
    body, errors = await api.errors(NODE, {"id": bad})
    assert body["data"] == {"node": None}
    assert api.codes(errors) == ["BAD_INPUT"]
    assert "global id" in errors[0]["message"] or "researcher id" in errors[0]["message"]
    _, errors = await api.errors(
        "query($ids: [ID!]!) { nodes(ids: $ids) { id } }", {"ids": [gid("Paper", "x"), bad]}
    )
    assert api.codes(errors) == ["BAD_INPUT"]


async def test_a_global_id_of_another_type_is_refused_by_a_typed_lookup(api: Api) -> None:
    _, errors = await api.errors(
        "query($id: ID!) { researcher(id: $id) { name } }", {"id": gid("Paper", "2301.08658")}
    )
    assert api.codes(errors) == ["BAD_INPUT"]
    assert "global id of a Paper, not of a Researcher" in errors[0]["message"]


async def test_nodes_takes_at_most_a_page_of_ids(api: Api) -> None:
    ids = [gid("Researcher", YOU)] * 101
    _, errors = await api.errors("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", {"ids": ids})
    assert api.codes(errors) == ["LIMIT_EXCEEDED"]


async def test_nodes_multiplies_the_cost_of_its_selection(api: Api) -> None:
    # 100 papers × 100 authors each is about 40,000 fields: under the cost limit (50,000) for
    # one researcher, past it for two, refused before anything runs.
    query = """query($ids: [ID!]!) { nodes(ids: $ids) { ... on Researcher {
      papers(first: 100) { edges { node { authors(first: 100) { edges { node { name } } } } } }
    } } }"""
    await api.data(query, {"ids": [gid("Researcher", YOU)]})
    _, errors = await api.errors(query, {"ids": [gid("Researcher", YOU)] * 2})
    assert api.codes(errors) == ["LIMIT_EXCEEDED"]
    assert "more than 50,000" in errors[0]["message"]
    inline = query.replace("$ids", "ids").replace("query(ids: [ID!]!) ", "")
    inline = inline.replace("nodes(ids: ids)", f'nodes(ids: ["{gid("Researcher", YOU)}", "x"])')
    _, errors = await api.errors(inline)
    assert api.codes(errors) == ["LIMIT_EXCEEDED"]


async def test_connections_have_a_nodes_shortcut(api: Api) -> None:
    data = await api.data(
        """{ researcher(id: "2004396") {
               papers(first: 3) { edges { node { key } } nodes { key } }
               coauthors(first: 3) { edges { node { key } } nodes { key } }
               affiliations(first: 3) { edges { node { key } } nodes { key } } }
             institution(ref: "1") {
               researchers(first: 3) { edges { node { key } } nodes { key } } }
             paper(id: "2301.08658") {
               authors(first: 3) { edges { node { key } } nodes { key } } }
             search(query: "tensor", first: 3) {
               edges { node { ... on Paper { key } } } nodes { ... on Paper { key } } } }"""
    )
    connections = [
        *data["researcher"].values(),
        data["institution"]["researchers"],
        data["paper"]["authors"],
        data["search"],
    ]
    for connection in connections:
        assert connection["nodes"], connection
        assert connection["nodes"] == [edge["node"] for edge in connection["edges"]]


async def test_closed_vocabularies_are_enums_on_the_wire(api: Api) -> None:
    data = await api.data(
        """{ paper(id: "2301.08658") {
               authors { edges { authorship { kind method source } } } }
             researcher(id: "2004394") {
               identity { externalIds { scheme method source } }
               affiliations { edges { sources } } } }"""
    )
    slots = [e["authorship"] for e in data["paper"]["authors"]["edges"]]
    assert [s["kind"] for s in slots] == ["FIRST", "MIDDLE", "MIDDLE", "LAST"]
    assert {s["method"] for s in slots} == {"S2_ID", "ORCID"}
    assert {s["source"] for s in slots} == {"S2"}
    schemes = {i["scheme"] for i in data["researcher"]["identity"]["externalIds"]}
    assert schemes and schemes <= {"S2", "OPENALEX", "ORCID"}
    sources = {s for e in data["researcher"]["affiliations"]["edges"] for s in e["sources"]}
    assert sources == {"OPENALEX", "S2"}


AUTHORS = """
query($last: Int, $before: String, $first: Int, $after: String) {
  paper(id: "2301.08658") {
    authors(last: $last, before: $before, first: $first, after: $after) {
      nodes { key }
      edges { authorship { position } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}"""


async def authors(api: Api, **variables: object) -> dict[str, object]:
    return (await api.data(AUTHORS, variables))["paper"]["authors"]


async def test_authors_page_backward_from_the_end_to_the_start(api: Api) -> None:
    forward = await authors(api)
    order = [n["key"] for n in forward["nodes"]]
    assert len(order) == 4
    end = await authors(api, last=3)
    assert [n["key"] for n in end["nodes"]] == order[1:]
    assert [e["authorship"]["position"] for e in end["edges"]] == [2, 3, 4]
    assert end["pageInfo"]["hasPreviousPage"] is True
    assert end["pageInfo"]["hasNextPage"] is False
    start = await authors(api, last=3, before=end["pageInfo"]["startCursor"])
    assert [n["key"] for n in start["nodes"]] == order[:1]
    assert start["pageInfo"]["hasPreviousPage"] is False
    assert start["pageInfo"]["hasNextPage"] is True
    # a backward page's endCursor continues forward where it ends
    rest = await authors(api, first=10, after=start["pageInfo"]["endCursor"])
    assert [n["key"] for n in rest["nodes"]] == order[1:]
    assert rest["pageInfo"]["hasPreviousPage"] is True


async def test_paging_two_ways_at_once_is_bad_input(api: Api) -> None:
    cursor = (await authors(api, first=1))["pageInfo"]["endCursor"]
    for variables in [{"last": 2, "after": cursor}, {"before": cursor}]:
        body, errors = await api.errors(AUTHORS, variables)
        assert api.codes(errors) == ["BAD_INPUT"], body
    _, errors = await api.errors(AUTHORS, {"last": 101})
    assert api.codes(errors) == ["LIMIT_EXCEEDED"]
