"""No server error from client input: each kind of bad request is refused as BAD_INPUT or
LIMIT_EXCEEDED with a message that says what to change, before anything runs."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from scholargraph.api import inputs, limits
from scholargraph.api.app import create_app
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.repo import search
from scholargraph.graph.repo.pages import encode_cursor
from tests.api.conftest import CURATOR_TOKEN, GRAPHQL_RESPONSE, Api
from tests.api.graphdata import DEMMEL, GILBERT, YOU

SEARCH = "query($q: String!) { search(query: $q) { totalCount } }"
INSTITUTION = "query($ref: String!) { institution(ref: $ref) { id } }"
RESEARCHER = "query($id: ID) { researcher(id: $id) { name } }"
MARK_DISTINCT = f"""
mutation($actor: String) {{
  markDistinct(researcher: "{YOU}", other: "{GILBERT}", reason: "two people", actor: $actor) {{
    event {{ id }}
  }}
}}
"""


async def raw_post(api: Api, body: bytes, **headers: str) -> httpx.Response:
    return await api.http.post(
        "/graphql",
        content=body,
        headers={"content-type": "application/json", "accept": GRAPHQL_RESPONSE, **headers},
    )


def refused(response: httpx.Response, code: str, *words: str) -> str:
    """The message of a request refused before execution with ``code``."""
    body = response.json()
    assert response.status_code in (400, 413, 414), (response.status_code, body)
    assert "data" not in body, body
    assert [e["extensions"]["code"] for e in body["errors"]] == [code], body
    message: str = body["errors"][0]["message"]
    for word in words:
        assert word in message, message
    return message


def doubling(levels: int) -> str:
    """The reproducer: each fragment spreads the one before twice."""
    parts = [f"query {{ ...F{levels} }}", "fragment F0 on Query { __typename }"]
    parts += [f"fragment F{i} on Query {{ ...F{i - 1} ...F{i - 1} }}" for i in range(1, levels + 1)]
    return " ".join(parts)


# Validation that costs O(document)


async def test_the_doubling_fragment_family_is_refused_up_to_the_body_limit(api: Api) -> None:
    small = await api.post(doubling(4))
    assert small.status_code == 200
    assert small.json() == {"data": {"__typename": "Query"}}
    for levels in (8, 22, 60, 150):
        refused(await api.post(doubling(levels)), "LIMIT_EXCEEDED", "once its fragments are spread")
    # Past the token limit the parser stops; past the length limit it never starts.
    refused(await api.post(doubling(400)), "LIMIT_EXCEEDED", f"{limits.MAX_TOKENS} tokens")
    largest = doubling(22_050)  # the body just under 1 MiB
    assert 0.9 * (1 << 20) < len(largest) < 1 << 20
    refused(await api.post(largest), "LIMIT_EXCEEDED", "characters long", "as variables")


async def test_wide_fragments_are_refused(api: Api) -> None:
    aliased = "fragment W on Query { " + " ".join(f"a{i}: __typename" for i in range(25)) + " }"
    refused(await api.post("{ ...W ...W } " + aliased), "LIMIT_EXCEEDED", "50 aliases")
    wide = "fragment T on Query { " + " ".join(["__typename"] * 40) + " }"
    many_uses = "query { " + " ".join(f"x{i}: __typename ...T" for i in range(20)) + " } " + wide
    refused(await api.post(many_uses), "LIMIT_EXCEEDED", "once its fragments are spread")
    same = "query { " + " ".join(f"...T{i}" for i in range(60)) + " } "
    same += " ".join(f"fragment T{i} on Query {{ __typename }}" for i in range(60))
    refused(await api.post(same), "LIMIT_EXCEEDED", "compare", "'__typename' is selected 60")
    fields = ["id", "slug", "name", "altNames", "orcid", "paperCount", "citationCount"]
    distinct = f'{{ researcher(id: "{YOU}") {{ ' + " ".join(f"...R{i}" for i in range(60)) + " } } "
    distinct += " ".join(
        f"fragment R{i} on Researcher {{ {fields[i % len(fields)]} }}" for i in range(60)
    )
    refused(await api.post(distinct), "LIMIT_EXCEEDED", "60 fragments are spread in one place")


async def test_the_same_field_many_times_in_one_place_is_refused(api: Api) -> None:
    repeated = "{ " + " ".join([f'researcher(id: "{YOU}") {{ name }}'] * 60) + " }"
    message = refused(await api.post(repeated), "LIMIT_EXCEEDED", "'researcher' is selected 60")
    assert "with an alias" in message
    few = "{ " + " ".join([f'researcher(id: "{YOU}") {{ name }}'] * 5) + " }"
    assert (await api.data(few)) == {"researcher": {"name": "Yang You"}}


async def test_deep_selections_are_refused(api: Api) -> None:
    inline = "{ " + "... on Query { " * 40 + "__typename" + " }" * 40 + " }"
    refused(await api.post(inline), "LIMIT_EXCEEDED", "nests selections 41 levels")
    chain = (
        "query { ...C0 } "
        + " ".join(
            f"fragment C{i} on Query {{ ... on Query {{ ...C{i + 1} }} }}" for i in range(40)
        )
        + " fragment C40 on Query { __typename }"
    )
    refused(await api.post(chain), "LIMIT_EXCEEDED", "levels deep")
    # Deeper than the parser goes: refused while parsing, as a limit.
    parser = "{ " + "a { " * 300 + "b" + " }" * 300 + " }"
    refused(await api.post(parser), "LIMIT_EXCEEDED", "nested too deeply")
    fields = "id"
    for _ in range(5):
        fields = f"coauthors {{ edges {{ node {{ {fields} }} }} }}"
    refused(
        await api.post(f'{{ researcher(id: "{YOU}") {{ {fields} }} }}'),
        "LIMIT_EXCEEDED",
        f"the limit is {limits.MAX_DEPTH}",
    )


async def test_a_fragment_that_spreads_itself_is_invalid_not_a_hang(api: Api) -> None:
    cycle = "query { ...A } fragment A on Query { ...B } fragment B on Query { ...A __typename }"
    refused(await api.post(cycle), "BAD_INPUT", "Cannot spread fragment")


def test_shape_checks_measure_each_fragment_once() -> None:
    from graphql import parse

    # 2^150 selections once spread, measured in a few milliseconds at most
    problems = limits.shape_problems(parse(doubling(150), max_tokens=limits.MAX_TOKENS))
    assert problems == [
        f"this query has {2**151 + 2**150 - 1:,} selections once its fragments are spread "
        f"(each fragment counted at every use); the limit is {limits.MAX_SELECTIONS:,}: "
        f"spread fewer fragments, or ask in several requests"
    ]
    assert limits.shape_problems(parse(doubling(3))) == []


# No server error from client input


async def test_deeply_nested_json_is_refused(api: Api) -> None:
    refused(await raw_post(api, b"[" * 100_000), "LIMIT_EXCEEDED", "more than 32 levels deep")
    nested: Any = "x"
    for _ in range(40):
        nested = [nested]
    response = await api.post(SEARCH, {"q": nested})
    refused(response, "LIMIT_EXCEEDED", "the request body nests JSON")
    response = await api.http.get(
        "/graphql",
        params={"query": SEARCH, "variables": '{"q": ' + "[" * 5000 + "]" * 5000 + "}"},
        headers={"accept": GRAPHQL_RESPONSE},
    )
    refused(response, "LIMIT_EXCEEDED", "variables nests JSON")
    many = {"q": "x", "pad": list(range(inputs.MAX_JSON_VALUES))}
    refused(await api.post(SEARCH, many), "LIMIT_EXCEEDED", "JSON values")


async def test_a_lone_surrogate_is_refused_wherever_it_comes(api: Api) -> None:
    for query, variables in (
        (SEARCH, {"q": "liu \ud800"}),
        (INSTITUTION, {"ref": "\udc00 Berkeley"}),
        (MARK_DISTINCT, {"actor": "curator \ud83d"}),
    ):
        body = json.dumps({"query": query, "variables": variables}).encode()
        assert b"\\ud" in body
        response = await raw_post(api, body, authorization=f"Bearer {CURATOR_TOKEN}")
        refused(response, "BAD_INPUT", "lone surrogate", "Unicode text")
    typed = await api.post('{ search(query: "liu \\ud800") { totalCount } }')
    refused(typed, "BAD_INPUT", "Invalid Unicode escape")
    # A whole pair is a character like any other.
    assert (await api.data(SEARCH, {"q": "liu \U0001f600"}))["search"]["totalCount"] == 0


def test_strings_with_lone_surrogates_are_caught_even_past_the_json_reader() -> None:
    problem = inputs.string_problem("a\ud800", "search(query:)")
    assert problem is not None and "lone surrogate" in problem


async def test_search_words_and_queries_are_capped(api: Api) -> None:
    async def message(text: str) -> str:
        _, errors = await api.errors(SEARCH, {"q": text})
        assert api.codes(errors) == ["BAD_INPUT"], errors
        return str(errors[0]["message"])

    word = await message(f"ziming {'a' * 1001}")
    assert f"words are at most {search.MAX_WORD_CHARS}" in word and "1,001 characters" in word
    assert "the limit is 1,000" in await message(" ".join(["liu"] * 400))
    longest = "b" * search.MAX_WORD_CHARS
    assert (await api.data(SEARCH, {"q": longest}))["search"]["totalCount"] == 0


async def test_ids_and_numbers_beyond_64_bits_are_refused(api: Api) -> None:
    big = "9" * 20
    cases: list[tuple[str, dict[str, Any] | None]] = [
        (RESEARCHER, {"id": big}),
        (RESEARCHER, {"id": f"{big}-ziming-liu"}),
        (RESEARCHER, {"id": f"/researchers/{'1' * 5000}"}),
        (RESEARCHER, {"id": 18446744073709551615}),
        (RESEARCHER, {"id": 1e30}),
        (f"{{ researcher(id: {big}) {{ name }} }}", None),
        (INSTITUTION, {"ref": big}),
        (SEARCH, {"q": big}),
        (
            "query($r: ID) { papers(filter: {researcher: $r}) { totalCount } }",
            {"r": big},
        ),
        (
            "query($f: PaperFilterInput) { papers(filter: $f) { totalCount } }",
            {"f": {"researcher": big}},
        ),
        (
            f'{{ collaborationPath(from: "{YOU}", to: "{big}") {{ found }} }}',
            None,
        ),
    ]
    for query, variables in cases:
        refused(await api.post(query, variables), "BAD_INPUT", "9223372036854775807")
    largest = await api.post(RESEARCHER, {"id": str(2**63 - 1)})
    assert api.codes(largest.json()["errors"]) == ["NOT_FOUND"]


async def test_forged_cursors_are_bad_input(api: Api) -> None:
    coauthors = (
        f'query($after: String) {{ researcher(id: "{YOU}") {{'
        " coauthors(after: $after) { totalCount } } }"
    )
    forged = [
        encode_cursor("coauthors", 2**64 - 1, 1),
        encode_cursor("coauthors", 3, [1, 2]),
        base64.urlsafe_b64encode(b'["coauthors", 1, "\\ud800"]').decode(),
        base64.urlsafe_b64encode(b"[" * 5000).decode(),
        base64.urlsafe_b64encode(b'["coauthors", ' + b"9" * 5000 + b", 1]").decode(),
        "x" * 5000,
    ]
    for cursor in forged:
        _, errors = await api.errors(coauthors, {"after": cursor})
        assert api.codes(errors) == ["BAD_INPUT"], (cursor[:40], errors)
        assert "pass back an endCursor" in errors[0]["message"]


# HTTP and GraphQL semantics


@pytest.fixture
async def small_bodies(schema_ready: Settings, graph: Database) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(schema_ready.with_overrides(max_body_bytes=2000, network_projection=False))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


async def test_request_bodies_over_the_limit_are_413(
    api: Api, small_bodies: httpx.AsyncClient
) -> None:
    fits = json.dumps({"query": "{ __typename }", "variables": {"pad": "x" * 1900}})
    assert len(fits) <= 2000
    response = await small_bodies.post(
        "/graphql", content=fits, headers={"content-type": "application/json"}
    )
    assert response.json() == {"data": {"__typename": "Query"}}
    over = json.dumps({"query": "{ __typename }", "variables": {"pad": "x" * 2000}})
    response = await small_bodies.post(
        "/graphql", content=over, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("application/json")
    message = refused(response, "LIMIT_EXCEEDED", "over 2,000 bytes", "SCHOLARGRAPH_MAX_BODY_BYTES")
    assert "variables" in message

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(100):
            yield b" " * 100

    streamed = await small_bodies.post(
        "/graphql", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413
    get = await small_bodies.get("/graphql", params={"query": "{ __typename }" + " " * 3000})
    assert get.status_code == 414
    # The default limit is a mebibyte.
    assert Settings.from_mapping({}).max_body_bytes == 1 << 20
    assert Settings.from_mapping({"SCHOLARGRAPH_MAX_BODY_BYTES": "4096"}).max_body_bytes == 4096
    big = await api.post("{ __typename }", {"pad": "x" * (1 << 20)})
    refused(big, "LIMIT_EXCEEDED", "over 1,048,576 bytes")


async def test_operations_are_selected_as_the_spec_says(api: Api) -> None:
    two = f'query A {{ __typename }} query B {{ researcher(id: "{YOU}") {{ name }} }}'

    async def send(name: str | None) -> httpx.Response:
        body: dict[str, Any] = {"query": two}
        if name is not None:
            body["operationName"] = name
        return await api.http.post("/graphql", json=body, headers={"accept": GRAPHQL_RESPONSE})

    refused(await send(None), "BAD_INPUT", "2 operations (A, B)", "operationName")
    refused(await send("C"), "BAD_INPUT", "no operation named 'C'", "A, B")
    assert (await send("B")).json() == {"data": {"researcher": {"name": "Yang You"}}}
    assert (await send("A")).json() == {"data": {"__typename": "Query"}}
    refused(await api.post("fragment F on Query { __typename }"), "BAD_INPUT", "no operation")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ('{ researcher(id: "%(you)d") { sameName(first: -5) { blockSize } } }', "first must be 0"),
        ('{ researcher(id: "%(you)d") { mostCited(first: -1) { citations } } }', "first must be"),
        ('{ researcher(id: "%(you)d") { curationEvents(first: -1) { id } } }', "first must be"),
        ('{ researcher(id: "%(you)d") { papers(first: -1) { totalCount } } }', "first must be"),
        (
            '{ researcher(id: "%(you)d") { coauthors(minJointPapers: 0) { totalCount } } }',
            "minJointPapers must be 1",
        ),
        ('{ researcher(id: "%(you)d") { network(maxNodes: 0) { center } } }', "maxNodes must be 1"),
        ('{ researcher(id: "%(you)d") { network(depth: -1) { center } } }', "depth must be 0"),
        ('{ collaborationPath(from: "%(you)d", to: "%(demmel)d", k: 0) { found } }', "k must be"),
        (
            '{ collaborationPath(from: "%(you)d", to: "%(demmel)d", maxLength: 0) { found } }',
            "maxLength must be 1",
        ),
        ('{ search(query: "liu", first: -1) { totalCount } }', "first must be 0"),
        ('{ papers(after: "") { totalCount } }', "papers(after:) is an empty string"),
        (
            '{ papers(filter: {category: ""}) { totalCount } }',
            "papers(filter.category:) is an empty string",
        ),
        ('{ papers(filter: {institution: "  "}) { totalCount } }', "is an empty string"),
        ('{ researcher(id: "%(you)d") { papers(category: "") { totalCount } } }', "empty string"),
        (
            '{ collaborationPath(from: "%(you)d", to: "%(demmel)d", category: "") { found } }',
            "collaborationPath(category:) is an empty string",
        ),
        ('{ researcher(orcid: "") { name } }', "researcher(orcid:) is an empty string"),
    ],
)
async def test_arguments_are_validated_alike_everywhere(api: Api, query: str, words: str) -> None:
    _, errors = await api.errors(query % {"you": YOU, "demmel": DEMMEL})
    assert api.codes(errors) == ["BAD_INPUT"], errors
    assert words in errors[0]["message"], errors[0]["message"]


async def test_an_empty_actor_is_refused_not_replaced(api: Api) -> None:
    response = await api.post(MARK_DISTINCT, {"actor": ""}, token=CURATOR_TOKEN)
    refused(response, "BAD_INPUT", "markDistinct(actor:) is an empty string")
