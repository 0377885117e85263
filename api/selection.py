"""What a request selects under a field, read off the document: for loads that fetch less when
less is asked for (a paper's authors by id, name and slug only, :func:`brief_authors`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    SelectionNode,
)

from scholargraph.api.context import Info

# The Researcher fields a brief researcher (id, name and slug) answers.
BRIEF_RESEARCHER_FIELDS = frozenset({"__typename", "id", "key", "name", "slug", "path"})


def _fields(
    selections: Iterable[SelectionNode], fragments: Mapping[str, FragmentDefinitionNode]
) -> Iterator[FieldNode]:
    for selection in selections:
        if isinstance(selection, FieldNode):
            yield selection
        elif isinstance(selection, InlineFragmentNode):
            yield from _fields(selection.selection_set.selections, fragments)
        elif isinstance(selection, FragmentSpreadNode):
            fragment = fragments.get(selection.name.value)
            if fragment is not None:
                yield from _fields(fragment.selection_set.selections, fragments)


def _subfields(
    nodes: Iterable[FieldNode], fragments: Mapping[str, FragmentDefinitionNode]
) -> Iterator[FieldNode]:
    for node in nodes:
        if node.selection_set is not None:
            yield from _fields(node.selection_set.selections, fragments)


def _children(
    nodes: Iterable[FieldNode], fragments: Mapping[str, FragmentDefinitionNode], name: str
) -> list[FieldNode]:
    return [child for child in _subfields(nodes, fragments) if child.name.value == name]


def brief_authors(info: Info) -> bool:
    """Whether the researchers of this author connection (``edges { node }`` and ``nodes``)
    are asked for nothing a brief researcher lacks; decided once per field of the
    document in a request."""
    raw = info._raw_info
    nodes = raw.field_nodes
    memo = info.context.selections
    key = id(nodes[0])
    found = memo.get(key)
    if found is None:
        fragments = raw.fragments
        researchers = _children(_children(nodes, fragments, "edges"), fragments, "node")
        researchers += _children(nodes, fragments, "nodes")
        names = {child.name.value for child in _subfields(researchers, fragments)}
        found = names <= BRIEF_RESEARCHER_FIELDS
        memo[key] = found
    return found
