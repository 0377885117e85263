"""Plain fields completed without the general machinery: most of a page's fields are plain.

A researcher page selects some 500–900 fields, and most of them are *plain*: a scalar, enum or
list of them read straight off an object already loaded (``Paper.title``, ``Researcher.name``,
``Authorship.position``) or computed from it by a synchronous resolver that takes nothing but
the object (``Paper.url``). graphql-core gives every field the same treatment — a resolve info
object, argument coercion, strawberry's resolver wrapper, the completion chain of type checks
— which costs several times what reading and serialising the value does.

:class:`PlainFieldExecution` reads and serialises a plain field's value directly. It only
takes a shortcut it can prove gives the same answer: the field is a leaf (or a list of
leaves), it has no arguments, its strawberry field has no extensions, permission or
exception handlers, its resolver (if any) is synchronous and asks for neither ``info`` nor
arguments, and no middleware is installed. Anything else — an object-typed field, a value the
shortcut cannot serialise, ``None`` where the schema says non-null, a resolver that raises —
goes the general way, which resolves the field again (plain resolvers are pure) and reports
any error exactly as it always has.

A list of objects whose selected fields are all plain (a network's thousands of ties, each
``{ source target jointPapers }``) is completed the same way, row by row, when the field
itself is plain but for its object type: the object type is concrete with no ``is_type_of``
check, and the selection is plain fields only (no fragment, directive, argument, nested
object or repeated response key). Any value the shortcut cannot complete sends the whole
list the general way.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphql import (
    GraphQLField,
    GraphQLLeafType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    Undefined,
)
from graphql.execution.collect_fields import FieldDetailsList
from graphql.language import FieldNode
from graphql.pyutils import Path
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.types.field import StrawberryField

Getter = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class _Plain:
    """How to read and serialise one plain field."""

    get: Getter
    leaf: GraphQLLeafType
    nullable: bool
    listed: bool
    item_nullable: bool


@dataclass(frozen=True, slots=True)
class _Rows:
    """How to complete a list of objects whose selected fields are all plain."""

    get: Getter
    nullable: bool
    item_nullable: bool
    fields: tuple[tuple[str, _Plain], ...]  # (response key, how to complete it)


class _Fallback(Exception):
    """The shortcut cannot complete this value; the general way will."""


# Plain-field plans by schema, then by (type name, field name); None: not plain.
_PLANS: weakref.WeakKeyDictionary[GraphQLSchema, dict[tuple[str, str], _Plain | None]] = (
    weakref.WeakKeyDictionary()
)


def _unwrap(kind: GraphQLOutputType) -> tuple[GraphQLOutputType, bool]:
    if isinstance(kind, GraphQLNonNull):
        return kind.of_type, False
    return kind, True


def _leaf_shape(kind: GraphQLOutputType) -> tuple[GraphQLLeafType, bool, bool, bool] | None:
    """(leaf type, nullable, a list, items nullable) of a leaf or a list of leaves."""
    outer, nullable = _unwrap(kind)
    if isinstance(outer, GraphQLList):
        item, item_nullable = _unwrap(outer.of_type)
        if isinstance(item, GraphQLLeafType):
            return item, nullable, True, item_nullable
        return None
    if isinstance(outer, GraphQLLeafType):
        return outer, nullable, False, True
    return None


def _getter(field_def: GraphQLField, handlers: bool) -> Getter | None:
    """Read the field as strawberry would, or None when only strawberry can."""
    field = field_def.extensions.get("strawberry-definition")
    if not isinstance(field, StrawberryField) or field.extensions or field.arguments:
        return None
    if getattr(field, "permission_classes", None) or field_def.args:
        return None
    resolver = field.base_resolver
    if resolver is None:
        if not getattr(field_def.resolve, "_is_default", False):
            return None
        default, name = field.default_resolver, field.python_name
        return lambda source: default(source, name)
    if handlers or resolver.is_async or resolver.info_parameter is not None:
        return None
    if resolver.root_parameter is not None:
        root = resolver.root_parameter.name
        if resolver.self_parameter is not None:
            return lambda source: resolver(source, **{root: source})
        return lambda source: resolver(**{root: source})
    if resolver.self_parameter is not None:
        return lambda source: resolver(source)
    return lambda source: resolver()


def _handlers(schema: GraphQLSchema) -> bool:
    """Whether strawberry has exception handlers to run on a field's error."""
    strawberry_schema = getattr(schema, "_strawberry_schema", None)
    converter = getattr(strawberry_schema, "schema_converter", None)
    return bool(getattr(converter, "_exception_handler_specs", ()))


