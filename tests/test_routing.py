"""Through ``neo4j://``, the routing driver a cluster needs (Aura, or an Enterprise cluster
with read replicas): the test server answers routing as a cluster of one, so a load, the API
and the bookmarks that carry a write to the reads after it are exercised on the same path."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from scholargraph.api.app import create_app
from scholargraph.graph.canonical import canonical_dump, differences
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA
from tests.conftest import record_query

_WRITE = Query("test.routing_write", "CREATE (:RoutingProbe {n: $n})", mode="write")
_READ = Query("test.routing_read", "MATCH (p:RoutingProbe) RETURN p.n AS n", mode="read")
_FIRST = Query(
    "test.routing_first_researcher",
    "MATCH (r:Researcher) WHERE r.merged_into IS NULL RETURN r.id AS id ORDER BY r.id LIMIT 1",
    mode="read",
)


@pytest.fixture
def routed(schema_ready: Settings) -> Settings:
    # the test server's address with the routing scheme (the suite may already be run so)
    scheme, address = schema_ready.uri.split("://", 1)
    assert scheme in ("bolt", "neo4j"), schema_ready.uri
    return schema_ready.with_overrides(neo4j_uri=f"neo4j://{address}")


def _routed(settings: Settings) -> Database:
    db = Database.connect(settings)
    db.on_query = record_query
    # the routing driver, which asks the server for its routing table
    assert type(db.driver).__name__ == "AsyncNeo4jDriver"
    return db


async def test_a_load_through_routing_makes_the_graph_a_direct_load_makes(
    db: Database, routed: Settings, tmp_path: Path
) -> None:
    folder = write_demo_files(tmp_path, papers=150, seed=5)
    await load_demo(db, folder)
    direct = await canonical_dump(db)
    await db.run(CLEAR_DATA, timeout_s=600)
    async with _routed(routed) as via:
        await load_demo(via, folder)
        assert differences(direct, await canonical_dump(via)) == []


async def test_reads_after_a_write_carry_its_bookmark_in_every_view(
    db: Database, routed: Settings
) -> None:
    async with _routed(routed) as via:
        _, written = await via.run_seen(_WRITE, {"n": 1})
        # the next session of this database, or of any request's view of it, starts from
        # the write's bookmark: a follower waits for the write before it answers
        assert set(await via.bookmarks.get_bookmarks()) == written
        view = via.within(5.0)
        assert view.bookmarks is via.bookmarks
        assert await view.run(_READ) == [{"n": 1}]
        _, again = await via.run_seen(_WRITE, {"n": 2})
        assert again != written
        assert sorted(r["n"] for r in await view.batched().run(_READ)) == [1, 2]


async def test_the_api_serves_pages_through_routing(
    db: Database, routed: Settings, tmp_path: Path
) -> None:
    await load_demo(db, write_demo_files(tmp_path, papers=80, seed=2))
    [first] = await db.run(_FIRST)
    app = create_app(routed.with_overrides(request_budget_s=30.0))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            ready = await http.get("/readyz")
            assert ready.status_code == 200, ready.text
            query = (
                "query($id: ID!) { researcher(id: $id) { name papers(first: 3) { totalCount } } }"
            )
            answer = await http.post(
                "/graphql", json={"query": query, "variables": {"id": str(first["id"])}}
            )
            body = answer.json()
            assert answer.status_code == 200 and "errors" not in body, body
            assert body["data"]["researcher"]["papers"]["totalCount"] >= 1
