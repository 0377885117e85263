"""Write a graph for Gephi, VOSviewer and other tools: GraphML, GEXF, CSV and JSON.

GraphML, CSV and JSON are written as a stream, node by node and edge by edge, so a large
graph is never held twice in memory: a 100,000-node, 500,000-edge graph takes about 3 s to
GraphML here, where ``networkx.write_graphml`` builds the whole XML tree first (about 20 s
and 1.7 GB more memory). GEXF goes through ``networkx.write_gexf`` and is built in memory in
the same way: use it for the networks a person looks at.

Every format drops attributes whose value is ``None`` (GraphML and GEXF cannot store it);
GraphML and GEXF also drop the control characters that XML forbids.
Values other than text, numbers and booleans (lists, say) are written as JSON text, except
in JSON, which keeps them as they are.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Hashable, Iterable, Mapping
from itertools import chain
from pathlib import Path
from typing import Any, Literal, TextIO
from xml.sax.saxutils import escape, quoteattr

import networkx as nx

from scholargraph.graph.errors import BadInput

Format = Literal["graphml", "gexf", "csv", "json"]
FORMATS: tuple[Format, ...] = ("graphml", "gexf", "csv", "json")
Position = tuple[float, float]
Scalar = str | int | float | bool

# A palette that stays distinguishable for the first dozen communities.
PALETTE = (
    (31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
    (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207),
    (174, 199, 232), (255, 187, 120),
)  # fmt: skip
_GEXF_SPREAD = 1000.0  # layout positions are in [-1, 1]; Gephi's canvas is in pixels
_INT = re.compile(r"-?\d+")
_FLOAT = re.compile(r"-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?|-?inf|nan")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def export(
    graph: nx.Graph,
    fmt: Format,
    path: str | Path,
    *,
    positions: Mapping[Hashable, Position] | None = None,
    size_by: str | None = "papers",
    color_by: str | None = "community",
) -> list[Path]:
    """Write ``graph`` as ``fmt`` at ``path`` and return the files written.

    For ``csv``, ``path`` is a folder (existing, or ending with a path separator), which
    receives ``nodes.csv`` and ``edges.csv``, or else a prefix: ``out/ego-`` writes
    ``out/ego-nodes.csv`` and ``out/ego-edges.csv``. With ``positions`` (a layout), nodes get
    ``x`` and ``y``. In GEXF, node size follows the ``size_by`` attribute and colour the
    ``color_by`` attribute (a community id), where nodes have them.
    """
    if fmt not in FORMATS:
        raise BadInput(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    target = Path(path)
    if fmt == "csv":
        return list(write_csv(graph, path, positions=positions))
    target.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "graphml":
        write_graphml(graph, target, positions=positions)
    elif fmt == "gexf":
        write_gexf(graph, target, positions=positions, size_by=size_by, color_by=color_by)
    else:
        write_json(graph, target, positions=positions)
    return [target]


def write_graphml(
    graph: nx.Graph, path: Path, *, positions: Mapping[Hashable, Position] | None = None
) -> None:
    """Stream ``graph`` to GraphML; ``networkx.read_graphml(path, node_type=int)`` reads it."""
    keys = {
        "graph": _declare("g", [graph.graph]),
        "node": _declare("n", (_node_attrs(graph, node, positions) for node in graph)),
        "edge": _declare("e", (data for _, _, data in graph.edges(data=True))),
    }
    kind = "directed" if graph.is_directed() else "undirected"
    with path.open("w", encoding="utf-8", newline="\n") as out:
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
                    f'  <key id="{key}" for="{scope}" attr.name={_xml_attr(name)} '
                    f'attr.type="{value_type}" />\n'
                )
        out.write(f'  <graph edgedefault="{kind}">\n')
        out.write(_graphml_data(graph.graph, keys["graph"], "    ", "\n"))
        for node in graph:
            data = _graphml_data(_node_attrs(graph, node, positions), keys["node"], "", "")
            out.write(f"    <node id={_xml_attr(node)}>{data}</node>\n")
        for u, v, attrs in graph.edges(data=True):
            data = _graphml_data(attrs, keys["edge"], "", "")
            out.write(f"    <edge source={_xml_attr(u)} target={_xml_attr(v)}>{data}</edge>\n")
        out.write("  </graph>\n</graphml>\n")


def write_gexf(
    graph: nx.Graph,
    path: Path,
    *,
    positions: Mapping[Hashable, Position] | None = None,
    size_by: str | None = "papers",
    color_by: str | None = "community",
) -> None:
    """Write GEXF 1.2 with Gephi's ``viz`` size, colour and position where known.

    Size grows with the square root of ``size_by`` (area in proportion to the value), from
    4 to 40; colour is taken from :data:`PALETTE` by the ``color_by`` value.
    """
    sizes = graph.nodes(data=size_by) if size_by else []
    largest = max((_number(value) for _, value in sizes), default=0.0)
    colours = _colour_index(graph, color_by)
    plain = nx.DiGraph() if graph.is_directed() else nx.Graph()
    for node in graph:
        attrs: dict[str, Any] = {
            k: _xml_scalar(v) for k, v in _node_attrs(graph, node, positions).items()
        }
        attrs["label"] = str(attrs.get("name", node))
        viz: dict[str, Any] = {}
        if size_by and largest > 0:
            viz["size"] = 4.0 + 36.0 * math.sqrt(_number(attrs.get(size_by)) / largest)
        if colours and node in colours:
            r, g, b = PALETTE[colours[node] % len(PALETTE)]
            viz["color"] = {"r": r, "g": g, "b": b, "a": 1.0}
        if positions and node in positions:
            x, y = positions[node]
            viz["position"] = {"x": x * _GEXF_SPREAD, "y": y * _GEXF_SPREAD, "z": 0.0}
        if viz:
            attrs["viz"] = viz
        plain.add_node(node, **attrs)
    plain.add_edges_from(
        (u, v, {k: _xml_scalar(value) for k, value in _present(data).items()})
        for u, v, data in graph.edges(data=True)
    )
    nx.write_gexf(plain, path)


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
    node_columns = sorted({k for n in graph for k in _node_attrs(graph, n, positions)} - {"name"})
    edge_columns = sorted(
        {k for _, _, d in graph.edges(data=True) for k in _present(d)} - {"weight"}
    )
    kind = "Directed" if graph.is_directed() else "Undirected"
    with nodes_path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Id", "Label", *node_columns])
        for node in graph:
            attrs = _node_attrs(graph, node, positions)
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
    graph: nx.Graph, path: Path, *, positions: Mapping[Hashable, Position] | None = None
) -> None:
    """Stream node-link JSON; ``networkx.node_link_graph(data, edges="edges")`` reads it."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, default=str)

    with path.open("w", encoding="utf-8") as out:
        out.write(f'{{"directed": {dump(graph.is_directed())}, "multigraph": false, ')
        out.write(f'"graph": {dump(_present(graph.graph))},\n"nodes": [')
        records = ({**_node_attrs(graph, n, positions), "id": _json_id(n)} for n in graph)
        _write_list(out, (dump(record) for record in records))
        out.write('],\n"edges": [')
        links = (
            {**_present(d), "source": _json_id(u), "target": _json_id(v)}
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


def _present(attrs: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in attrs.items() if v is not None}


def _node_attrs(
    graph: nx.Graph, node: Hashable, positions: Mapping[Hashable, Position] | None
) -> dict[str, Any]:
    attrs = _present(graph.nodes[node])
    if positions is not None and node in positions:
        attrs["x"], attrs["y"] = (float(c) for c in positions[node])
    return attrs


def _scalar(value: Any) -> Scalar:
    if isinstance(value, str | int | float | bool):
        return value
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _declare(prefix: str, records: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str, str]]:
    """GraphML key id and ``attr.type`` of each attribute, in order of first appearance."""
    kinds: dict[str, set[str]] = {}
    for attrs in records:
        for name, value in attrs.items():
            if value is not None:
                kinds.setdefault(name, set()).add(_graphml_type(value))
    declared = {}
    for i, (name, seen) in enumerate(kinds.items()):
        if len(seen) == 1:
            value_type = next(iter(seen))
        else:
            value_type = "double" if seen == {"long", "double"} else "string"
        declared[name] = (f"{prefix}{i}", value_type)
    return declared


