"""HTTP done properly: validators from the graph's last write and 304s, Cache-Control, and
gzip on pages, JSON and GraphQL."""

from __future__ import annotations

from scholargraph.graph.db import Database
from scholargraph.queries import Query
from tests.site.conftest import JSON, Client

PAGE = "/researchers/2004394-ziming-liu"
RENAME = Query(
    "test_site_http.rename",
    "MATCH (r:Researcher {id: 2004396}) SET r.name = 'Yang You (NUS)'",
    "write",
)


async def test_pages_carry_validators_and_answer_304(client: Client) -> None:
    first = await client.get(PAGE)
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    assert etag.startswith('W/"')
    assert first.headers["cache-control"] == "public, max-age=60"
    client.statements.clear()
    again = await client.get(PAGE, **{"if-none-match": etag})
    assert again.status_code == 304
    assert again.headers["etag"] == etag
    # a 304 varies as its 200 does: by Accept, and by Origin (the CORS allow-list)
    assert set(again.headers["vary"].split(", ")) == {"Accept", "Origin"}
    assert {"Accept", "Origin"} <= set(first.headers["vary"].split(", "))
    assert again.content == b""
    assert client.page_statements() == []  # no statement for a 304
    since = await client.get(PAGE, **{"if-modified-since": modified})
    assert since.status_code == 304
    stale = await client.get(PAGE, **{"if-modified-since": "Thu, 01 Jan 2015 00:00:00 GMT"})
    assert stale.status_code == 200
    other = await client.get(PAGE, **{"if-none-match": 'W/"something-else"'})
    assert other.status_code == 200


async def test_each_representation_and_address_has_its_own_tag(client: Client) -> None:
    html = (await client.get(PAGE)).headers["etag"]
    as_json = (await client.get(PAGE, JSON)).headers["etag"]
    cited = (await client.get(PAGE + "?sort=cited")).headers["etag"]
    assert len({html, as_json, cited}) == 3
    assert (await client.get(PAGE, JSON, **{"if-none-match": html})).status_code == 200


async def test_a_write_changes_the_validators(client: Client, site_graph: Database) -> None:
    before = await client.get("/researchers/2004396-yang-you")
    await site_graph.run(RENAME)
    await client.app.state.site.clock.read(client.app.state.db)
    after = await client.get(
        "/researchers/2004396-yang-you", **{"if-none-match": before.headers["etag"]}
    )
    assert after.status_code == 200
    assert after.headers["etag"] != before.headers["etag"]
    assert "Yang You (NUS)" in after.text


async def test_feeds_and_sitemaps_answer_304_too(client: Client) -> None:
    for path in ("/feed.atom", "/sitemap.xml", "/sitemaps/researchers.xml"):
        first = await client.get(path, "*/*")
        again = await client.get(path, "*/*", **{"if-none-match": first.headers["etag"]})
        assert again.status_code == 304, path


async def test_not_found_pages_are_not_cached(client: Client) -> None:
    missing = await client.get("/researchers/77")
    assert missing.status_code == 404
    assert "etag" not in missing.headers
    assert missing.headers["cache-control"] == "no-cache"


async def test_pages_json_and_graphql_are_gzipped(client: Client) -> None:
    for accept in ("text/html", JSON):
        response = await client.http.get(
            PAGE, headers={"accept": accept, "accept-encoding": "gzip"}
        )
        assert response.headers["content-encoding"] == "gzip"
        assert "Accept-Encoding" in response.headers["vary"]
        assert "Accept" in response.headers["vary"].split(", ")
        assert "Ziming Liu" in response.text  # httpx inflates it
    raw = await client.http.post(
        "/graphql",
        json={"query": '{ researcher(id: "2004394") { name papers { totalCount } } }'},
        headers={"accept": JSON, "accept-encoding": "gzip"},
    )
    assert raw.headers.get("content-encoding") in (None, "gzip")
    big = await client.http.post(
        "/graphql",
        json={"query": "{ papers(first: 40) { edges { node { id title abstract } } } }"},
        headers={"accept": JSON, "accept-encoding": "gzip"},
    )
    assert big.headers["content-encoding"] == "gzip"
    assert big.json()["data"]["papers"]["edges"]
    plain = await client.http.get(PAGE, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers


async def test_the_graph_state_is_read_once_an_interval(client: Client) -> None:
    clock = client.app.state.site.clock
    clock.interval_s = 60
    await client.get(PAGE)
    client.statements.clear()
    for _ in range(5):
        assert (await client.get(PAGE)).status_code == 200
    assert "read_site.graph_state" not in client.statements
    clock.interval_s = 0
    client.statements.clear()
    await client.get(PAGE)
    assert client.statements.count("read_site.graph_state") == 1
    client.statements.clear()
    await client.http.post(
        "/graphql",
        json={"query": '{ paper(id: "2301.08658") { title } }'},
        headers={"accept": JSON},
    )
    assert "read_site.graph_state" not in client.statements  # the API does not read it
