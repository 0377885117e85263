"""What one request may ask for, and the checks that enforce it, cheapest first.

1. **The text**: at most :data:`MAX_DOCUMENT_CHARS` characters (checked before parsing) and
   :data:`MAX_TOKENS` tokens (the parser stops there).
2. **The shape** (:func:`shape_problems`), before graphql-core validates the document and
   without the schema, in time proportional to the document's length: each fragment is
   measured once, where it is defined, and a spread adds its fragment's measures. A query
   may have :data:`MAX_SELECTIONS` selections once its fragments are spread (each fragment
   counted at every use) and so many written in all; that bounds the work of every later
   step. Then field depth (introspection excepted), nesting of selection sets of any kind,
   aliases (all counted with fragments spread), and the pairs that graphql-core's check
   that fields merge would compare: the same field selected ``n`` times in one place (its
   fragments and inline fragments included) makes ``n(n-1)/2``, and so do ``n`` fragments
   spread in one place.
3. **The cost** (:func:`cost_problems`), after validation, with this request's variables:
   the number of fields the query may resolve. Each field costs 1 plus the cost of its
   selection, and a field that returns a page or a network multiplies its selection's cost
   by its size argument (``first``, or ``last`` when given, ``maxNodes``, ``k``; the
   argument's default when absent; a variable's value), and ``nodes(ids:)`` by the number
   of ids. A network is drawn for one researcher at a time: ``network`` inside a list is
   refused, since each would cost its own walk through the graph.

Page sizes and network sizes are checked again when a field runs (:func:`page`,
:func:`size`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLField,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    ListValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValueNode,
    VariableNode,
    get_named_type,
)

from scholargraph.api.errors import LimitExceeded
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo.pages import PageRequest

MAX_DOCUMENT_CHARS = 32_768
MAX_TOKENS = 2000
MAX_SELECTIONS = 500
MAX_NESTING = 32
MAX_DEPTH = 12
MAX_ALIASES = 30
MAX_MERGE_PAIRS = 1000
MAX_COST = 50_000
MAX_PAGE_SIZE = 100
MAX_NETWORK_NODES = 2000
MAX_NETWORK_DEPTH = 3
MAX_MOST_CITED = 50
MAX_SAME_NAME = 100
SIZE_ARGUMENTS = ("last", "first", "maxNodes", "k")  # last, when given, instead of first
# A field given a list of ids (nodes(ids:)) resolves its selection once for each.
LIST_ARGUMENTS = ("ids",)
ONE_AT_A_TIME = frozenset({"network"})


def page(
    first: int, after: str | None, last: int | None = None, before: str | None = None
) -> PageRequest:
    """The page a connection field's arguments ask for: forward with ``first``/``after``, or
    backward with ``last`` (and ``before``), where the field offers it."""
    if last is None:
        if before is not None:
            raise BadInput("before pages backward: give last with it")
        return PageRequest(size(first, MAX_PAGE_SIZE, "first"), after)
    if after is not None:
        raise BadInput(
            "page one way at a time: first with after, or last with before, not after and last"
        )
    return PageRequest(size(last, MAX_PAGE_SIZE, "last"), before=before, backward=True)


def size(value: int, maximum: int, name: str, minimum: int = 0) -> int:
    """``value`` of the argument ``name``, which must lie in ``minimum..maximum``."""
    return at_most(at_least(value, minimum, name), maximum, name)


def at_least(value: int, minimum: int, name: str) -> int:
    if value < minimum:
        raise BadInput(f"{name} must be {minimum} or more, not {value}")
    return value


def at_most(value: int, maximum: int, name: str) -> int:
    if value > maximum:
        raise LimitExceeded(f"{name} is at most {maximum}, not {value}; page through instead")
    return value


def document_length_problem(text: str) -> str | None:
    if len(text) <= MAX_DOCUMENT_CHARS:
        return None
    return (
        f"the query document is {len(text):,} characters long; the limit is "
        f"{MAX_DOCUMENT_CHARS:,}: pass long values as variables"
    )


Fragments = Mapping[str, FragmentDefinitionNode]


@dataclass(frozen=True, slots=True)
class _Shape:
    """Measures of a selection set with its fragments spread."""

    selections: int = 0
    written: int = 0  # selections as written, fragments not spread
    depth: int = 0
    nesting: int = 0
    aliases: int = 0


def shape_problems(document: DocumentNode) -> list[str]:
    """What is wrong with the document's shape (nothing: an empty list)."""
    fragments: dict[str, FragmentDefinitionNode] = {}
    for definition in document.definitions:
        if isinstance(definition, FragmentDefinitionNode):
            fragments.setdefault(definition.name.value, definition)
    shapes, cyclic = _fragment_shapes(fragments)
    written = sum(shape.written for shape in shapes.values())
    problems: list[str] = []
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    measured = [(op, _measure(op.selection_set, shapes)) for op in operations]
    written += sum(shape.written for _, shape in measured)
    if written > MAX_SELECTIONS:
        problems.append(
            f"this document has {written:,} selections; the limit is {MAX_SELECTIONS:,}: "
            f"ask in several requests"
        )
    for _, shape in measured:
        problems.extend(_operation_problems(shape))
    if problems or cyclic:
        # A fragment that spreads itself is refused by validation (NoFragmentCycles).
        return problems
    for operation in operations:
        problem = _merge_problem(operation.selection_set, fragments)
        if problem is not None:
            problems.append(problem)
    return problems


