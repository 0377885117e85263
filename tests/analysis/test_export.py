from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import networkx as nx
import pytest

from scholargraph.graph.analysis import csv_paths, export, read_csv
from scholargraph.graph.errors import BadInput

TRICKY_NAME = 'Jürgen "J." Schmidhuber <IDSIA> & co, 李'


def sample_graph() -> nx.Graph:
    graph = nx.Graph(weighting="fractional", center=1, truncated=False, note=None)
    graph.add_node(
        1,
        name=TRICKY_NAME,
        slug="1-jurgen-schmidhuber",
        papers=42,
        citations=None,
        mean_year=2016.5,
        community=0,
        alt_names=["J. Schmidhuber", "Juergen Schmidhuber"],
        orcid_verified=True,
    )
    graph.add_node(2, name="Sepp Hochreiter", papers=10, mean_year=2012.0, community=1)
    graph.add_node(3, papers=3, community=0, orcid_verified=False)
    graph.add_node(4)
    graph.add_edge(1, 2, joint_papers=3, first_year=1997, last_year=2001, weight=1.5)
    graph.add_edge(1, 3, joint_papers=1, first_year=None, last_year=None, weight=0.25)
    return graph


def assert_same_core(read: nx.Graph) -> None:
    assert read.number_of_nodes() == 4
    assert read.number_of_edges() == 2
    assert read.nodes[1]["name"] == TRICKY_NAME
    assert read.nodes[1]["papers"] == 42
    assert read.nodes[1]["mean_year"] == pytest.approx(2016.5)
    assert "citations" not in read.nodes[1]
    assert read.edges[1, 2]["weight"] == pytest.approx(1.5)
    assert read.edges[1, 2]["joint_papers"] == 3
    assert read.edges[1, 2]["first_year"] == 1997
    assert "first_year" not in read.edges[1, 3]


def test_graphml_round_trip(tmp_path: Path) -> None:
    [path] = export(sample_graph(), "graphml", tmp_path / "out" / "ego.graphml")
    read = nx.read_graphml(path, node_type=int)
    assert_same_core(read)
    # Gephi's GraphML import takes the node label from the "label" key: names, not ids
    assert read.nodes[1]["label"] == TRICKY_NAME
    assert read.nodes[4]["label"] == "4"
    assert read.nodes[1]["orcid_verified"] is True
    assert read.nodes[3]["orcid_verified"] is False
    assert json.loads(read.nodes[1]["alt_names"]) == ["J. Schmidhuber", "Juergen Schmidhuber"]
    assert read.graph["weighting"] == "fractional"
    assert (read.graph["center"], read.graph["truncated"]) == (1, False)
    assert "note" not in read.graph
    assert not read.is_directed()


def test_graphml_mixed_numbers_become_doubles(tmp_path: Path) -> None:
    graph = nx.Graph([(1, 2, {"weight": 2}), (2, 3, {"weight": 0.5})])
    [path] = export(graph, "graphml", tmp_path / "mixed.graphml")
    read = nx.read_graphml(path, node_type=int)
    assert read.edges[1, 2]["weight"] == 2.0 and read.edges[2, 3]["weight"] == 0.5


def test_graphml_strips_what_xml_forbids_and_widens_mixed_types(tmp_path: Path) -> None:
    graph = nx.Graph()
    graph.add_node(1, name="Bell\x07 Labs", code=7)
    graph.add_node(2, name="Plain", code="cs.DC")
    graph.add_edge(1, 2)
    [path] = export(graph, "graphml", tmp_path / "odd.graphml")
    read = nx.read_graphml(path, node_type=int)
    assert read.nodes[1] == {"name": "Bell Labs", "label": "Bell Labs", "code": "7"}
    assert read.nodes[2]["code"] == "cs.DC"


