"""VOSviewer map and network files: tab-separated text, as its manual describes them.

The **map file** has a header line and one line per researcher::

    id  label  x  y  cluster  weight<Links>  weight<Total link strength>  weight<Papers>  …

* ``id``: the researcher id (a positive integer; graphs with other node ids are numbered
  1, 2, … in node order); ``label``: the name, in double quotes when it holds a comma or a
  semicolon, as VOSviewer asks.
* ``x`` and ``y``: the layout, when one is given (else VOSviewer lays the map out itself).
* ``cluster``: the community plus one (VOSviewer counts clusters from 1, up to 1000),
  written when every node has a community and there are at most 1000 (else VOSviewer
  clusters the map itself).
* ``weight<Links>`` (coauthors), ``weight<Total link strength>`` (sum of the tie
  weights), ``weight<Papers>`` and ``weight<Citations>``: what VOSviewer can size items by.
* ``score<Avg. pub. year>``, ``score<Avg. citations>`` and ``score<h-index>``: what its
  overlay visualisation colours by; a score column is written when every node has it.

The **network file** has no header and one line per tie: ``id1  id2  strength``, the
strength being the tie's ``weight``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

import networkx as nx

from scholargraph.graph.analysis._encode import Position, Target, label_of, number, opened

MAX_CLUSTERS = 1000
_UNSAFE = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


def vosviewer_paths(path: str | Path) -> tuple[Path, Path]:
    """The map and network files for a folder (``map.txt``, ``network.txt``) or a prefix."""
    text = str(path)
    folder = Path(path)
    if folder.is_dir() or text.endswith(("/", "\\")):
        return folder / "map.txt", folder / "network.txt"
    return folder.with_name(folder.name + "map.txt"), folder.with_name(folder.name + "network.txt")


def write_vosviewer(
    graph: nx.Graph,
    map_target: Target,
    network_target: Target,
    *,
    positions: Mapping[Hashable, Position] | None = None,
    cluster_by: str | None = "community",
) -> None:
    """Write the map and network files (see the module docstring for the columns)."""
    ids = _ids(graph)
    columns = _columns(graph, positions, cluster_by)
    with opened(map_target) as out:
        out.write("\t".join(["id", "label", *columns]) + "\n")
        for node in graph:
            cells = [str(ids[node]), _label(label_of(graph, node))]
            cells.extend(_cell(cell(node)) for cell in columns.values())
            out.write("\t".join(cells) + "\n")
    with opened(network_target) as out:
        for u, v, data in graph.edges(data=True):
            strength = float(data.get("weight", 1))
            out.write(f"{ids[u]}\t{ids[v]}\t{_number_text(strength)}\n")


def _ids(graph: nx.Graph) -> dict[Hashable, int]:
    nodes = list(graph)
    if all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in nodes):
        return {n: int(n) for n in nodes}
    return {n: i for i, n in enumerate(nodes, start=1)}


def _columns(
    graph: nx.Graph, positions: Mapping[Hashable, Position] | None, cluster_by: str | None
) -> dict[str, Callable[[Hashable], Any]]:
    columns: dict[str, Callable[[Hashable], Any]] = {}
    if positions is not None and all(n in positions for n in graph):
        columns["x"] = lambda n: float(positions[n][0])
        columns["y"] = lambda n: float(positions[n][1])
    if cluster_by:
        found = [graph.nodes[n].get(cluster_by) for n in graph]
        if all(isinstance(c, int) and 0 <= c < MAX_CLUSTERS for c in found) and found:
            columns["cluster"] = lambda n: int(graph.nodes[n][cluster_by]) + 1
    columns["weight<Links>"] = lambda n: graph.degree(n)
    columns["weight<Total link strength>"] = lambda n: graph.degree(n, weight="weight")
    columns["weight<Papers>"] = lambda n: number(graph.nodes[n].get("papers"))
    columns["weight<Citations>"] = lambda n: number(graph.nodes[n].get("citations"))
    scores: dict[str, Callable[[Mapping[str, Any]], Any]] = {
        "score<Avg. pub. year>": lambda d: d.get("mean_year"),
        "score<Avg. citations>": lambda d: (
            number(d.get("citations")) / number(d["papers"]) if number(d.get("papers")) else None
        ),
        "score<h-index>": lambda d: d.get("h_index"),
    }
    for name, score in scores.items():
        if graph and all(_is_number(score(data)) for _, data in graph.nodes(data=True)):
            columns[name] = lambda n, score=score: score(graph.nodes[n])  # type: ignore[misc]
    return columns


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _cell(value: Any) -> str:
    return _number_text(float(value)) if _is_number(value) else str(value)


def _number_text(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def _label(text: str) -> str:
    clean = text.translate(_UNSAFE)
    if any(c in clean for c in ',;"'):
        return '"' + clean.replace('"', '""') + '"'
    return clean
