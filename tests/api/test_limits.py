"""Limits reject abusive queries with LIMIT_EXCEEDED; internal errors are masked."""

from __future__ import annotations

import pytest

from scholargraph.api import limits
from scholargraph.graph.errors import DatabaseError
from scholargraph.graph.repo import researchers
from tests.api.conftest import Api
from tests.api.graphdata import YOU


def nested_coauthors(levels: int, first: int = 2) -> str:
    inner = "id"
    for _ in range(levels):
        inner = f"coauthors(first: {first}) {{ edges {{ node {{ {inner} }} }} }}"
    return f'{{ researcher(id: "{YOU}") {{ {inner} }} }}'


async def test_depth_limit(api: Api) -> None:
    response = await api.post(nested_coauthors(4))
    body = response.json()
    assert response.status_code == 400
    assert "data" not in body
    assert api.codes(body["errors"]) == ["LIMIT_EXCEEDED"]
    assert f"the limit is {limits.MAX_DEPTH}" in body["errors"][0]["message"]
    assert (await api.post(nested_coauthors(3))).status_code == 200


async def test_alias_limit(api: Api) -> None:
    fields = " ".join(f"a{i}: __typename" for i in range(limits.MAX_ALIASES + 1))
    response = await api.post(f"{{ {fields} }}")
    assert response.status_code == 400
    assert api.codes(response.json()["errors"]) == ["LIMIT_EXCEEDED"]


async def test_token_limit(api: Api) -> None:
    fields = " ".join(["__typename"] * (limits.MAX_TOKENS + 1))
    response = await api.post(f"{{ {fields} }}")
    assert response.status_code == 400
    assert api.codes(response.json()["errors"]) == ["LIMIT_EXCEEDED"]


async def test_cost_limit_counts_page_sizes_from_literals_and_variables(api: Api) -> None:
    query = """
    query($n: Int!) {
      papers(first: $n) { edges { node { authors(first: 100) { edges { node {
        coauthors(first: 100) { edges { node { id name } } } } } } } } }
    }
    """
    # About 40,000 fields a paper: one paper passes, two do not.
    response = await api.post(query, {"n": 2})
    body = response.json()
    assert response.status_code == 400
    assert api.codes(body["errors"]) == ["LIMIT_EXCEEDED"]
    assert "may resolve about 80," in body["errors"][0]["message"]
    assert (await api.post(query, {"n": 1})).status_code == 200
    literal = query.replace("$n", "2").replace("query($n: Int!)", "query")
    assert (await api.post(literal)).status_code == 400


async def test_page_and_network_sizes(api: Api) -> None:
    body, errors = await api.errors("{ papers(first: 101) { totalCount } }")
    assert api.codes(errors) == ["LIMIT_EXCEEDED"]
    assert body["data"] is None  # papers is non-null, so the error reaches the root
    network = (
        "query($id: ID!, $n: Int!, $d: Int!) { researcher(id: $id) {"
        " network(maxNodes: $n, depth: $d) { center } } }"
    )
    _, errors = await api.errors(network, {"id": str(YOU), "n": 5000, "d": 1})
    assert api.codes(errors) == ["LIMIT_EXCEEDED"]
    _, errors = await api.errors(network, {"id": str(YOU), "n": 10, "d": 4})
    assert api.codes(errors) == ["LIMIT_EXCEEDED"]


async def test_network_is_drawn_for_one_researcher_at_a_time(api: Api) -> None:
    query = """
    query($id: ID!, $n: Int!) { researcher(id: $id) { coauthors(first: $n) { edges { node {
        network(maxNodes: 10) { center } } } } } }
    """
    response = await api.post(query, {"id": str(YOU), "n": 3})
    assert response.status_code == 400
    assert api.codes(response.json()["errors"]) == ["LIMIT_EXCEEDED"]
    assert (await api.post(query, {"id": str(YOU), "n": 1})).status_code == 200


async def test_internal_errors_are_masked(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise DatabaseError("read_researchers.profiles failed: secret internals")

    monkeypatch.setattr(researchers, "profiles", broken)
    query = "query($id: ID!) { researcher(id: $id) { name authorPositions { first } } }"
    body, errors = await api.errors(query, {"id": str(YOU)})
    assert body["data"] == {"researcher": {"name": "Yang You", "authorPositions": None}}
    assert api.codes(errors) == ["INTERNAL"]
    assert "secret" not in errors[0]["message"]
    assert errors[0]["path"] == ["researcher", "authorPositions"]


def test_graphql_cores_merge_check_is_bounded_behind_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphql import specified_rules

    from scholargraph.api import schema

    document = "{ " + " ".join(['researcher(id: "1") { name }'] * 31) + " }"
    live = schema.build_schema()._schema
    assert schema.Documents(live, tuple(specified_rules)).errors(document) == ()
    monkeypatch.setattr(schema, "MERGE_BUDGET", 100)
    (error,) = schema.Documents(live, tuple(specified_rules)).errors(document)
    assert error.extensions == {"code": "LIMIT_EXCEEDED"}
    assert "too costly to validate" in error.message