def test_graphml_positions_are_pixels_and_colours_follow_communities(tmp_path: Path) -> None:
    positions = {1: (0.0, 1.0), 2: (-1.0, 0.0), 3: (1.0, -1.0), 4: (0.5, 0.5)}
    [path] = export(sample_graph(), "graphml", tmp_path / "ego.graphml", positions=positions)
    read = nx.read_graphml(path, node_type=int)
    assert (read.nodes[2]["x"], read.nodes[2]["y"]) == (-1000.0, 0.0)
    assert (read.nodes[4]["x"], read.nodes[4]["y"]) == (500.0, 500.0)
    xs = [read.nodes[n]["x"] for n in read]
    assert max(xs) - min(xs) == 2000.0  # not squeezed into [-1, 1]
    assert read.nodes[1]["size"] > read.nodes[2]["size"] > read.nodes[3]["size"]
    rgb = {n: (read.nodes[n]["r"], read.nodes[n]["g"], read.nodes[n]["b"]) for n in (1, 2, 3)}
    assert rgb[1] == rgb[3] != rgb[2]
    assert "r" not in read.nodes[4]


def test_json_round_trip(tmp_path: Path) -> None:
    [path] = export(sample_graph(), "json", tmp_path / "ego.json", positions={1: (0.5, -0.5)})
    data = json.loads(path.read_text(encoding="utf-8"))
    read = nx.node_link_graph(data, edges="edges")
    assert_same_core(read)
    assert read.nodes[1]["alt_names"] == ["J. Schmidhuber", "Juergen Schmidhuber"]
    assert (read.nodes[1]["x"], read.nodes[1]["y"]) == (0.5, -0.5)
    assert "x" not in read.nodes[2]
    assert read.graph == {"weighting": "fractional", "center": 1, "truncated": False}


def test_csv_round_trip_into_a_folder(tmp_path: Path) -> None:
    paths = export(sample_graph(), "csv", tmp_path)
    assert paths == [tmp_path / "nodes.csv", tmp_path / "edges.csv"]
    with paths[0].open(encoding="utf-8", newline="") as nodes_file:
        header = next(csv.reader(nodes_file))
    with paths[1].open(encoding="utf-8", newline="") as edges_file:
        edge_header = next(csv.reader(edges_file))
    assert header[:2] == ["Id", "Label"]
    assert edge_header[:4] == ["Source", "Target", "Weight", "Type"]
    read = read_csv(tmp_path)
    assert_same_core(read)
    assert read.nodes[1]["orcid_verified"] is True
    assert read.nodes[1]["slug"] == "1-jurgen-schmidhuber"
    assert "name" not in read.nodes[4]


def test_csv_prefix_paths(tmp_path: Path) -> None:
    prefix = tmp_path / "maps" / "ego-"
    paths = export(sample_graph(), "csv", prefix)
    assert paths == [tmp_path / "maps" / "ego-nodes.csv", tmp_path / "maps" / "ego-edges.csv"]
    assert read_csv(prefix).number_of_edges() == 2
    assert csv_paths(f"{tmp_path}/new/") == (
        tmp_path / "new" / "nodes.csv",
        tmp_path / "new" / "edges.csv",
    )


def test_directed_graphs_stay_directed(tmp_path: Path) -> None:
    graph = nx.DiGraph([(1, 2, {"weight": 2}), (2, 1, {"weight": 5})])
    export(graph, "csv", tmp_path)
    assert read_csv(tmp_path).is_directed()
    [path] = export(graph, "graphml", tmp_path / "d.graphml")
    read = nx.read_graphml(path, node_type=int)
    assert read.is_directed() and read.edges[2, 1]["weight"] == 5


def test_unknown_format() -> None:
    with pytest.raises(BadInput, match="graphml"):
        export(nx.Graph(), "pajek", "out.net")  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json"])
def test_single_file_formats_write_to_a_stream_and_into_folders(tmp_path: Path, fmt: str) -> None:
    stream = io.StringIO()
    assert export(sample_graph(), fmt, stream) == []  # type: ignore[arg-type]
    written = stream.getvalue()
    assert TRICKY_NAME.split()[0] in written
    folder = tmp_path / "new"
    [path] = export(sample_graph(), fmt, f"{folder}/")  # type: ignore[arg-type]
    assert path == folder / f"coauthors.{fmt}"
    [again] = export(sample_graph(), fmt, folder)  # type: ignore[arg-type]
    assert again == path
    assert path.read_text(encoding="utf-8").split("\n")[1:] != []


@pytest.mark.parametrize("fmt", ["csv", "vosviewer"])
def test_two_file_formats_refuse_a_stream(fmt: str) -> None:
    with pytest.raises(BadInput, match="two files"):
        export(sample_graph(), fmt, io.StringIO())  # type: ignore[arg-type]
