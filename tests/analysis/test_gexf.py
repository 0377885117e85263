"""GEXF 1.3 exports checked against the published XML Schema (tests/fixtures/gexf-1.3)."""

from __future__ import annotations

import io
from pathlib import Path

import networkx as nx
import pytest
from lxml import etree

from scholargraph.graph.analysis import export, write_gexf
from tests.analysis.test_export import TRICKY_NAME, assert_same_core, sample_graph

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "fixtures" / "gexf-1.3" / "gexf.xsd"
NS = {"g": "http://gexf.net/1.3"}
POSITIONS = {1: (0.0, 1.0), 2: (-1.0, 0.0), 3: (1.0, -1.0), 4: (0.5, 0.5)}


@pytest.fixture(scope="module")
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMA_FILE)))


def dated_graph() -> nx.Graph:
    graph = sample_graph()
    graph.nodes[1].update(first_year=1991, last_year=2020)
    graph.nodes[2].update(first_year=1995, last_year=2001)
    graph.nodes[3].update(last_year=2004)
    return graph


def written(graph: nx.Graph, **options: object) -> bytes:
    out = io.StringIO()
    write_gexf(graph, out, **options)  # type: ignore[arg-type]
    return out.getvalue().encode("utf-8")


def assert_valid(schema: etree.XMLSchema, document: bytes) -> etree._Element:
    root = etree.fromstring(document)
    assert schema.validate(root), schema.error_log
    return root


def test_a_dated_graph_with_a_layout_is_valid_gexf_13(schema: etree.XMLSchema) -> None:
    root = assert_valid(schema, written(dated_graph(), positions=POSITIONS))
    assert root.get("version") == "1.3"
    [graph] = root.findall("g:graph", NS)
    assert (graph.get("mode"), graph.get("timeformat")) == ("dynamic", "integer")
    assert (graph.get("start"), graph.get("end")) == ("1991", "2020")


@pytest.mark.parametrize(
    "graph",
    [nx.path_graph(3), nx.DiGraph([(1, 2, {"weight": 2})]), nx.Graph()],
    ids=["plain", "directed", "empty"],
)
def test_graphs_without_years_are_static_and_valid(
    schema: etree.XMLSchema, graph: nx.Graph
) -> None:
    root = assert_valid(schema, written(graph))
    assert root.find("g:graph", NS).get("mode") == "static"
    assert root.find(".//g:spells", NS) is None


def test_the_schema_rejects_what_is_not_gexf_13(schema: etree.XMLSchema, tmp_path: Path) -> None:
    good = written(dated_graph(), positions=POSITIONS)
    assert not schema.validate(etree.fromstring(good.replace(b'version="1.3"', b'version="1.2"')))
    assert not schema.validate(etree.fromstring(good.replace(b'r="31"', b'r="310"')))
    old = tmp_path / "networkx.gexf"
    nx.write_gexf(nx.path_graph(3), old)  # GEXF 1.2draft, another namespace
    assert not schema.validate(etree.parse(str(old)))


def test_spells_follow_first_and_last_years(schema: etree.XMLSchema) -> None:
    root = assert_valid(schema, written(dated_graph()))
    spells = {
        node.get("id"): [(s.get("start"), s.get("end")) for s in node.iterfind(".//g:spell", NS)]
        for node in root.iterfind(".//g:node", NS)
    }
    assert spells == {
        "1": [("1991", "2020")],
        "2": [("1995", "2001")],
        "3": [("2004", "2004")],  # one year known: a one-year spell, not an open one
        "4": [],
    }
    edges = {
        (e.get("source"), e.get("target")): [
            (s.get("start"), s.get("end")) for s in e.iterfind(".//g:spell", NS)
        ]
        for e in root.iterfind(".//g:edge", NS)
    }
    assert edges == {("1", "2"): [("1997", "2001")], ("1", "3"): []}


def test_viz_colour_size_and_position(schema: etree.XMLSchema) -> None:
    root = assert_valid(schema, written(sample_graph(), positions=POSITIONS))
    nodes = {node.get("id"): node for node in root.iterfind(".//g:node", NS)}
    size = {n: float(node.find("g:size", NS).get("value")) for n, node in nodes.items()}
    assert size["1"] > size["2"] > size["3"] >= 4.0
    colour = {
        n: tuple(node.find("g:color", NS).get(c) for c in "rgb")
        for n, node in nodes.items()
        if node.find("g:color", NS) is not None
    }
    assert colour["1"] == colour["3"] != colour["2"]
    assert "4" not in colour  # no community
    position = {n: node.find("g:position", NS) for n, node in nodes.items()}
    assert (float(position["2"].get("x")), float(position["2"].get("y"))) == (-1000.0, 0.0)
    assert nodes["1"].get("label") == TRICKY_NAME
    # The layout is the position, not an attribute Gephi would also read as x and y
    titles = {a.get("title") for a in root.iterfind(".//g:attribute", NS)}
    assert not titles & {"x", "y", "label", "size"}


def test_networkx_reads_the_attributes_back(tmp_path: Path) -> None:
    [path] = export(dated_graph(), "gexf", tmp_path / "ego.gexf", positions=POSITIONS)
    read = nx.read_gexf(path, node_type=int, version="1.3")
    assert_same_core(read)
    assert read.nodes[1]["label"] == TRICKY_NAME
    assert read.nodes[1]["orcid_verified"] is True
    assert read.nodes[1]["spells"] == [(1991, 2020)]


def test_xml_forbidden_characters_are_dropped(schema: etree.XMLSchema) -> None:
    graph = nx.Graph()
    graph.add_node(1, name="Bell\x07 Labs", note=["a", "b"])
    graph.add_edge(1, 2, label="x\x0by")
    root = assert_valid(schema, written(graph))
    assert root.find(".//g:node", NS).get("label") == "Bell Labs"
