"""What one request may ask for, and the checks that enforce it before execution.

Depth, aliases and cost are checked on the parsed document (fragments included), tokens by
the parser; page sizes and network sizes when a field runs. The cost of a document is the
number of fields it may resolve: each field costs 1 plus the cost of its selection, and a
field that returns a page or a network multiplies its selection's cost by its size argument
(``first``, ``maxNodes``, ``k``; the argument's default when absent; a variable's value).
A network is drawn for one researcher at a time: ``network`` inside a list is refused, since
each would cost its own walk through the graph.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
    get_named_type,
)

from scholargraph.api.errors import LimitExceeded, limit_error
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo.pages import PageRequest

MAX_PAGE_SIZE = 100
MAX_DEPTH = 12
MAX_ALIASES = 30
MAX_TOKENS = 5000
MAX_COST = 50_000
MAX_NETWORK_NODES = 2000
MAX_NETWORK_DEPTH = 3
MAX_MOST_CITED = 50
MAX_SAME_NAME = 100
SIZE_ARGUMENTS = ("first", "maxNodes", "k")
ONE_AT_A_TIME = frozenset({"network"})


def page(first: int, after: str | None) -> PageRequest:
    if first < 0:
        raise BadInput(f"first must be 0 or more, not {first}")
    at_most(first, MAX_PAGE_SIZE, "first")
    return PageRequest(first, after)


def at_most(value: int, maximum: int, name: str) -> int:
    if value > maximum:
        raise LimitExceeded(f"{name} is at most {maximum}, not {value}; page through instead")
    return value


def check(
    schema: GraphQLSchema, document: DocumentNode, variables: Mapping[str, Any] | None
) -> list[GraphQLError]:
    """Depth, alias and cost errors of a valid document with these variables (none: fine)."""
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    errors: list[GraphQLError] = []
    for operation in document.definitions:
        if not isinstance(operation, OperationDefinitionNode):
            continue
        depth = _depth(operation.selection_set, fragments, frozenset())
        if depth > MAX_DEPTH:
            errors.append(
                limit_error(f"this query is nested {depth} fields deep; the limit is {MAX_DEPTH}")
            )
        aliases = _aliases(operation.selection_set, fragments, frozenset())
        if aliases > MAX_ALIASES:
            errors.append(
                limit_error(f"this query uses {aliases} aliases; the limit is {MAX_ALIASES}")
            )
        root = schema.get_root_type(operation.operation)
        if root is None:
            continue
        counter = _Cost(schema, fragments, dict(variables or {}))
        cost = counter.of(operation.selection_set, root)
        errors.extend(limit_error(problem) for problem in counter.problems)
        if cost > MAX_COST:
            errors.append(
                limit_error(
                    f"this query may resolve about {cost:,} fields, more than {MAX_COST:,}; "
                    f"ask for smaller pages or fewer nested lists"
                )
            )
    return errors


Fragments = Mapping[str, FragmentDefinitionNode]


def _depth(selections: SelectionSetNode | None, fragments: Fragments, seen: frozenset[str]) -> int:
    """Nesting depth of fields, introspection excepted (graphql-core bounds that itself)."""
    if selections is None:
        return 0
    deepest = 0
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            if not selection.name.value.startswith("__"):
                deepest = max(deepest, 1 + _depth(selection.selection_set, fragments, seen))
        elif isinstance(selection, InlineFragmentNode):
            deepest = max(deepest, _depth(selection.selection_set, fragments, seen))
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            if name in fragments and name not in seen:
                inner = fragments[name].selection_set
                deepest = max(deepest, _depth(inner, fragments, seen | {name}))
    return deepest


def _aliases(
    selections: SelectionSetNode | None, fragments: Fragments, seen: frozenset[str]
) -> int:
    if selections is None:
        return 0
    count = 0
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            count += selection.alias is not None
            count += _aliases(selection.selection_set, fragments, seen)
        elif isinstance(selection, InlineFragmentNode):
            count += _aliases(selection.selection_set, fragments, seen)
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            if name in fragments and name not in seen:
                count += _aliases(fragments[name].selection_set, fragments, seen | {name})
    return count


class _Cost:
    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: Fragments,
        variables: Mapping[str, Any],
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.problems: list[str] = []

    def of(
        self,
        selections: SelectionSetNode | None,
        parent: GraphQLNamedType,
        seen: frozenset[str] = frozenset(),
        copies: int = 1,
    ) -> int:
        """Cost of ``selections`` on ``parent``, which is resolved ``copies`` times."""
        if selections is None:
            return 0
        total = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                total += self._field(selection, parent, seen, copies)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                inner = self.schema.get_type(condition.name.value) if condition else parent
                total += self.of(selection.selection_set, inner or parent, seen, copies)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is not None and name not in seen:
                    inner = self.schema.get_type(fragment.type_condition.name.value) or parent
                    total += self.of(fragment.selection_set, inner, seen | {name}, copies)
        return total

    def _field(
        self, node: FieldNode, parent: GraphQLNamedType, seen: frozenset[str], copies: int
    ) -> int:
        if not isinstance(parent, GraphQLObjectType) or node.name.value.startswith("__"):
            return 1
        definition = parent.fields.get(node.name.value)
        if definition is None:
            return 1
        if node.name.value in ONE_AT_A_TIME and copies > 1:
            self.problems.append(
                f"{node.name.value} is drawn for one researcher at a time; ask for it on "
                f"researcher(id:), not inside a list"
            )
        size = self._size(node, definition)
        child = self.of(node.selection_set, get_named_type(definition.type), seen, copies * size)
        return 1 + size * child

    def _size(self, node: FieldNode, definition: GraphQLField) -> int:
        for name in SIZE_ARGUMENTS:
            if name not in definition.args:
                continue
            given = next((a for a in node.arguments or () if a.name.value == name), None)
            value: Any = definition.args[name].default_value
            if given is not None:
                if isinstance(given.value, IntValueNode):
                    value = int(given.value.value)
                elif isinstance(given.value, VariableNode):
                    value = self.variables.get(given.value.name.value, value)
            if isinstance(value, int) and value > 0:
                return value
        return 1


__all__ = ["LimitExceeded", "at_most", "check", "page"]