def _operation_problems(shape: _Shape) -> list[str]:
    problems = []
    if shape.selections > MAX_SELECTIONS:
        problems.append(
            f"this query has {shape.selections:,} selections once its fragments are spread "
            f"(each fragment counted at every use); the limit is {MAX_SELECTIONS:,}: spread "
            f"fewer fragments, or ask in several requests"
        )
    if shape.nesting > MAX_NESTING:
        problems.append(
            f"this query nests selections {shape.nesting} levels deep (fragments and inline "
            f"fragments included); the limit is {MAX_NESTING}"
        )
    if shape.depth > MAX_DEPTH:
        problems.append(f"this query is nested {shape.depth} fields deep; the limit is {MAX_DEPTH}")
    if shape.aliases > MAX_ALIASES:
        problems.append(f"this query uses {shape.aliases} aliases; the limit is {MAX_ALIASES}")
    return problems


def _fragment_shapes(fragments: Fragments) -> tuple[dict[str, _Shape], bool]:
    """Every fragment's shape, each measured once after the fragments it spreads; and
    whether some fragment spreads itself (its spread inside the cycle then counts 0)."""
    spreads = {name: _spread_names(f.selection_set) for name, f in fragments.items()}
    shapes: dict[str, _Shape] = {}
    entered: set[str] = set()
    cyclic = False
    for root in fragments:
        # Depth-first without recursion: a chain of fragments can be as long as the document.
        stack = [(root, iter(spreads[root]))]
        entered.add(root)
        while stack:
            name, pending = stack[-1]
            child = next(pending, None)
            if child is None:
                stack.pop()
                shapes[name] = _measure(fragments[name].selection_set, shapes)
            elif child in fragments and child not in entered:
                entered.add(child)
                stack.append((child, iter(spreads[child])))
            elif child in fragments and child not in shapes:
                cyclic = True
    return shapes, cyclic


def _spread_names(selections: SelectionSetNode) -> list[str]:
    names: list[str] = []
    pending = [selections]
    while pending:
        for selection in pending.pop().selections:
            if isinstance(selection, FragmentSpreadNode):
                names.append(selection.name.value)
            elif isinstance(selection, FieldNode | InlineFragmentNode) and selection.selection_set:
                pending.append(selection.selection_set)
    return names


def _measure(selections: SelectionSetNode, shapes: Mapping[str, _Shape]) -> _Shape:
    """The shape of one selection set, the fragments it spreads already measured in
    ``shapes`` (an unknown or cyclic spread counts 0). Recursion follows the nesting as
    written, which graphql-core's parser bounds."""
    total = written = depth = nesting = aliases = 0
    for selection in selections.selections:
        total += 1
        written += 1
        if isinstance(selection, FragmentSpreadNode):
            spread = shapes.get(selection.name.value, _Shape())
            total += spread.selections
            depth = max(depth, spread.depth)
            nesting = max(nesting, spread.nesting - 1)
            aliases += spread.aliases
        elif isinstance(selection, FieldNode | InlineFragmentNode):
            inner = _measure(selection.selection_set, shapes) if selection.selection_set else None
            if inner is not None:
                total += inner.selections
                written += inner.written
                nesting = max(nesting, inner.nesting)
                aliases += inner.aliases
            if isinstance(selection, InlineFragmentNode):
                depth = max(depth, inner.depth if inner else 0)
            elif not selection.name.value.startswith("__"):
                depth = max(depth, 1 + (inner.depth if inner else 0))
            aliases += isinstance(selection, FieldNode) and selection.alias is not None
    return _Shape(total, written, depth, 1 + nesting, aliases)


