"""Write a graph for Gephi, VOSviewer and other tools: GraphML, GEXF 1.3, VOSviewer map and
network files, CSV and JSON.

Every format is written as a stream, node by node and edge by edge, so a large graph is
never held twice in memory: a 100,000-node, 500,000-edge graph takes about 3 s to GraphML
here, where ``networkx.write_graphml`` builds the whole XML tree first (about 20 s and
1.7 GB more memory).

Every format drops attributes whose value is ``None`` (GraphML and GEXF cannot store it);
GraphML and GEXF also drop the control characters that XML forbids.
Values other than text, numbers and booleans (lists, say) are written as JSON text, except
in JSON, which keeps them as they are.

Where a file goes: a single-file format (GraphML, GEXF, JSON) writes to a file, to a
folder (an existing one, or a path ending with a separator: ``coauthors.<format>`` inside
it) or to a text stream (``sys.stdout``, say). CSV and VOSviewer write two files, into a
folder or next to a prefix (see :func:`export`).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Hashable, Iterable, Mapping
from itertools import chain
from pathlib import Path
from typing import Any, Literal, TextIO
from xml.sax.saxutils import escape

import networkx as nx

from scholargraph.graph.analysis._encode import (
    CANVAS_SPREAD,
    Position,
    Scalar,
    Target,
    colour,
    colour_index,
    declare,
    label_of,
    node_attrs,
    opened,
    present,
    scalar,
    sizes,
    typed_text,
    xml_attr,
)
from scholargraph.graph.analysis.gexf import write_gexf
from scholargraph.graph.analysis.vosviewer import vosviewer_paths, write_vosviewer
from scholargraph.graph.errors import BadInput

Format = Literal["graphml", "gexf", "vosviewer", "csv", "json"]
FORMATS: tuple[Format, ...] = ("graphml", "gexf", "vosviewer", "csv", "json")
TWO_FILES: tuple[Format, ...] = ("vosviewer", "csv")
_INT = re.compile(r"-?\d+")
_FLOAT = re.compile(r"-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?|-?inf|nan")


def export(
    graph: nx.Graph,
    fmt: Format,
    path: str | Path | TextIO,
    *,
    positions: Mapping[Hashable, Position] | None = None,
    size_by: str | None = "papers",
    color_by: str | None = "community",
) -> list[Path]:
    """Write ``graph`` as ``fmt`` at ``path`` and return the files written.

    For ``csv`` and ``vosviewer``, ``path`` is a folder (existing, or ending with a path
    separator), which receives ``nodes.csv`` and ``edges.csv`` (``map.txt`` and
    ``network.txt``), or else a prefix: ``out/ego-`` writes ``out/ego-nodes.csv`` and
    ``out/ego-edges.csv``. For the others, ``path`` is a file, a folder (which receives
    ``coauthors.<fmt>``) or an open text stream, written and left open (nothing is
    returned then). With ``positions`` (a layout in ``[-1, 1]``), nodes get ``x`` and ``y``
    (spread over ±1000 pixels in GraphML and GEXF). In GraphML and GEXF, node size follows
    the ``size_by`` attribute and colour the ``color_by`` attribute (a community id), where
    nodes have them; VOSviewer's clusters follow ``color_by``.
    """
    if fmt not in FORMATS:
        raise BadInput(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if not isinstance(path, str | Path):
        if fmt in TWO_FILES:
            raise BadInput(f"{fmt} writes two files; give a folder or a prefix, not a stream")
        _write_one(graph, fmt, path, positions, size_by, color_by)
        return []
    if fmt == "csv":
        return list(write_csv(graph, path, positions=positions))
    if fmt == "vosviewer":
        map_path, network_path = vosviewer_paths(path)
        write_vosviewer(graph, map_path, network_path, positions=positions, cluster_by=color_by)
        return [map_path, network_path]
    target = Path(path)
    if target.is_dir() or str(path).endswith(("/", "\\")):
        target = target / f"coauthors.{fmt}"
    _write_one(graph, fmt, target, positions, size_by, color_by)
    return [target]


def _write_one(
    graph: nx.Graph,
    fmt: Format,
    target: Target,
    positions: Mapping[Hashable, Position] | None,
    size_by: str | None,
    color_by: str | None,
) -> None:
    if fmt == "graphml":
        write_graphml(graph, target, positions=positions, size_by=size_by, color_by=color_by)
    elif fmt == "gexf":
        write_gexf(graph, target, positions=positions, size_by=size_by, color_by=color_by)
    else:
        write_json(graph, target, positions=positions)


def write_graphml(
    graph: nx.Graph,
    target: Target,
    *,
    positions: Mapping[Hashable, Position] | None = None,
    size_by: str | None = "papers",
    color_by: str | None = "community",
) -> None:
    """Stream ``graph`` to GraphML; ``networkx.read_graphml(path, node_type=int)`` reads it.

    Beside the node's own attributes come the keys Gephi's GraphML import draws with:
    ``label`` (the ``name``), ``x`` and ``y`` (the layout spread over ±1000 pixels),
    ``size`` (as in GEXF) and ``r``, ``g``, ``b`` (the community's colour).
    """
    size_of = sizes(graph, size_by)
    colours = colour_index(graph, color_by)

    def drawn(node: Hashable) -> dict[str, Any]:
        attrs = node_attrs(graph, node, positions)
        attrs["label"] = label_of(graph, node)
        if positions is not None and node in positions:
            attrs["x"], attrs["y"] = (float(c) * CANVAS_SPREAD for c in positions[node])
        if node in size_of:
            attrs["size"] = size_of[node]
        if node in colours:
            attrs["r"], attrs["g"], attrs["b"] = colour(colours[node])
        return attrs

    keys = {
        "graph": declare("g", [graph.graph]),
        "node": declare("n", (drawn(node) for node in graph)),
        "edge": declare("e", (data for _, _, data in graph.edges(data=True))),
    }
    kind = "directed" if graph.is_directed() else "undirected"
    with opened(target) as out:
        out.write(
            "<?xml version='1.0' encoding='utf-8'?>\n"
            '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
            'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n'
        )
        for scope, declared in keys.items():
            for name, (key, value_type) in declared.items():
                out.write(
                    f'  <key id="{key}" for="{scope}" attr.name={xml_attr(name)} '
                    f'attr.type="{value_type}" />\n'
                )
        out.write(f'  <graph edgedefault="{kind}">\n')
        out.write(_graphml_data(graph.graph, keys["graph"], "    ", "\n"))
        for node in graph:
            data = _graphml_data(drawn(node), keys["node"], "", "")
            out.write(f"    <node id={xml_attr(node)}>{data}</node>\n")
        for u, v, attrs in graph.edges(data=True):
            data = _graphml_data(attrs, keys["edge"], "", "")
            out.write(f"    <edge source={xml_attr(u)} target={xml_attr(v)}>{data}</edge>\n")
        out.write("  </graph>\n</graphml>\n")


def csv_paths(path: str | Path) -> tuple[Path, Path]:
    """The nodes and edges files for a CSV folder or prefix (see :func:`export`)."""
    text = str(path)
    folder = Path(path)
    if folder.is_dir() or text.endswith(("/", "\\")):
        return folder / "nodes.csv", folder / "edges.csv"
    return folder.with_name(folder.name + "nodes.csv"), folder.with_name(folder.name + "edges.csv")


def write_csv(
    graph: nx.Graph, path: str | Path, *, positions: Mapping[Hashable, Position] | None = None
) -> tuple[Path, Path]:
    """Write ``nodes.csv`` (``Id,Label,…``) and ``edges.csv`` (``Source,Target,Weight,Type,…``).

    ``Label`` is the node's ``name`` (its id when it has none); ``Weight`` the edge's
    ``weight`` (1 when it has none); ``Type`` is ``Undirected`` or ``Directed`` for Gephi's
    spreadsheet import. Other attributes follow in alphabetical order, empty where missing.
    """
    nodes_path, edges_path = csv_paths(path)
    nodes_path.parent.mkdir(parents=True, exist_ok=True)
    node_columns = sorted({k for n in graph for k in node_attrs(graph, n, positions)} - {"name"})
    edge_columns = sorted(
        {k for _, _, d in graph.edges(data=True) for k in present(d)} - {"weight"}
    )
    kind = "Directed" if graph.is_directed() else "Undirected"
    with nodes_path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Id", "Label", *node_columns])
        for node in graph:
            attrs = node_attrs(graph, node, positions)
            label = attrs.get("name", node)
            writer.writerow([node, _cell(label), *(_cell(attrs.get(c)) for c in node_columns)])
    with edges_path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Source", "Target", "Weight", "Type", *edge_columns])
        for u, v, data in graph.edges(data=True):
            cells = (_cell(data.get(c)) for c in edge_columns)
            writer.writerow([u, v, _cell(data.get("weight", 1)), kind, *cells])
    return nodes_path, edges_path


def read_csv(path: str | Path) -> nx.Graph:
    """Read back what :func:`write_csv` wrote; values are typed back by their look.

    ``Label`` becomes ``name`` unless it merely repeats the id, ``Weight`` becomes
    ``weight``; the first edge's ``Type`` decides whether the graph is directed.
    """
    nodes_path, edges_path = csv_paths(path)
    with (
        edges_path.open(encoding="utf-8", newline="") as edges_file,
        nodes_path.open(encoding="utf-8", newline="") as nodes_file,
    ):
        edge_rows = csv.DictReader(edges_file)
        first = next(edge_rows, None)
        graph = nx.DiGraph() if first and first.get("Type") == "Directed" else nx.Graph()
        for row in csv.DictReader(nodes_file):
            node = _parse(row.pop("Id"))
            label = row.pop("Label", "")
            attrs = _parsed(row)
            if label and label != str(node):
                attrs["name"] = label
            graph.add_node(node, **attrs)
        for row in chain([first] if first else [], edge_rows):
            u, v = _parse(row.pop("Source")), _parse(row.pop("Target"))
            row.pop("Type", None)
            row["weight"] = row.pop("Weight", "")
            graph.add_edge(u, v, **_parsed(row))
    return graph


def write_json(
    graph: nx.Graph, target: Target, *, positions: Mapping[Hashable, Position] | None = None
) -> None:
    """Stream node-link JSON; ``networkx.node_link_graph(data, edges="edges")`` reads it."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, default=str)

    with opened(target) as out:
        out.write(f'{{"directed": {dump(graph.is_directed())}, "multigraph": false, ')
        out.write(f'"graph": {dump(present(graph.graph))},\n"nodes": [')
        records = ({**node_attrs(graph, n, positions), "id": _json_id(n)} for n in graph)
        _write_list(out, (dump(record) for record in records))
        out.write('],\n"edges": [')
        links = (
            {**present(d), "source": _json_id(u), "target": _json_id(v)}
            for u, v, d in graph.edges(data=True)
        )
        _write_list(out, (dump(link) for link in links))
        out.write("]}\n")


def _write_list(out: TextIO, items: Iterable[str]) -> None:
    for i, item in enumerate(items):
        out.write(f",\n{item}" if i else f"\n{item}")
    out.write("\n")


def _json_id(node: Hashable) -> Hashable:
    return node if isinstance(node, str | int | float) else str(node)


def _graphml_data(
    attrs: Mapping[str, Any], keys: Mapping[str, tuple[str, str]], indent: str, end: str
) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None:
            continue
        key, value_type = keys[name]
        text = typed_text(value, value_type)
        parts.append(f'{indent}<data key="{key}">{escape(text)}</data>{end}')
    return "".join(parts)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(scalar(value))


def _parse(text: str) -> Scalar:
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    if text in ("true", "false"):
        return text == "true"
    return text


def _parsed(row: Mapping[str, str | None]) -> dict[str, Scalar]:
    return {k: _parse(v) for k, v in row.items() if v}
