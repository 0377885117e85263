"""Networks walked on the in-memory coauthor projection are the networks walked on the
database, and a projection is never used for a graph that has changed since it was read."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import NotFound
from scholargraph.graph.repo.network import coauthor_network
from scholargraph.graph.repo.projection import CoauthorIndex, read_projection
from scholargraph.queries import Query

RESEARCHERS = 120
LEAF = 10 + RESEARCHERS - 1  # a researcher with few ties
MERGED = {10 + i for i in range(RESEARCHERS) if i % 23 == 22}  # merged into 10

_WRITE = Query(
    "test.projection_graph",
    """
    UNWIND $researchers AS r
    CREATE (x:Researcher {id: r.id, name: r.name, slug: r.name, paper_count: 1,
                          citation_count: r.id % 7, merged_into: r.merged_into})
    CREATE (x)-[:AUTHORED]->(:Paper {id: 'p' + r.id, year: 2000 + r.id % 20})
    WITH count(*) AS made
    UNWIND $ties AS t
    MATCH (a:Researcher {id: t.a}), (b:Researcher {id: t.b})
    CREATE (a)-[:COAUTHOR {joint_papers: t.joint, first_year: t.first, last_year: t.last}]->(b)
    """,
    mode="write",
)
_STRENGTHEN = Query(
    "test.projection_strengthen",
    """
    MATCH (a:Researcher {id: $a}), (b:Researcher {id: $b})
    CREATE (a)-[:COAUTHOR {joint_papers: 50, first_year: 2010, last_year: 2011}]->(b)
    """,
    mode="write",
)


def random_graph(seed: int) -> dict[str, Any]:
    """A coauthor graph with hubs, unknown years, repeated strengths (ties broken by id) and
    researchers merged away."""
    rng = random.Random(seed)
    researchers = [
        {"id": 10 + i, "name": f"r{i}", "merged_into": 10 if 10 + i in MERGED else None}
        for i in range(RESEARCHERS)
    ]
    pairs: set[tuple[int, int]] = set()
    while len(pairs) < RESEARCHERS * 4:
        a = 10 + min(int(rng.paretovariate(1.2)) - 1, RESEARCHERS - 1)  # a few hubs
        b = 10 + rng.randrange(RESEARCHERS)
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    ties = []
    for a, b in sorted(pairs):
        first = None if rng.random() < 0.05 else rng.randrange(2000, 2020)
        last = None if first is None else first + rng.randrange(0, 5)
        ties.append(
            {
                "a": a,
                "b": b,
                "joint": rng.choice([1, 1, 1, 2, 2, 3, 5]),
                "first": first,
                "last": last,
            }
        )
    return {"researchers": researchers, "ties": ties}


@pytest.fixture
async def coauthors(db: Database) -> Database:
    await db.run(_WRITE, random_graph(7))
    return db


async def ready_index(db: Database, quiet_s: float = 0.05) -> CoauthorIndex:
    index = CoauthorIndex(db, quiet_s=quiet_s)
    index.start()
    assert await index.wait_ready(30)
    return index


WALKS: list[dict[str, Any]] = [
    {"depth": 0},
    {"depth": 1},
    {"depth": 2, "max_nodes": 500},
    {"depth": 2, "max_nodes": 12},
    {"depth": 3, "max_nodes": 40},
    {"depth": 2, "max_nodes": 1},
    {"depth": 2, "min_joint_papers": 2},
    {"depth": 2, "year_from": 2008, "year_to": 2012},
    {"depth": 3, "year_from": 2015, "min_joint_papers": 2},
    {"depth": 2, "year_to": 2005},
]


async def test_the_projection_walks_the_same_networks_as_the_database(
    coauthors: Database,
) -> None:
    index = await ready_index(coauthors)
    assert index.state == "ready"
    try:
        centers = [10, 11, 12, 32, 55, 90, 129, 500]  # 32: merged away; 500: nobody
        for center in centers:
            for walk in WALKS:
                try:
                    on_db = await coauthor_network(coauthors, center, **walk)
                except NotFound as error:  # 500: nobody
                    with pytest.raises(type(error)):
                        await coauthor_network(coauthors, center, projections=index, **walk)
                    continue
                on_projection = await coauthor_network(coauthors, center, projections=index, **walk)
                assert on_projection == on_db, (center, walk)
        assert index.state == "ready"  # no read saw a newer graph
    finally:
        await index.close()


async def test_a_network_on_the_projection_is_one_statement(coauthors: Database) -> None:
    index = await ready_index(coauthors)
    seen: list[str] = []
    coauthors.on_query = lambda query, params: seen.append(query.name)
    try:
        found = await coauthor_network(coauthors, 10, depth=2, max_nodes=60, projections=index)
        assert len(found.nodes) == 60 and found.truncated
        assert seen == ["read_network.node_fields"]
    finally:
        coauthors.on_query = None
        await index.close()


async def test_a_changed_graph_is_read_from_the_database_until_read_again(
    coauthors: Database,
) -> None:
    index = await ready_index(coauthors)
    # the rebuild waits for quiet_s and then for this gate: a busy machine can take longer
    # than quiet_s to walk the network on the database, which would find it rebuilt already
    gate = asyncio.Event()
    until_quiet = index._until_quiet

    async def quiet_and_let_through() -> None:
        await until_quiet()
        await gate.wait()

    index._until_quiet = quiet_and_let_through  # type: ignore[method-assign]
    try:
        old = index.projection
        assert old is not None
        before = await coauthor_network(coauthors, LEAF, depth=1, projections=index)
        kept = {x.id for x in before.nodes}
        stranger = max(n for n in range(10, 10 + RESEARCHERS) if n not in kept | MERGED)
        await coauthors.run(_STRENGTHEN, {"a": LEAF, "b": stranger})

        after = await coauthor_network(coauthors, LEAF, depth=1, projections=index)
        # dropped at once (nothing has run since); read again once quiet_s has passed
        assert index.projection is None and index.state == "building"
        assert after == await coauthor_network(coauthors, LEAF, depth=1)
        assert stranger in {n.id for n in after.nodes}
        assert index.projection is None  # still read from the database until rebuilt

        gate.set()
        assert await index.wait_ready(30)
        for _ in range(200):  # read again once the graph has been quiet for quiet_s
            if index.projection is not None and index.projection is not old:
                break
            await asyncio.sleep(0.05)
        assert index.projection is not None and index.projection is not old
        again = await coauthor_network(coauthors, LEAF, depth=1, projections=index)
        assert again == after
        assert index.state == "ready"
    finally:
        await index.close()


async def test_a_projection_read_during_writes_is_discarded(coauthors: Database) -> None:
    writes = 0
    original = coauthors.run_seen

    async def with_a_write_between(query: Query, params: Any = None, **options: Any) -> Any:
        nonlocal writes
        found = await original(query, params, **options)
        if query.name == "read_network.projection_ties" and writes == 0:
            writes += 1
            await coauthors.run(_STRENGTHEN, {"a": 11, "b": 12})
        return found

    coauthors.run_seen = with_a_write_between  # type: ignore[method-assign]
    # slices of 50 researchers: the write lands between the first and the second slice
    assert await read_projection(coauthors, slice_size=50) is None
    projection = await read_projection(coauthors, slice_size=50)
    assert projection is not None
    whole = await read_projection(coauthors)
    assert whole is not None
    assert projection.tie_count == whole.tie_count == RESEARCHERS * 4 + 1
    assert projection.bookmark == whole.bookmark


async def test_an_unreachable_database_leaves_the_index_trying(schema_ready: Settings) -> None:
    unreachable = Database.connect(schema_ready.with_overrides(neo4j_uri="bolt://127.0.0.1:9"))
    index = CoauthorIndex(unreachable, quiet_s=0.05)
    try:
        index.start()
        assert not await index.wait_ready(1.5)  # retried, never ready, never crashed
        assert index.state == "building" and index.projection is None
    finally:
        await index.close()
        await unreachable.close()
