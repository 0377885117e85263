"""``node(id:)`` and ``nodes(ids:)``: any object with a global id, fetched again by it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from scholargraph.api import limits
from scholargraph.api.context import Info
from scholargraph.api.types.category import Category
from scholargraph.api.types.institution import Institution
from scholargraph.api.types.node import Node, parse_global_id
from scholargraph.api.types.paper import Paper
from scholargraph.api.types.researcher import Researcher
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo import entities
from scholargraph.graph.repo.entities import ResearcherRef


async def node(info: Info, id: str) -> Node | None:
    """The object behind a global id; None when it names nothing in the graph (any more). A
    merged-away researcher's id gives the survivor, as researcher(id:) does."""
    type_name, key = parse_global_id(id)
    db = info.context.db
    try:
        if type_name == "Researcher":
            found = await entities.find_researcher(db, ResearcherRef(id=key))
            info.context.loaders.researchers.prime(found.id, found)
            return Researcher.of(found)
        if type_name == "Paper":
            return Paper.of(await entities.find_paper_by_key(db, key))
        if type_name == "Institution":
            if not (key.isascii() and key.isdigit()):
                raise BadInput(f"{id!r} is not the global id of an institution")
            return Institution.of(await entities.find_institution(db, key))
        return Category.of(entities.find_category(key).code)
    except NotFound:
        return None


async def nodes(info: Info, ids: Sequence[str]) -> list[Node | None]:
    """:func:`node` of each id, in order; every id is checked before anything is fetched."""
    limits.size(len(ids), limits.MAX_PAGE_SIZE, "the number of ids")
    for value in ids:
        parse_global_id(value)
    return list(await asyncio.gather(*(node(info, value) for value in ids)))
