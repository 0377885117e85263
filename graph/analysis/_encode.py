"""What every export writer shares: attribute values as the formats can hold them, XML text,
the node sizes, colours and canvas scale that Gephi draws, and where the output goes."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO
from xml.sax.saxutils import quoteattr

import networkx as nx

Position = tuple[float, float]
Scalar = str | int | float | bool
Target = Path | TextIO

# A palette that stays distinguishable for the first dozen communities.
PALETTE = (
    (31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
    (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207),
    (174, 199, 232), (255, 187, 120),
)  # fmt: skip
# Layout positions are in [-1, 1]; Gephi's canvas is in pixels, where a graph a few thousand
# pixels across reads at its default zoom with its default node sizes (4 to 40 here).
CANVAS_SPREAD = 1000.0
SMALLEST, LARGEST = 4.0, 40.0
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@contextmanager
def opened(target: Target) -> Iterator[TextIO]:
    """A text stream to write: ``target`` itself when it is one (left open), else the file."""
    if isinstance(target, Path):
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("w", encoding="utf-8", newline="\n") as out:
            yield out
    else:
        yield target


def present(attrs: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in attrs.items() if v is not None}


def node_attrs(
    graph: nx.Graph, node: Hashable, positions: Mapping[Hashable, Position] | None
) -> dict[str, Any]:
    attrs = present(graph.nodes[node])
    if positions is not None and node in positions:
        attrs["x"], attrs["y"] = (float(c) for c in positions[node])
    return attrs


def label_of(graph: nx.Graph, node: Hashable) -> str:
    """What a viewer shows on the node: its ``label``, else its ``name``, else its id."""
    data = graph.nodes[node]
    return str(data.get("label") or data.get("name") or node)


def scalar(value: Any) -> Scalar:
    if isinstance(value, str | int | float | bool):
        return value
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)


def number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def xml_text(value: Any) -> str:
    return NOT_XML.sub("", str(scalar(value)))


def xml_attr(value: Any) -> str:
    return quoteattr(xml_text(value))


def value_type(value: Any) -> str:
    """The XML Schema type name GraphML and GEXF both use for ``value``."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def declare(prefix: str, records: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str, str]]:
    """Key id and type of each attribute, in order of first appearance; mixed numbers widen
    to ``double``, other mixtures to ``string``."""
    kinds: dict[str, set[str]] = {}
    for attrs in records:
        for name, value in attrs.items():
            if value is not None:
                kinds.setdefault(name, set()).add(value_type(value))
    declared = {}
    for i, (name, seen) in enumerate(kinds.items()):
        if len(seen) == 1:
            kind = next(iter(seen))
        else:
            kind = "double" if seen == {"long", "double"} else "string"
        declared[name] = (f"{prefix}{i}", kind)
    return declared


def typed_text(value: Any, kind: str) -> str:
    """``value`` written as its declared type: booleans as ``true``/``false``, numbers as
    numbers, anything else as text (lists as JSON)."""
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "double":
        return repr(float(value))
    if kind == "long":
        return str(int(value))
    return xml_text(value)


def sizes(graph: nx.Graph, size_by: str | None) -> dict[Hashable, float]:
    """Node size from 4 to 40 growing with the square root of ``size_by`` (so that the area
    is in proportion to the value); empty when no node has a positive value."""
    if not size_by:
        return {}
    values = {n: number(v) for n, v in graph.nodes(data=size_by)}
    largest = max(values.values(), default=0.0)
    if largest <= 0:
        return {}
    spread = LARGEST - SMALLEST
    return {n: SMALLEST + spread * math.sqrt(max(v, 0.0) / largest) for n, v in values.items()}


def colour_index(graph: nx.Graph, attribute: str | None) -> dict[Hashable, int]:
    """Palette index per node: the attribute's value when it is an int, else its rank."""
    if not attribute:
        return {}
    values = {n: v for n, v in graph.nodes(data=attribute) if v is not None}
    if all(isinstance(v, int) for v in values.values()):
        return {n: int(v) for n, v in values.items()}
    rank = {v: i for i, v in enumerate(sorted({str(v) for v in values.values()}))}
    return {n: rank[str(v)] for n, v in values.items()}


def colour(index: int) -> tuple[int, int, int]:
    return PALETTE[index % len(PALETTE)]
