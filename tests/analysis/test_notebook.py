"""scholargraph.analysis against the test session's Neo4j: the same calls with no event loop
(a script) and inside a running one (a Jupyter kernel)."""

from __future__ import annotations

import asyncio

import networkx as nx
import pandas as pd
import pytest

from scholargraph import analysis
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound
from tests.test_export import ID_OF, _seed


def test_a_script_gets_graphs_and_frames(db: Database, schema_ready: Settings) -> None:
    asyncio.run(_seed_with_own_connection(schema_ready))
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()  # as in a script: no loop runs here
    whole = analysis.coauthors(settings=schema_ready)
    assert (whole.number_of_nodes(), whole.number_of_edges()) == (5, 3)
    maths = analysis.coauthors(category="math.CO", settings=schema_ready)
    assert sorted(nx.get_node_attributes(maths, "name").values()) == ["Bob Babbage", "Cy Clark"]

    found = analysis.communities(whole, seed=0)
    assert nx.get_node_attributes(whole, "community") == found.membership
    scores = analysis.centrality(whole, "pagerank")
    nodes = analysis.nodes_frame(whole, pagerank=scores)
    assert isinstance(nodes, pd.DataFrame)
    assert nodes.index.name == "id" and sorted(nodes.index) == sorted(whole)
    assert {"name", "papers", "first_year", "last_year", "degree", "strength", "pagerank"} <= set(
        nodes.columns
    )
    bob = nodes[nodes["name"] == "Bob Babbage"].iloc[0]
    assert (bob["degree"], bob["first_year"], bob["last_year"]) == (2, 2020, 2021)
    assert nodes["pagerank"].sum() == pytest.approx(1.0)
    ties = analysis.ties_frame(whole)
    assert list(ties.columns[:2]) == ["source", "target"]
    assert len(ties) == 3 and (ties["source"] < ties["target"]).all()
    assert set(ties["joint_papers"]) == {1}


async def test_a_running_event_loop_is_no_obstacle(db: Database, schema_ready: Settings) -> None:
    await _seed(db)
    asyncio.get_running_loop()  # as in a Jupyter cell: a loop runs in this thread
    ada = (await db.run(ID_OF, {"name": "Ada Lovelace"}))[0]["id"]
    mine = analysis.ego_network(ada, depth=1, settings=schema_ready)
    assert sorted(nx.get_node_attributes(mine, "name").values()) == ["Ada Lovelace", "Bob Babbage"]
    assert mine.nodes[ada]["hop"] == 0 and mine.graph["center"] == ada
    two = analysis.ego_network(ada, settings=schema_ready)
    assert two.number_of_nodes() == 3
    with pytest.raises(NotFound, match="not an arXiv category"):
        analysis.coauthors(category="nope.XX", settings=schema_ready)
    with pytest.raises(NotFound):
        analysis.ego_network(999_999_999, settings=schema_ready)


def test_unknown_measure_and_empty_frames() -> None:
    with pytest.raises(BadInput, match="pagerank"):
        analysis.centrality(nx.path_graph(3), "closeness")  # type: ignore[arg-type]
    assert analysis.centrality(nx.path_graph(3), "degree") == {0: 1, 1: 2, 2: 1}
    assert analysis.nodes_frame(nx.Graph()).empty
    assert list(analysis.ties_frame(nx.Graph()).columns) == ["source", "target"]


async def _seed_with_own_connection(settings: Settings) -> None:
    async with Database.connect(settings) as db:
        await _seed(db)
