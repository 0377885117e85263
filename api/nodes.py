"""``node(id:)`` and ``nodes(ids:)``: any object with a global id, fetched again by it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.types.category import Category
from scholargraph.api.types.institution import Institution
from scholargraph.api.types.node import Node, NodeType, parse_global_id
from scholargraph.api.types.paper import Paper
from scholargraph.api.types.researcher import Researcher
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo import entities
from scholargraph.graph.repo.entities import ResearcherRef


def _checked(id: str) -> tuple[NodeType, str]:
    """(type, key) of a global id whose key can name an object of its type."""
    type_name, key = parse_global_id(id)
    if type_name == "Researcher":
        entities.parse_researcher_id(key)
    elif type_name == "Institution" and not (key.isascii() and key.isdigit()):
        raise BadInput(f"{id!r} is not the global id of an institution")
    return type_name, key


async def _fetch(info: Info, type_name: NodeType, key: str) -> Node | None:
    db = info.context.db
    try:
        if type_name == "Researcher":
            found = await entities.find_researcher(db, ResearcherRef(id=key))
            info.context.loaders.researchers.prime(found.id, found)
            return Researcher.of(found)
        if type_name == "Paper":
            return Paper.of(await entities.find_paper_by_key(db, key))
        if type_name == "Institution":
            return Institution.of(await entities.find_institution(db, key))
        return Category.of(entities.find_category(key).code)
    except NotFound:
        return None


async def node(info: Info, id: str) -> Node | None:
    """The object behind a global id; None when it names nothing in the graph (any more). A
    merged-away researcher's id gives the survivor, as researcher(id:) does."""
    return await _fetch(info, *_checked(id))


async def nodes(info: Info, ids: Sequence[str]) -> list[Node | None]:
    """:func:`node` of each id, in order. Every id is checked before anything is fetched,
    and every fetch ends before an error is raised."""
    limits.size(len(ids), limits.MAX_PAGE_SIZE, "the number of ids")
    checked = [_checked(value) for value in ids]
    found = await asyncio.gather(*(_fetch(info, *c) for c in checked), return_exceptions=True)
    for result in found:
        if isinstance(result, BaseException):
            raise result
    return [result for result in found if not isinstance(result, BaseException)]
