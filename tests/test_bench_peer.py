"""The benchmark's peer (@neo4j/graphql over the same store) really answers the page, path and
network queries, and agrees with our API on what both show."""

from __future__ import annotations

import base64
from pathlib import Path

import httpx

from benchmarks import bench_peer
from benchmarks.bench_api import NETWORK, PAGE, PATH
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.loaders.demo import load_demo, write_demo_files
from scholargraph.queries import Query

PAIR = Query(
    "tests.bench_peer.pair",
    "MATCH (a:Researcher)-[:COAUTHOR]-(:Researcher)-[:COAUTHOR]-(b:Researcher) "
    "WHERE a.id < b.id AND NOT (a)-[:COAUTHOR]-(b) AND a.merged_into IS NULL "
    "AND b.merged_into IS NULL RETURN a.id AS a, b.id AS b ORDER BY a, b LIMIT 1",
)
BUSIEST = Query(
    "tests.bench_peer.busiest",
    "MATCH (r:Researcher) WHERE r.merged_into IS NULL "
    "RETURN r.id AS id ORDER BY r.paper_count DESC, r.id LIMIT 1",
)


def public_id(global_id: str) -> int:
    """The researcher id in one of our global ids (``Researcher:<id>``, base64)."""
    if global_id.isdigit():
        return int(global_id)
    return int(base64.b64decode(global_id).decode().split(":")[-1])


async def test_peer_answers_like_ours(db: Database, schema_ready: Settings, tmp_path: Path) -> None:
    await load_demo(db, write_demo_files(tmp_path, papers=60, seed=4))
    rid = (await db.run(BUSIEST))[0]["id"]
    pair = (await db.run(PAIR))[0]
    statement = (await db.run(bench_peer.PAGE_STATEMENT, {"id": rid}))[0]
    with (
        # the answers are checked here, not the speed: a busy machine's cold first page may
        # take longer than a request's default budget
        bench_peer.our_server(
            schema_ready, {"SCHOLARGRAPH_REQUEST_BUDGET_S": "120"}
        ) as mine_served,
        bench_peer.peer_server(schema_ready, nodelay=True) as peer_served,
    ):
        ours, peer = mine_served.url, peer_served.url
        async with httpx.AsyncClient(timeout=60) as client:
            mine = (await bench_peer.ask(client, ours, PAGE, {"id": str(rid)}))["researcher"]
            theirs = (await bench_peer.ask(client, peer, bench_peer.PEER_PAGE, {"id": rid}))[
                "researchers"
            ][0]
            my_path = await bench_peer.ask(
                client, ours, PATH, {"from": str(pair["a"]), "to": str(pair["b"])}
            )
            their_path = await bench_peer.ask(
                client, peer, bench_peer.PEER_PATH, {"from": pair["a"], "to": pair["b"]}
            )
            my_net = await bench_peer.ask(client, ours, NETWORK, {"id": str(rid)})
            their_net = await bench_peer.ask(client, peer, bench_peer.PEER_NETWORK, {"id": rid})
            sockets = (await client.get(peer.replace("/graphql", "/nodelay"))).json()

    assert theirs["name"] == mine["name"] == statement["researcher"]["name"]
    count = mine["papers"]["totalCount"]
    assert count >= 2
    assert theirs["papersConnection"]["totalCount"] == count == statement["total"]
    my_titles = [edge["node"]["title"] for edge in mine["papers"]["edges"]]
    their_titles = [edge["node"]["title"] for edge in theirs["papersConnection"]["edges"]]
    assert their_titles == my_titles == [row["paper"]["title"] for row in statement["papers"]]
    my_authors = [a["node"]["name"] for a in mine["papers"]["edges"][0]["node"]["authors"]["edges"]]
    their_authors = [
        a["node"]["name"]
        for a in theirs["papersConnection"]["edges"][0]["node"]["authorsConnection"]["edges"]
    ]
    assert their_authors == my_authors
    assert {f["code"]: f["papers"] for f in theirs["fields"]} == {
        f["category"]["code"]: f["papers"] for f in mine["fields"]
    }
    assert theirs["mostCited"][0]["title"] == mine["mostCited"]["papers"][0]["title"]

    chain = my_path["collaborationPath"]["chains"][0]["researchers"]
    their_chain = their_path["collaborationPath"]
    assert len(their_chain) == len(chain) == 3
    assert [their_chain[0]["id"], their_chain[-1]["id"]] == [pair["a"], pair["b"]]
    assert [public_id(chain[0]["id"]), public_id(chain[-1]["id"])] == [pair["a"], pair["b"]]

    graphology = my_net["researcher"]["network"]["graphology"]
    my_nodes = {public_id(n["key"]) for n in graphology["nodes"]}
    network = their_net["researchers"][0]["network"]
    their_nodes = {n["id"] for n in network["nodes"]}
    assert rid in their_nodes and rid in my_nodes
    assert their_nodes == my_nodes
    assert all(e["source"] in their_nodes and e["target"] in their_nodes for e in network["edges"])
    assert sockets["enabled"] and sockets["nodelay"] == sockets["connected"] >= 1
