"""Relay global object identification: the ``Node`` interface and its global ids.

A global id is standard base64 of ``Type:key``, the key being the id the type's own field
takes (a researcher's 2004394, a paper's 2301.08658, an institution's 17, a category's
cs.DC); so ``Researcher:2004394`` is ``UmVzZWFyY2hlcjoyMDA0Mzk0``, as graphql-relay's
``toGlobalId`` makes it. The fields that take one kind of id (``researcher(id:)``,
``paper(id:)``, ``institution(ref:)``, mutations) accept the global id or the key as before.

>>> global_id("Researcher", 2004394)
'UmVzZWFyY2hlcjoyMDA0Mzk0'
>>> parse_global_id("UmVzZWFyY2hlcjoyMDA0Mzk0")
('Researcher', '2004394')
>>> key_of("UmVzZWFyY2hlcjoyMDA0Mzk0", "Researcher"), key_of("2004394", "Researcher")
('2004394', '2004394')
"""

from __future__ import annotations

import base64
import binascii
from typing import Literal, get_args

import strawberry

from scholargraph.graph.errors import BadInput

NodeType = Literal["Researcher", "Paper", "Institution", "Category"]
NODE_TYPES: tuple[NodeType, ...] = get_args(NodeType)
MAX_GLOBAL_ID_CHARS = 1000


@strawberry.interface(
    description="An object with a global id, by which node(id:) and nodes(ids:) fetch it again."
)
class Node:
    id: strawberry.ID = strawberry.field(
        description=(
            "The global id: opaque, unique across types and stable; node(id:) fetches the "
            "object again by it, and the type's own lookup field takes it too."
        )
    )


def global_id(type_name: NodeType, key: int | str) -> strawberry.ID:
    return strawberry.ID(base64.b64encode(f"{type_name}:{key}".encode()).decode("ascii"))


def _decoded(value: str) -> tuple[NodeType, str] | None:
    if len(value) > MAX_GLOBAL_ID_CHARS:
        return None
    try:
        text = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    type_name, sep, key = text.partition(":")
    for known in NODE_TYPES:
        if sep and key and type_name == known:
            return known, key
    return None


def parse_global_id(value: str) -> tuple[NodeType, str]:
    """(type, key) of a global id; :class:`BadInput` when ``value`` is not one."""
    decoded = _decoded(value)
    if decoded is None:
        shown = repr(value) if len(value) <= 60 else f"{value[:60]!r}…"
        raise BadInput(
            f"{shown} is not a global id; pass the id field of a "
            f"{', '.join(NODE_TYPES)} this API returned"
        )
    return decoded


def key_of(value: str, type_name: NodeType) -> str:
    """The key in ``value``: a global id of ``type_name``, or the key itself (as clients
    passed it before global ids); :class:`BadInput` for the global id of another type."""
    decoded = _decoded(value)
    if decoded is None:
        return value
    found, key = decoded
    if found != type_name:
        raise BadInput(f"{value!r} is the global id of a {found}, not of a {type_name}")
    return key
