"""The GraphQL schema, with its request checks; ``python -m api.schema`` prints its SDL
(``--write`` updates the committed ``api/schema.graphql``)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

import strawberry
from graphql import (
    DocumentNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    OverlappingFieldsCanBeMergedRule,
    ValidationContext,
    parse,
    specified_rules,
)
from graphql.validation import ASTValidationRule
from graphql.validation.validate import ValidationAbortedError
from strawberry.extensions import SchemaExtension
from strawberry.schema.schema import validate_document
from strawberry.types import ExecutionContext

from scholargraph.api import inputs, limits
from scholargraph.api.errors import limit_error
from scholargraph.api.execution import PlainFieldExecution
from scholargraph.api.mutation import Mutation
from scholargraph.api.query import Query

SDL_PATH = Path(__file__).with_name("schema.graphql")
# Documents longer than this are parsed and validated on a worker thread, so that the event
# loop (and /healthz) never waits behind one.
OFF_LOOP_CHARS = 1024
CACHED_DOCUMENTS = 256
# graphql-core's own bound on the comparisons of its merge check (about 2 µs each), a
# backstop behind limits.MAX_MERGE_PAIRS.
MERGE_BUDGET = 20_000

T = TypeVar("T")


class _BoundedMergeCheck(OverlappingFieldsCanBeMergedRule):
    def __init__(self, context: ValidationContext) -> None:
        super().__init__(context)
        self.rule_context.remaining_complexity_budget = MERGE_BUDGET


def _rules(rules: tuple[type[ASTValidationRule], ...]) -> tuple[type[ASTValidationRule], ...]:
    return tuple(
        _BoundedMergeCheck if rule is OverlappingFieldsCanBeMergedRule else rule for rule in rules
    )


class Documents:
    """Parsed and checked documents by their text, the last :data:`CACHED_DOCUMENTS` kept:
    the length, token and shape checks, then graphql-core's validation (none of which
    depends on variables)."""

    def __init__(self, schema: GraphQLSchema, rules: tuple[type[ASTValidationRule], ...]) -> None:
        self.schema = schema
        self.rules = _rules(rules)
        self.parse: Callable[[str], DocumentNode] = lru_cache(CACHED_DOCUMENTS)(self._parse)
        self.errors: Callable[[str], tuple[GraphQLError, ...]] = lru_cache(CACHED_DOCUMENTS)(
            self._errors
        )

    def _parse(self, text: str) -> DocumentNode:
        problem = limits.document_length_problem(text)
        if problem is not None:
            raise limit_error(problem)
        return parse(text, max_tokens=limits.MAX_TOKENS)

    def _errors(self, text: str) -> tuple[GraphQLError, ...]:
        document = self.parse(text)
        problems = limits.shape_problems(document)
        if problems:
            return tuple(limit_error(problem) for problem in problems)
        errors = validate_document(self.schema, document, self.rules)
        if any(isinstance(error, ValidationAbortedError) for error in errors):
            return (
                limit_error(
                    "this document is too costly to validate: it selects the same fields, or "
                    "spreads fragments, too many times over in one place; select each field "
                    "once per selection set"
                ),
            )
        return tuple(errors)


async def _off_loop_if_long(text: str, work: Callable[[str], T]) -> T:
    if len(text) > OFF_LOOP_CHARS:
        return await asyncio.to_thread(work, text)
    return work(text)


def selected_operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode:
    """The operation to run, as the GraphQL spec selects it: the one named ``name``, or the
    only one when no name is given."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    names = ", ".join(op.name.value for op in operations if op.name) or "none named"
    if name is not None:
        for operation in operations:
            if operation.name is not None and operation.name.value == name:
                return operation
        raise GraphQLError(
            f"the document has no operation named {name!r} (its operations: {names}); "
            f"send an operationName it defines"
        )
    if not operations:
        raise GraphQLError("the document has no operation; send a query { … } or mutation")
    if len(operations) > 1:
        raise GraphQLError(
            f"the document has {len(operations)} operations ({names}); say which to run "
            f"with operationName"
        )
    return operations[0]


def _requested_operation(context: ExecutionContext) -> str | None:
    # What the request named; ``context.operation_name`` falls back to the first operation.
    return context._provided_operation_name


class RequestChecks(SchemaExtension):
    """Parsing, the cheap checks, validation (all cached by document text and, for long
    documents, off the event loop), then the checks that depend on this request's
    variables: argument values (:mod:`api.inputs`) and cost (:mod:`api.limits`)."""

    def __init__(self, documents: Documents) -> None:
        super().__init__()
        self.documents = documents

    async def on_parse(self) -> AsyncIterator[None]:
        context = self.execution_context
        if context.query:
            document = await _off_loop_if_long(context.query, self.documents.parse)
            selected_operation(document, _requested_operation(context))
            context.graphql_document = document
        yield

    async def on_validate(self) -> AsyncIterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if context.query and document is not None and context.pre_execution_errors is None:
            errors = list(await _off_loop_if_long(context.query, self.documents.errors))
            if not errors:
                errors = _request_errors(context, document)
            context.pre_execution_errors = errors
        yield


def _request_errors(context: ExecutionContext, document: DocumentNode) -> list[GraphQLError]:
    operation = selected_operation(document, _requested_operation(context))
    variables = context.variables or {}
    errors = [
        GraphQLError(problem, extensions={"code": "BAD_INPUT"})
        for problem in inputs.argument_problems(document, operation, variables)
    ]
    if not errors:
        problems = limits.cost_problems(context.schema._schema, document, operation, variables)
        errors = [limit_error(problem) for problem in problems]
    return errors


class ScholargraphSchema(strawberry.Schema):
    def __init__(self) -> None:
        super().__init__(
            query=Query,
            mutation=Mutation,
            extensions=[lambda: RequestChecks(self.documents)],
            execution_context_class=PlainFieldExecution,
        )
        self.documents = Documents(self._schema, tuple(specified_rules))

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        # Errors are masked and logged once, where they leave the server (api.errors).
        return None


def build_schema() -> strawberry.Schema:
    return ScholargraphSchema()


def sdl() -> str:
    return build_schema().as_str() + "\n"


def main(argv: list[str]) -> int:
    if "--write" in argv:
        SDL_PATH.write_text(sdl(), encoding="utf-8")
    else:
        sys.stdout.write(sdl())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
