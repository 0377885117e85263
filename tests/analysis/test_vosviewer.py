"""VOSviewer map and network files read back as VOSviewer's manual describes them: tab-separated,
a header of known columns in the map file, none in the network file, links between mapped ids."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import networkx as nx

from scholargraph.graph.analysis import export, louvain, vosviewer_paths
from tests.analysis.test_export import TRICKY_NAME, sample_graph

# The map file's columns in VOSviewer's manual; weight<…> and score<…> take any label.
COLUMN = re.compile(r"id|label|description|url|x|y|cluster|weight<[^<>\t]+>|score<[^<>\t]+>")


def read_map(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    header, body = rows[0], rows[1:]
    assert all(COLUMN.fullmatch(name) for name in header), header
    assert len(set(header)) == len(header)
    assert all(len(row) == len(header) for row in body)
    return header, [dict(zip(header, row, strict=True)) for row in body]


def read_network(path: Path) -> list[tuple[int, int, float]]:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    assert all(len(row) == 3 for row in rows)
    return [(int(a), int(b), float(strength)) for a, b, strength in rows]


def community_graph() -> nx.Graph:
    graph = nx.relabel_nodes(nx.karate_club_graph(), {n: 1_000_000 + n for n in range(34)})
    for n, data in graph.nodes(data=True):
        data.update(
            name=f"Researcher {n}, Jr." if n % 5 == 0 else f"Researcher {n}",
            papers=3 + n % 7,
            citations=10 * (n % 4),
            mean_year=2000 + n % 20 + 0.5,
            h_index=n % 6,
        )
    nx.set_node_attributes(graph, louvain(graph, seed=0).membership, "community")
    return graph


def test_map_and_network_files_of_a_laid_out_graph(tmp_path: Path) -> None:
    graph = community_graph()
    positions = nx.spring_layout(graph, seed=1)
    paths = export(graph, "vosviewer", f"{tmp_path}/vos/", positions=positions)
    assert paths == [tmp_path / "vos" / "map.txt", tmp_path / "vos" / "network.txt"]
    header, items = read_map(paths[0])
    assert header == [
        "id", "label", "x", "y", "cluster",
        "weight<Links>", "weight<Total link strength>", "weight<Papers>", "weight<Citations>",
        "score<Avg. pub. year>", "score<Avg. citations>", "score<h-index>",
    ]  # fmt: skip
    ids = {int(item["id"]) for item in items}
    assert ids == set(graph)
    for item in items:
        node = int(item["id"])
        assert int(item["weight<Links>"]) == graph.degree(node)
        assert float(item["weight<Papers>"]) == graph.nodes[node]["papers"]
        assert 1 <= int(item["cluster"]) == graph.nodes[node]["community"] + 1 <= 1000
        assert all(float(item[c]) >= 0 for c in header if c.startswith("weight<"))
        assert float(item["score<Avg. pub. year>"]) == graph.nodes[node]["mean_year"]
        assert (float(item["x"]), float(item["y"])) == tuple(positions[node])
    links = read_network(paths[1])
    assert len(links) == graph.number_of_edges()
    assert all(a in ids and b in ids and strength > 0 for a, b, strength in links)


def test_labels_with_commas_are_quoted_as_vosviewer_asks(tmp_path: Path) -> None:
    export(community_graph(), "vosviewer", tmp_path)
    text = (tmp_path / "map.txt").read_text(encoding="utf-8")
    assert '\t"Researcher 1000000, Jr."\t' in text
    _, items = read_map(tmp_path / "map.txt")
    assert {item["label"] for item in items} >= {"Researcher 1000000, Jr.", "Researcher 1000001"}


def test_sparse_attributes_leave_their_columns_out(tmp_path: Path) -> None:
    prefix = tmp_path / "maps" / "ego-"
    paths = export(sample_graph(), "vosviewer", prefix)
    assert paths == list(vosviewer_paths(prefix))
    assert paths[0] == tmp_path / "maps" / "ego-map.txt"
    header, items = read_map(paths[0])
    # node 4 has no community, no mean year: no partial cluster or score columns
    assert "cluster" not in header and not [c for c in header if c.startswith("score<")]
    assert "x" not in header  # no layout given
    labels = {item["id"]: item["label"] for item in items}
    assert labels["1"] == TRICKY_NAME and labels["4"] == "4"
    assert sorted(read_network(paths[1])) == [(1, 2, 1.5), (1, 3, 0.25)]


def test_nodes_that_are_not_positive_ints_are_numbered(tmp_path: Path) -> None:
    graph = nx.Graph([("a", "b", {"weight": 2}), ("b", "c", {"weight": 1})])
    export(graph, "vosviewer", tmp_path)
    _, items = read_map(tmp_path / "map.txt")
    number = {item["label"]: int(item["id"]) for item in items}
    assert number == {"a": 1, "b": 2, "c": 3}
    assert read_network(tmp_path / "network.txt") == [(1, 2, 2.0), (2, 3, 1.0)]
