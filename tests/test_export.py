"""Coauthor graphs from the database, exported and read back with the same counts."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from scholargraph.graph.analysis import read_csv
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import InstitutionRef
from scholargraph.graph.repo.graphs import Selection, coauthor_graph
from scholargraph.queries import Query
from tests.loaders.records_factory import author, paper
from tests.test_cli import scholargraph

NUS = InstitutionRef(ror_id="01tgyzw49", name="National University of Singapore")
ID_OF = Query("test.id_of", "MATCH (r:Researcher {name: $name}) RETURN r.id AS id")


async def _seed(db: Database) -> None:
    people = {
        n: author(n, "openalex", openalex=f"A{i}")
        for i, n in enumerate(["Ada Lovelace", "Bob Babbage", "Cy Clark", "Di Dee", "Ed Eve"])
    }
    ada, bob, cy, di, ed = people.values()
    await GraphWriter(db).write_papers(
        [
            paper(
                "2001.00001",
                [ada, bob],
                source="openalex",
                year=2020,
                institutions={1: NUS, 2: NUS},
            ),
            paper("2101.00001", [bob, cy], source="openalex", year=2021, categories=("math.CO",)),
            paper("2201.00001", [cy, di], source="openalex", year=2022),
            paper("1901.00001", [ed], source="openalex", year=2019),
        ]
    )


async def test_selections(db: Database) -> None:
    await _seed(db)
    whole = await coauthor_graph(db, Selection())
    assert (whole.number_of_nodes(), whole.number_of_edges()) == (5, 3)
    ada = (await db.run(ID_OF, {"name": "Ada Lovelace"}))[0]["id"]
    mine = await coauthor_graph(db, Selection(researcher=str(ada), depth=2))
    assert mine.number_of_nodes() == 3  # Ada, Bob, Cy
    maths = await coauthor_graph(db, Selection(category="math.CO"))
    assert sorted(nx.get_node_attributes(maths, "name").values()) == ["Bob Babbage", "Cy Clark"]
    nus = await coauthor_graph(db, Selection(institution="01tgyzw49"))
    assert nus.number_of_edges() == 1
    recent = await coauthor_graph(db, Selection(year_from=2021))
    assert recent.number_of_edges() == 2
    with pytest.raises(BadInput):
        await coauthor_graph(db, Selection(category="cs.DC", institution="01tgyzw49"))


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "csv", "json"])
async def test_export_command_round_trips(
    db: Database, schema_ready: Settings, tmp_path: Path, fmt: str
) -> None:
    await _seed(db)
    output = tmp_path / ("out/" if fmt == "csv" else f"g.{fmt}")
    done = scholargraph(
        schema_ready, "export", "--format", fmt, "--output", str(output), "--layout"
    )
    assert done.returncode == 0, done.stderr
    if fmt == "graphml":
        back = nx.read_graphml(output)
    elif fmt == "gexf":
        back = nx.read_gexf(output)
    elif fmt == "csv":
        back = read_csv(output)
    else:
        import json

        back = nx.node_link_graph(json.loads(output.read_text()), edges="edges")
    assert (back.number_of_nodes(), back.number_of_edges()) == (5, 3)
