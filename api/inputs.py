"""The values a request carries, checked once before anything runs.

The request body and the ``variables``/``extensions`` URL parameters are read as I-JSON
(RFC 7493): UTF-8, strings of Unicode scalar values (no lone surrogate such as ``\\ud800``),
no NaN, nested at most :data:`MAX_JSON_DEPTH` deep and at most :data:`MAX_JSON_VALUES`
values in all.

Every argument value that reaches a field, typed in the document or passed as a variable,
then meets three rules, whatever the argument:

* a string is not empty or blank (no argument takes "" to mean "none": leave it out);
* a string holds Unicode scalar values only;
* a number, or a string that reads as one of our ids (``2004394``, ``2004394-ziming-liu``,
  ``/researchers/2004394``), fits in a signed 64-bit integer, as every id in the graph does.

>>> read_json(b'{"variables": {"id": "2004394"}}', "the request body")
{'variables': {'id': '2004394'}}
>>> string_problem("2004394-ziming-liu", "researcher(id:)") is None
True
>>> print(string_problem("99999999999999999999", "researcher(id:)"))
researcher(id:) is 99999999999999999999, too large for an id: ids are whole numbers up to \
9223372036854775807
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import orjson
from graphql import (
    ArgumentNode,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    IntValueNode,
    ListValueNode,
    ObjectValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    StringValueNode,
    ValueNode,
    VariableNode,
)

from scholargraph.api.errors import LimitExceeded
from scholargraph.graph.errors import BadInput

MAX_JSON_DEPTH = 32
MAX_JSON_VALUES = 10_000
INT64_MAX = 2**63 - 1
_OUR_ID = re.compile(r"(\d+)(?:-[a-z0-9-]*)?")
_SHOWN = 40  # characters of a refused value quoted back


def read_json(raw: str | bytes, what: str) -> Any:
    """``raw`` decoded as I-JSON; :class:`BadInput` or :class:`LimitExceeded` naming ``what``."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        reason = str(error)
        if "depth limit" in reason:
            raise LimitExceeded(_too_deep(what)) from None
        if "surrogate" in reason:
            raise BadInput(
                f"{what} holds a lone surrogate escape such as \\ud800 ({reason}): strings "
                f"must be Unicode text; send the character itself, or both halves of its "
                f"surrogate pair"
            ) from None
        raise BadInput(f"{what} is not valid JSON ({reason})") from None
    _check_shape(value, what)
    return value


def _too_deep(what: str) -> str:
    return f"{what} nests JSON more than {MAX_JSON_DEPTH} levels deep; send flatter values"


def _check_shape(value: Any, what: str) -> None:
    """Depth and count of ``value``'s parts, walked without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_JSON_VALUES:
            raise LimitExceeded(
                f"{what} holds more than {MAX_JSON_VALUES:,} JSON values; send fewer or "
                f"smaller variables"
            )
        if depth > MAX_JSON_DEPTH:
            raise LimitExceeded(_too_deep(what))
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def string_problem(text: str, where: str) -> str | None:
    """What is wrong with ``text`` as the argument ``where``, or None."""
    if not text.strip():
        return f"{where} is an empty string; give a value, or leave the argument out"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return (
                f"{where} holds a lone surrogate (such as \\ud800): strings must be Unicode "
                f"text; send the character itself, or both halves of its surrogate pair"
            )
    # The last part of a path names the id: /researchers/2004394-ziming-liu
    last = text.strip().rstrip("/").rpartition("/")[2]
    match = _OUR_ID.fullmatch(last)
    if match and _beyond_int64(match.group(1)):
        return (
            f"{where} is {_shown(text)}, too large for an id: ids are whole numbers up to "
            f"{INT64_MAX}"
        )
    return None


def _beyond_int64(digits: str) -> bool:
    # Never int() a long run of digits: past 4,300 of them Python refuses to convert.
    stripped = digits.lstrip("0")
    return len(stripped) > 19 or (len(stripped) == 19 and int(stripped) > INT64_MAX)


def number_problem(value: int | float, where: str) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        beyond = not -INT64_MAX - 1 <= value <= INT64_MAX
    else:
        # JSON numbers past 64 bits arrive as floats; an ID argument would take one as is.
        beyond = value.is_integer() and abs(value) > INT64_MAX
    return _beyond(str(value), where) if beyond else None


def _beyond(number: str, where: str) -> str:
    return f"{where} is {_shown(number)}, beyond 64 bits: ids and numbers are at most {INT64_MAX}"


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN]}… ({len(text):,} characters)"


def argument_problems(
    document: DocumentNode, operation: OperationDefinitionNode, variables: Mapping[str, Any]
) -> list[str]:
    """Every argument value of ``operation`` (and the fragments it spreads) that breaks the
    rules above. Each fragment is read once: argument values do not depend on where a
    fragment is spread."""
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    given = dict(variables)
    for definition in operation.variable_definitions or ():
        name = definition.variable.name.value
        if name not in given and definition.default_value is not None:
            given[name] = _Literal(definition.default_value)
    problems: list[str] = []
    read: set[str] = set()
    pending: list[SelectionSetNode] = [operation.selection_set]
    while pending:
        for node in _fields(pending.pop(), fragments, read, pending):
            for argument in node.arguments or ():
                problems.extend(_value_problems(argument, node, given))
    return problems


class _Literal:
    """A variable's default value, as typed in the document."""

    def __init__(self, node: ValueNode) -> None:
        self.node = node


def _fields(
    selections: SelectionSetNode,
    fragments: Mapping[str, FragmentDefinitionNode],
    read: set[str],
    pending: list[SelectionSetNode],
) -> Iterator[FieldNode]:
    """The fields of one selection set; nested sets and unread fragments go to ``pending``."""
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            yield selection
            if selection.selection_set is not None:
                pending.append(selection.selection_set)
        elif isinstance(selection, InlineFragmentNode):
            pending.append(selection.selection_set)
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            if name in fragments and name not in read:
                read.add(name)
                pending.append(fragments[name].selection_set)


def _value_problems(
    argument: ArgumentNode, field: FieldNode, variables: Mapping[str, Any]
) -> Iterator[str]:
    label = f"{field.name.value}({argument.name.value}"
    stack: list[tuple[Any, str]] = [(argument.value, "")]
    while stack:
        value, path = stack.pop()
        where = f"{label}{path}:)"
        problem: str | None = None
        if isinstance(value, _Literal):
            stack.append((value.node, path))
        elif isinstance(value, VariableNode):
            name = value.name.value
            if name in variables:
                stack.append((variables[name], path))
        elif isinstance(value, StringValueNode):
            problem = string_problem(value.value, where)
        elif isinstance(value, IntValueNode):
            if _beyond_int64(value.value.lstrip("-")):
                problem = _beyond(value.value, where)
        elif isinstance(value, ListValueNode):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value.values))
        elif isinstance(value, ObjectValueNode):
            stack.extend((f.value, f"{path}.{f.name.value}") for f in value.fields)
        elif isinstance(value, str):
            problem = string_problem(value, where)
        elif isinstance(value, int | float):
            problem = number_problem(value, where)
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, dict):
            stack.extend((item, f"{path}.{key}") for key, item in value.items())
        if problem is not None:
            yield problem
