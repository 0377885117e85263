"""Coauthor graphs from the database, exported and read back with the same counts."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from lxml import etree

from scholargraph.graph.analysis import read_csv
from scholargraph.graph.config import Settings
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.loaders.writer import GraphWriter
from scholargraph.graph.records import InstitutionRef
from scholargraph.graph.repo.graphs import Selection, coauthor_graph
from scholargraph.queries import Query
from tests.analysis.test_gexf import SCHEMA_FILE
from tests.loaders.records_factory import author, paper
from tests.test_cli import ROOT, scholargraph

NUS = InstitutionRef(ror_id="01tgyzw49", name="National University of Singapore")
SCHEMA = etree.XMLSchema(etree.parse(str(SCHEMA_FILE)))
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


async def test_nodes_carry_their_years_and_unknown_selections_are_errors(db: Database) -> None:
    await _seed(db)
    whole = await coauthor_graph(db, Selection())
    by_name = {data["name"]: data for _, data in whole.nodes(data=True)}
    assert (by_name["Bob Babbage"]["first_year"], by_name["Bob Babbage"]["last_year"]) == (
        2020,
        2021,
    )
    assert by_name["Bob Babbage"]["mean_year"] == 2020.5
    with pytest.raises(NotFound, match="not an arXiv category"):
        await coauthor_graph(db, Selection(category="nope.XX"))
    with pytest.raises(NotFound):
        await coauthor_graph(db, Selection(researcher="999999999"))
    with pytest.raises(NotFound):
        await coauthor_graph(db, Selection(institution="00nope000"))


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "vosviewer", "csv", "json"])
async def test_export_command_round_trips(
    db: Database, schema_ready: Settings, tmp_path: Path, fmt: str
) -> None:
    await _seed(db)
    two_files = fmt in ("csv", "vosviewer")
    output = tmp_path / ("out" if two_files else f"g.{fmt}")
    target = f"{output}/" if two_files else str(output)  # a folder: its files go inside
    done = scholargraph(schema_ready, "export", "--format", fmt, "--output", target, "--layout")
    assert done.returncode == 0, done.stderr
    if fmt == "graphml":
        back = nx.read_graphml(output)
    elif fmt == "gexf":
        back = nx.read_gexf(output, version="1.3")
    elif fmt == "vosviewer":
        items = (output / "map.txt").read_text().splitlines()[1:]
        links = (output / "network.txt").read_text().splitlines()
        back = nx.Graph()
        back.add_nodes_from(line.split("\t")[0] for line in items)
        back.add_edges_from(line.split("\t")[:2] for line in links)
    elif fmt == "csv":
        back = read_csv(output)
    else:
        import json

        back = nx.node_link_graph(json.loads(output.read_text()), edges="edges")
    assert (back.number_of_nodes(), back.number_of_edges()) == (5, 3)


async def test_export_to_standard_output_and_into_a_folder(
    db: Database, schema_ready: Settings, tmp_path: Path
) -> None:
    await _seed(db)
    done = scholargraph(schema_ready, "export", "--format", "gexf", "--layout", "--output", "-")
    assert done.returncode == 0, done.stderr
    root = etree.fromstring(done.stdout.encode())
    assert SCHEMA.validate(root), SCHEMA.error_log
    graph = root.find("{http://gexf.net/1.3}graph")
    assert (graph.get("mode"), graph.get("start"), graph.get("end")) == ("dynamic", "2019", "2022")
    assert "5 researchers" in done.stderr  # the summary stays off the data
    assert not (ROOT / "-").exists()

    folder = tmp_path / "ego"
    done = scholargraph(schema_ready, "export", "--format", "csv", "--output", f"{folder}/")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["edges.csv", "nodes.csv"]
    assert not (tmp_path / "egonodes.csv").exists()
    done = scholargraph(schema_ready, "export", "--format", "json", "--output", str(folder))
    assert done.returncode == 0, done.stderr
    assert (folder / "coauthors.json").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--category", "nope.XX"], "not an arXiv category"),
        (["--category", "hep-th"], "no researchers in this selection"),
        (["--researcher", "999999999"], "no researcher with that id"),
        (["--institution", "00nope000"], "institution"),
        (["--format", "csv", "--output", "-"], "two files"),
    ],
)
async def test_an_unknown_selection_is_an_error_not_an_empty_file(
    db: Database, schema_ready: Settings, tmp_path: Path, args: list[str], message: str
) -> None:
    await _seed(db)
    output = tmp_path / "out.graphml"
    done = scholargraph(schema_ready, "export", "--output", str(output), *args)
    assert done.returncode != 0
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert not output.exists()
