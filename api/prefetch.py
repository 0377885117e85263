"""A page in two statements: a researcher's lists asked for while the researcher is looked up.

The reference page asks for a researcher and, under it, their profile (identity, positions,
fields), most-cited papers, same-name records and first page of papers with its count. Left
to themselves these are two nesting levels, the researcher and then its lists, so two
statements before the papers' authors make a third. When the researcher is asked for by its
numeric id, :func:`researcher_lists` starts the lists' loads at once, from the fields the
request selects and their arguments, beside the lookup of the researcher; the request's
statement batch (:mod:`graph.batch`) sends the lookup and the lists as one statement, and the
papers' authors follow as the second.

Nothing here decides what a field returns: the loads are the very keys the fields' resolvers
load (:func:`api.types.researcher.list_keys`), so a field finds its answer in its loader's
cache. A field whose arguments are not a literal or variable this knows (or are out of
bounds, which its resolver reports) is simply not started early. When the id names a record
merged into another, the lists started for it go unused and the fields load their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator
from typing import Any

from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField, Selection

from scholargraph.api.context import Info
from scholargraph.api.types import researcher
from scholargraph.graph.errors import ScholargraphError
from scholargraph.graph.repo.entities import parse_researcher_id


def researcher_lists(info: Info, key: str | None) -> None:
    """Start the loads of the lists the ``researcher`` field selects (see the module)."""
    if key is None:
        return
    try:
        researcher_id = parse_researcher_id(key)
    except ScholargraphError:
        return
    loaders = info.context.loaders
    for field in info.selected_fields:
        for selected in _fields(field.selections):
            arguments = {name: _plain(value) for name, value in selected.arguments.items()}
            try:
                started = researcher.start_list(
                    loaders, researcher_id, selected.name, arguments, _names(selected)
                )
            except (ScholargraphError, TypeError, ValueError, KeyError):
                continue
            for future in started:
                if isinstance(future, asyncio.Future):
                    future.add_done_callback(_quiet)


def _fields(selections: Iterable[Selection]) -> Iterator[SelectedField]:
    for selection in selections:
        if isinstance(selection, SelectedField):
            yield selection
        elif isinstance(selection, InlineFragment | FragmentSpread):
            yield from _fields(selection.selections)


def _names(field: SelectedField) -> frozenset[str]:
    return frozenset(selected.name for selected in _fields(field.selections))


def _plain(value: Any) -> Any:
    """A literal's value as a variable's would be: digits as an int."""
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return value


def _quiet(future: asyncio.Future[Any]) -> None:
    """A list nobody ends up asking for must not leave its error unread (the lookup it rode
    with reports the same error)."""
    if not future.cancelled():
        future.exception()
