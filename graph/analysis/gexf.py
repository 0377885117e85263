"""GEXF 1.3 for Gephi, streamed: attributes, ``viz`` colour, size and position, and a
timeline.

The timeline: when nodes or edges carry years (``first_year`` and ``last_year``: a
researcher's first and last papers, a tie's first and last joint papers), the graph is
``mode="dynamic"`` with integer years, and each such node or edge gets one spell from its
first to its last year, so Gephi's timeline shows who was active and which ties ran when.
Without years the graph is static.

The colour, position and size elements are written in the GEXF namespace, where the
published 1.3 schema (``gexf.xsd``, generated from the RelaxNG sources) declares them;
Gephi reads them by their local name, so they work there as ``viz:`` elements would.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, TextIO
from xml.sax.saxutils import escape

import networkx as nx

from scholargraph import __version__
from scholargraph.graph.analysis._encode import (
    CANVAS_SPREAD,
    Position,
    Target,
    colour,
    colour_index,
    declare,
    label_of,
    opened,
    present,
    sizes,
    typed_text,
    xml_attr,
    xml_text,
)

NAMESPACE = "http://gexf.net/1.3"
SCHEMA = "http://gexf.net/1.3/gexf.xsd"
START, END = "first_year", "last_year"


def write_gexf(
    graph: nx.Graph,
    target: Target,
    *,
    positions: Mapping[Hashable, Position] | None = None,
    size_by: str | None = "papers",
    color_by: str | None = "community",
) -> None:
    """Write GEXF 1.3 with a timeline from the years known (see the module docstring).

    Node size grows with the square root of ``size_by`` from 4 to 40; colour is taken from
    the palette by the ``color_by`` value (a community id); positions, a layout in
    ``[-1, 1]``, are spread over ±1000 pixels. The label is the node's ``name``.
    """
    node_keys = declare("n", (present(graph.nodes[n]) for n in graph))
    edge_keys = declare("e", (present(data) for _, _, data in graph.edges(data=True)))
    size_of = sizes(graph, size_by)
    colours = colour_index(graph, color_by)
    years = _years(graph)
    with opened(target) as out:
        out.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<gexf xmlns="{NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            f'xsi:schemaLocation="{NAMESPACE} {SCHEMA}" version="1.3">\n'
        )
        _write_meta(out, graph)
        kind = "directed" if graph.is_directed() else "undirected"
        timeline = (
            f' mode="dynamic" timeformat="integer" timerepresentation="interval" '
            f'start="{min(years)}" end="{max(years)}"'
            if years
            else ' mode="static"'
        )
        out.write(f'  <graph defaultedgetype="{kind}"{timeline}>\n')
        _write_declarations(out, "node", node_keys)
        _write_declarations(out, "edge", edge_keys)
        out.write(f'    <nodes count="{graph.number_of_nodes()}">\n')
        for node in graph:
            attrs = present(graph.nodes[node])
            out.write(f"      <node id={xml_attr(node)} label={xml_attr(label_of(graph, node))}>")
            out.write(_spell(attrs))
            out.write(_attvalues(attrs, node_keys))
            if node in colours:
                r, g, b = colour(colours[node])
                out.write(f'<color r="{r}" g="{g}" b="{b}" a="1.0"/>')
            if positions is not None and node in positions:
                x, y = (float(c) * CANVAS_SPREAD for c in positions[node])
                out.write(f'<position x="{x!r}" y="{y!r}" z="0.0"/>')
            if node in size_of:
                out.write(f'<size value="{size_of[node]!r}"/>')
            out.write("</node>\n")
        out.write("    </nodes>\n")
        out.write(f'    <edges count="{graph.number_of_edges()}">\n')
        for i, (u, v, data) in enumerate(graph.edges(data=True)):
            attrs = present(data)
            weight = attrs.get("weight", 1)
            out.write(
                f'      <edge id="{i}" source={xml_attr(u)} target={xml_attr(v)} '
                f'weight="{float(weight)!r}">'
            )
            out.write(_spell(attrs))
            out.write(_attvalues(attrs, edge_keys))
            out.write("</edge>\n")
        out.write("    </edges>\n  </graph>\n</gexf>\n")


def _years(graph: nx.Graph) -> list[int]:
    spans: Iterable[Mapping[str, Any]] = [
        *(data for _, data in graph.nodes(data=True)),
        *(data for _, _, data in graph.edges(data=True)),
    ]
    return [int(data[key]) for data in spans for key in (START, END) if _year(data.get(key))]


def _year(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _spell(attrs: Mapping[str, Any]) -> str:
    """One spell from the first to the last year; a single known year is a one-year spell
    (an open bound would reach back to the start of the whole timeline)."""
    known = [attrs[key] for key in (START, END) if _year(attrs.get(key))]
    if not known:
        return ""
    return f'<spells><spell start="{known[0]}" end="{known[-1]}"/></spells>'


def _write_meta(out: TextIO, graph: nx.Graph) -> None:
    today = datetime.now(UTC).date().isoformat()
    about = "; ".join(f"{k}={v}" for k, v in present(graph.graph).items())
    description = f"coauthor graph ({about})" if about else "coauthor graph"
    out.write(
        f'  <meta lastmodifieddate="{today}">'
        f"<creator>scholargraph {__version__}</creator>"
        f"<description>{escape(xml_text(description))}</description></meta>\n"
    )


def _write_declarations(out: TextIO, scope: str, keys: Mapping[str, tuple[str, str]]) -> None:
    if not keys:
        return
    out.write(f'    <attributes class="{scope}" mode="static">\n')
    for name, (key, kind) in keys.items():
        out.write(f'      <attribute id="{key}" title={xml_attr(name)} type="{kind}"/>\n')
    out.write("    </attributes>\n")


def _attvalues(attrs: Mapping[str, Any], keys: Mapping[str, tuple[str, str]]) -> str:
    values = "".join(
        f'<attvalue for="{keys[name][0]}" value={xml_attr(typed_text(value, keys[name][1]))}/>'
        for name, value in attrs.items()
        if value is not None
    )
    return f"<attvalues>{values}</attvalues>" if values else ""
