"""The GraphQL schema, with its request limits; ``python -m api.schema`` prints its SDL
(``--write`` updates the committed ``api/schema.graphql``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import strawberry
from graphql import GraphQLError
from strawberry.extensions import (
    MaxTokensLimiter,
    ParserCache,
    SchemaExtension,
    ValidationCache,
)
from strawberry.types import ExecutionContext

from scholargraph.api import limits
from scholargraph.api.mutation import Mutation
from scholargraph.api.query import Query

SDL_PATH = Path(__file__).with_name("schema.graphql")


class RequestLimits(SchemaExtension):
    """Depth, alias and cost checks with this request's variables, once the document has
    passed the (cached) standard validation."""

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if not context.pre_execution_errors and document is not None:
            errors = limits.check(context.schema._schema, document, context.variables)
            if errors:
                context.pre_execution_errors = errors
        yield


class ScholargraphSchema(strawberry.Schema):
    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        # Errors are masked and logged once, where they leave the server (api.errors).
        return None


def build_schema() -> strawberry.Schema:
    return ScholargraphSchema(
        query=Query,
        mutation=Mutation,
        extensions=[
            lambda: MaxTokensLimiter(max_token_count=limits.MAX_TOKENS),
            lambda: ParserCache(maxsize=256),
            lambda: ValidationCache(maxsize=256),
            RequestLimits,
        ],
    )


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
