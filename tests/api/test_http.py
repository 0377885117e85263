"""GraphQL over HTTP: methods, content negotiation, status codes; GraphiQL; health checks."""

from __future__ import annotations

import json

import graphql
import pytest

from scholargraph.api.http import media_type_for
from scholargraph.api.schema import SDL_PATH, sdl
from tests.api.conftest import GRAPHQL_RESPONSE, Api
from tests.api.graphdata import YOU

TYPENAME = {"query": "{ __typename }"}


@pytest.mark.parametrize(
    ("accept", "media_type"),
    [
        (GRAPHQL_RESPONSE, GRAPHQL_RESPONSE),
        ("application/json", "application/json"),
        ("*/*", "application/json"),
        ("application/json;q=0.5, application/graphql-response+json", GRAPHQL_RESPONSE),
        ("application/graphql-response+json;q=0.1, application/json", "application/json"),
    ],
)
async def test_response_type_follows_accept(api: Api, accept: str, media_type: str) -> None:
    response = await api.http.post("/graphql", json=TYPENAME, headers={"accept": accept})
    assert response.status_code == 200
    assert response.headers["content-type"] == f"{media_type}; charset=utf-8"
    assert response.json() == {"data": {"__typename": "Query"}}


async def test_unacceptable_types_and_bodies(api: Api) -> None:
    refused = await api.http.post("/graphql", json=TYPENAME, headers={"accept": "text/csv"})
    assert refused.status_code == 406
    unlabelled = await api.http.post("/graphql", content=json.dumps(TYPENAME).encode())
    assert unlabelled.status_code == 415
    for body in (b"{ not json", b"[1, 2]", b""):
        response = await api.http.post(
            "/graphql", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 400, body
    for params in ({"query": 1}, {"qeury": "{ __typename }"}, {**TYPENAME, "variables": "x"}):
        response = await api.http.post("/graphql", json=params)
        assert response.status_code == 400, params
        assert response.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"


@pytest.mark.parametrize(
    "query",
    ["{ researcher(id: ", "{ nosuchfield }", "query($id: ID!) { researcher(id: $id) { id } }"],
)
async def test_refused_documents_are_400_with_graphql_response_json(api: Api, query: str) -> None:
    strict = await api.post(query, {"id": None} if "$id" in query else None)
    assert strict.status_code == 400
    assert "data" not in strict.json()
    legacy = await api.post(
        query, {"id": None} if "$id" in query else None, accept="application/json"
    )
    assert legacy.status_code == 200
    assert "data" not in legacy.json()
    assert legacy.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"


async def test_get_runs_queries_but_not_mutations(api: Api) -> None:
    query = f'{{ researcher(id: "{YOU}") {{ name }} }}'
    response = await api.http.get("/graphql", params={"query": query})
    assert response.status_code == 200
    assert response.json() == {"data": {"researcher": {"name": "Yang You"}}}
    mutation = (
        'mutation { markDistinct(researcher: "1", other: "2", reason: "x") { event { id } } }'
    )
    refused = await api.http.get(
        "/graphql", params={"query": mutation}, headers={"accept": GRAPHQL_RESPONSE}
    )
    assert refused.status_code == 405
    assert refused.headers["allow"] == "POST"
    variables = await api.http.get(
        "/graphql",
        params={
            "query": "query($id: ID) { researcher(id: $id) { name } }",
            "variables": json.dumps({"id": str(YOU)}),
        },
    )
    assert variables.json()["data"]["researcher"]["name"] == "Yang You"


async def test_graphiql_for_browsers(api: Api) -> None:
    response = await api.http.get("/graphql", headers={"accept": "text/html,*/*;q=0.8"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "graphiql" in response.text.lower()


async def test_health_checks(api: Api) -> None:
    assert (await api.http.get("/healthz")).json() == {"status": "ok"}
    assert (await api.http.get("/readyz")).json()["status"] == "ready"


def test_media_type_for_unknown_or_refused_types() -> None:
    assert media_type_for("text/html") is None
    assert media_type_for("application/json;q=0") is None
    assert media_type_for("") == "application/json"


def _signature(schema: graphql.GraphQLSchema, type_name: str, field: str) -> str:
    found = schema.type_map[type_name]
    assert isinstance(found, graphql.GraphQLObjectType), type_name
    args = ", ".join(f"{name}: {arg.type}" for name, arg in found.fields[field].args.items())
    return f"{field}({args})"


def test_committed_schema_matches_the_live_schema() -> None:
    committed = SDL_PATH.read_text(encoding="utf-8")
    assert committed == sdl(), "api/schema.graphql is stale: run python -m api.schema --write"
    schema = graphql.build_schema(committed)
    for type_name, root in (
        ("Query", "node(id: ID!)"),
        ("Query", "nodes(ids: [ID!]!)"),
        ("Query", "paper(id: String!)"),
        ("Query", "researcher(id: ID, orcid: String, s2Id: String, openalexId:"),
        ("Query", "institution(ref: String!)"),
        ("Query", "category(code: String!)"),
        ("Query", "search(query: String!"),
        ("Query", "papers(filter: PaperFilterInput"),
        ("Query", "collaborationPath(from: ID!, to: ID!, maxLength: Int!, k: Int!"),
        ("Mutation", "merge(survivor: ID!"),
        ("Mutation", "split(researcher: ID!"),
        ("Mutation", "markDistinct(researcher: ID!"),
        ("Mutation", "pinPaper(researcher: ID!"),
    ):
        assert _signature(schema, type_name, root.split("(")[0]).startswith(root), root