def _merge_problem(root: SelectionSetNode, fragments: Fragments) -> str | None:
    """Too many pairs for graphql-core to compare, walking the fields as execution merges
    them (fragments spread, fields of one response name together); None when fine. The walk
    visits each selection once per use of its fragment, so the selection limit bounds it."""
    pairs = 0
    worst_field = ("", 0)
    worst_spreads = 0
    pending = [[root]]
    while pending:
        fields, spread = _collect(pending.pop(), fragments)
        pairs += len(spread) * (len(spread) - 1) // 2
        worst_spreads = max(worst_spreads, len(spread))
        for name, group in fields.items():
            pairs += len(group) * (len(group) - 1) // 2
            if len(group) > worst_field[1]:
                worst_field = (name, len(group))
            children = [f.selection_set for f in group if f.selection_set is not None]
            if children:
                pending.append(children)
    if pairs <= MAX_MERGE_PAIRS:
        return None
    name, count = worst_field
    if count * (count - 1) >= worst_spreads * (worst_spreads - 1):
        cause = (
            f"'{name}' is selected {count} times in one place (fragments included): select "
            f"each field once per selection set, with an alias for each other set of arguments"
        )
    else:
        cause = f"{worst_spreads} fragments are spread in one place: spread fewer, or merge them"
    return (
        f"checking that the fields of this query merge would compare {pairs:,} pairs of "
        f"selections; the limit is {MAX_MERGE_PAIRS:,}. {cause[0].upper()}{cause[1:]}"
    )


def _collect(
    sets: list[SelectionSetNode], fragments: Fragments
) -> tuple[dict[str, list[FieldNode]], set[str]]:
    """The fields of ``sets`` by response name, inline fragments and fragments spread (each
    fragment once), and the names of the fragments spread."""
    fields: dict[str, list[FieldNode]] = {}
    spread: set[str] = set()
    pending = list(sets)
    while pending:
        for selection in pending.pop().selections:
            if isinstance(selection, FieldNode):
                key = (selection.alias or selection.name).value
                fields.setdefault(key, []).append(selection)
            elif isinstance(selection, InlineFragmentNode):
                pending.append(selection.selection_set)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                if name in fragments and name not in spread:
                    spread.add(name)
                    pending.append(fragments[name].selection_set)
    return fields, spread


def cost_problems(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Mapping[str, Any] | None,
) -> list[str]:
    """Cost problems of ``operation`` in a valid document with these variables."""
    root = schema.get_root_type(operation.operation)
    if root is None:
        return []
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    counter = _Cost(schema, fragments, dict(variables or {}))
    cost = counter.of(operation.selection_set, root)
    problems = list(dict.fromkeys(counter.problems))
    if cost > MAX_COST:
        problems.append(
            f"this query may resolve about {cost:,} fields, more than {MAX_COST:,}; "
            f"ask for smaller pages or fewer nested lists"
        )
    return problems


class _Cost:
    """Walks the query with its fragments spread: after the shape checks, at most
    :data:`MAX_SELECTIONS` selections, :data:`MAX_NESTING` deep."""

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
        for name in LIST_ARGUMENTS:
            given = next((a for a in node.arguments or () if a.name.value == name), None)
            if name in definition.args and given is not None:
                return max(1, self._length(given.value))
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

    def _length(self, value: ValueNode) -> int:
        if isinstance(value, ListValueNode):
            return len(value.values)
        if isinstance(value, VariableNode):
            given = self.variables.get(value.name.value)
            return len(given) if isinstance(given, list) else 1
        return 1


__all__ = [
    "LimitExceeded",
    "at_least",
    "at_most",
    "cost_problems",
    "document_length_problem",
    "page",
    "shape_problems",
    "size",
]
