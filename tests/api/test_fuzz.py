"""Generated requests against the real app and a small real graph: whatever a client sends,
the answer is never a server error (no 5xx, no ``INTERNAL``).

Documents come from the schema (hypothesis-graphql: valid ones, and ones with one violation
of the schema), variables and bodies from JSON strategies that reach for what broke before:
lone surrogates, numbers past 64 bits, deep nesting, empty strings. Seeded (derandomised) and
bounded, about 300 requests in all.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import graphql
import hypothesis_graphql
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scholargraph.api.schema import build_schema
from tests.api.conftest import CURATOR_TOKEN, GRAPHQL_RESPONSE, Api
from tests.api.graphdata import GILBERT, YOU, ZIMING

SCHEMA: graphql.GraphQLSchema = build_schema()._schema


def fuzzed(examples: int) -> Any:
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def assert_clean(status: int, body: Any, sent: object) -> None:
    assert status < 500, (status, body, sent)
    assert isinstance(body, dict), (body, sent)
    codes = [
        (error.get("extensions") or {}).get("code") for error in body.get("errors") or () if error
    ]
    assert "INTERNAL" not in codes, (body, sent)
    assert all(codes), (body, sent)  # every error says what kind it is


async def send(api: Api, body: bytes, *, curator: bool = False) -> None:
    headers = {"content-type": "application/json", "accept": GRAPHQL_RESPONSE}
    if curator:
        headers["authorization"] = f"Bearer {CURATOR_TOKEN}"
    response = await api.http.post("/graphql", content=body, headers=headers)
    assert_clean(response.status_code, response.json(), body[:2000])


def as_body(query: str, variables: Any = None) -> bytes:
    # json.dumps writes a lone surrogate as its \\ud800 escape, as a careless client would.
    return json.dumps({"query": query, "variables": variables}).encode()


@fuzzed(120)
@given(query=hypothesis_graphql.queries(SCHEMA))
async def test_valid_queries(api: Api, query: str) -> None:
    await send(api, as_body(query))


@fuzzed(60)
@given(query=hypothesis_graphql.queries(SCHEMA, mode=hypothesis_graphql.Mode.NEGATIVE))
async def test_queries_that_break_the_schema(api: Api, query: str) -> None:
    await send(api, as_body(query))


@fuzzed(40)
@given(query=hypothesis_graphql.mutations(SCHEMA))
async def test_mutations_as_curator(api: Api, query: str) -> None:
    await send(api, as_body(query), curator=True)


# What a variable may hold: text of any code point (surrogates too), numbers of any size.
SCALARS = (
    st.text(st.characters(codec=None), max_size=30)
    | st.sampled_from(["", " ", str(YOU), f"{YOU}-yang-you", "9" * 25, "/researchers/" + "1" * 30])
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none()
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OPERATIONS = [
    "query($q: String!, $first: Int, $after: String) {"
    " search(query: $q, first: $first, after: $after) { totalCount edges { cursor } } }",
    "query($ref: String!) { institution(ref: $ref) { id name } }",
    "query($id: ID, $orcid: String) { researcher(id: $id, orcid: $orcid) { name } }",
    "query($f: PaperFilterInput, $after: String) {"
    " papers(filter: $f, after: $after) { totalCount } }",
    "query($a: ID!, $b: ID!, $n: Int!, $c: String) {"
    " collaborationPath(from: $a, to: $b, maxLength: $n, category: $c) { found message } }",
    "query($id: ID!, $n: Int, $after: String) { researcher(id: $id) {"
    " coauthors(first: $n, after: $after) { totalCount } sameName(first: $n) { blockSize } } }",
    "mutation($r: ID!, $o: ID!, $why: String!, $actor: String) {"
    " markDistinct(researcher: $r, other: $o, reason: $why, actor: $actor) { event { id } } }",
]
NAMES = ["q", "first", "after", "ref", "id", "orcid", "f", "a", "b", "n", "c", "r", "o", "why"]


@fuzzed(60)
@given(
    query=st.sampled_from(OPERATIONS),
    variables=st.dictionaries(st.sampled_from([*NAMES, "actor"]), JSON_VALUES, max_size=5),
)
async def test_variables_of_any_kind(api: Api, query: str, variables: dict[str, Any]) -> None:
    await send(api, as_body(query, variables), curator=True)


@fuzzed(20)
@given(
    query=st.sampled_from(OPERATIONS),
    cursor=st.text(st.characters(codec="ascii"), max_size=40)
    | st.builds(lambda raw: base64.urlsafe_b64encode(raw).decode(), st.binary()),
)
async def test_forged_cursors(api: Api, query: str, cursor: str) -> None:
    variables = {"q": "liu", "id": str(ZIMING), "a": str(YOU), "b": str(GILBERT), "n": 3}
    await send(api, as_body(query, {**variables, "after": cursor}))


@fuzzed(20)
@given(
    body=st.binary(max_size=200)
    | st.builds(lambda value: json.dumps(value).encode(), JSON_VALUES)
    | st.builds(
        lambda n: b'{"query": "{ __typename }", "variables": ' + b"[" * n, st.integers(0, 5000)
    )
)
async def test_bodies_of_any_kind(api: Api, body: bytes) -> None:
    await send(api, body)