def _graphml_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _graphml_data(
    attrs: Mapping[str, Any], keys: Mapping[str, tuple[str, str]], indent: str, end: str
) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None:
            continue
        key, value_type = keys[name]
        if value_type == "boolean":
            text = "true" if value else "false"
        elif value_type in ("long", "double"):
            text = repr(float(value)) if value_type == "double" else str(int(value))
        else:
            text = escape(_NOT_XML.sub("", str(_scalar(value))))
        parts.append(f'{indent}<data key="{key}">{text}</data>{end}')
    return "".join(parts)


def _xml_attr(value: Any) -> str:
    return quoteattr(_NOT_XML.sub("", str(value)))


def _xml_scalar(value: Any) -> Scalar:
    scalar = _scalar(value)
    return _NOT_XML.sub("", scalar) if isinstance(scalar, str) else scalar


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(_scalar(value))


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


def _colour_index(graph: nx.Graph, attribute: str | None) -> dict[Hashable, int]:
    """Palette index per node: the attribute's value when it is an int, else its rank."""
    if not attribute:
        return {}
    values = {n: v for n, v in graph.nodes(data=attribute) if v is not None}
    if all(isinstance(v, int) for v in values.values()):
        return {n: int(v) for n, v in values.items()}
    rank = {v: i for i, v in enumerate(sorted({str(v) for v in values.values()}))}
    return {n: rank[str(v)] for n, v in values.items()}