def _plan(schema: GraphQLSchema, parent: GraphQLObjectType, name: str) -> _Plain | None:
    plans = _PLANS.get(schema)
    if plans is None:
        plans = _PLANS[schema] = {}
    key = (parent.name, name)
    if key in plans:
        return plans[key]
    found: _Plain | None = None
    field_def = parent.fields.get(name)
    shape = _leaf_shape(field_def.type) if field_def is not None else None
    if field_def is not None and shape is not None:
        get = _getter(field_def, _handlers(schema))
        if get is not None:
            found = _Plain(get, *shape)
    plans[key] = found
    return found


def _leaf(plain: _Plain, value: Any, nullable: bool) -> Any:
    if value is None:
        if nullable:
            return None
        raise _Fallback
    coerced = plain.leaf.coerce_output_value(value)
    if coerced is None or coerced is Undefined:
        raise _Fallback
    return coerced


def _listed(value: Any, nullable: bool) -> list[Any] | tuple[Any, ...] | None:
    """A list field's value as the shortcut takes it: the items, or None where allowed."""
    if value is None:
        if nullable:
            return None
        raise _Fallback
    if not isinstance(value, list | tuple):
        raise _Fallback
    return value


def _complete(plain: _Plain, value: Any) -> Any:
    if isinstance(value, Exception):
        raise _Fallback
    if not plain.listed:
        return _leaf(plain, value, plain.nullable)
    items = _listed(value, plain.nullable)
    return None if items is None else [_leaf(plain, item, plain.item_nullable) for item in items]


def _rows_plan(
    schema: GraphQLSchema, parent: GraphQLObjectType, details: FieldDetailsList
) -> _Rows | None:
    """How to complete the field as a list of plain rows, or None when it is not one."""
    node = details[0].node
    field_def = parent.fields.get(node.name.value)
    if len(details) != 1 or field_def is None or node.selection_set is None:
        return None
    outer, nullable = _unwrap(field_def.type)
    if not isinstance(outer, GraphQLList):
        return None
    item, item_nullable = _unwrap(outer.of_type)
    if not isinstance(item, GraphQLObjectType) or item.is_type_of is not None:
        return None
    fields: list[tuple[str, _Plain]] = []
    for selection in node.selection_set.selections:
        if (
            not isinstance(selection, FieldNode)
            or selection.directives
            or selection.arguments
            or selection.selection_set is not None
        ):
            return None
        plain = _plan(schema, item, selection.name.value)
        if plain is None:
            return None
        fields.append(((selection.alias or selection.name).value, plain))
    if len({key for key, _ in fields}) != len(fields):
        return None
    get = _getter(field_def, _handlers(schema))
    if get is None:
        return None
    return _Rows(get, nullable, item_nullable, tuple(fields))


def _row(rows: _Rows, item: Any) -> dict[str, Any] | None:
    if item is None:
        if rows.item_nullable:
            return None
        raise _Fallback
    return {key: _complete(plain, plain.get(item)) for key, plain in rows.fields}


def _complete_rows(rows: _Rows, value: Any) -> Any:
    items = _listed(value, rows.nullable)  # an error returned is not a list: general way
    return None if items is None else [_row(rows, item) for item in items]


def _has_middleware(execution: StrawberryGraphQLCoreExecutionContext) -> bool:
    # strawberry always passes a manager; it only matters when it holds middleware
    manager = execution.middleware_manager
    return manager is not None and bool(manager.middlewares)


class PlainFieldExecution(StrawberryGraphQLCoreExecutionContext):
    """graphql-core's execution, with plain fields completed directly (see the module)."""

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: Any,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: Any,
    ) -> Any:
        if not _has_middleware(self):
            name = field_details_list[0].node.name.value
            plain = _plan(self.schema, parent_type, name)
            rows = (
                None
                if plain is not None
                else _rows_plan(self.schema, parent_type, field_details_list)
            )
            try:
                if plain is not None:
                    return _complete(plain, plain.get(source))
                if rows is not None:
                    return _complete_rows(rows, rows.get(source))
            except Exception:
                pass  # the general way below reports it properly
        return super().execute_field(
            parent_type, source, field_details_list, path, position_context
        )
