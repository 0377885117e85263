from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar, cast

import strawberry

from scholargraph.graph.repo.pages import Page


@strawberry.type(description="Where a page of a connection sits (Relay cursor connections).")
class PageInfo:
    has_next_page: bool = strawberry.field(
        description="More items follow this page: ask again with after: endCursor."
    )
    has_previous_page: bool = strawberry.field(
        description="Items come before this page (it was asked for after a cursor)."
    )
    start_cursor: str | None = strawberry.field(
        description="The cursor of the page's first item; null for an empty page."
    )
    end_cursor: str | None = strawberry.field(
        description="The cursor of the page's last item; null for an empty page."
    )

    @classmethod
    def of(cls, page: Page[Any]) -> PageInfo:
        return cls(
            has_next_page=page.has_next,
            has_previous_page=page.has_previous,
            start_cursor=page.edges[0].cursor if page.edges else None,
            end_cursor=page.edges[-1].cursor if page.edges else None,
        )


def to_id(value: int | str) -> strawberry.ID:
    return strawberry.ID(str(value))


F = TypeVar("F", bound=Callable[..., Any])


def resolver(description: str) -> Callable[[F], F]:
    """``@strawberry.field(description=…)`` with its type kept for mypy."""
    return cast(Callable[[F], F], strawberry.field(description=description))


def mutation(description: str) -> Callable[[F], F]:
    """``@strawberry.mutation(description=…)`` with its type kept for mypy."""
    return cast(Callable[[F], F], strawberry.mutation(description=description))


def arg(description: str) -> Any:
    """``strawberry.argument(description=…)``, for ``Annotated[type, arg("…")]``."""
    return strawberry.argument(description=description)


First = Annotated[int, arg("How many items the page holds; at most 100.")]
After = Annotated[
    str | None, arg("Items after this cursor (an endCursor of the same field); unset: the start.")
]
# Where a connection also pages backward: the Relay spec has first nullable there.
NullableFirst = Annotated[
    int | None, arg("How many items the page holds; at most 100; not used when last is given.")
]
Last = Annotated[
    int | None,
    arg("Page backward: how many items the page holds, those just before `before`; at most 100."),
]
Before = Annotated[
    str | None,
    arg("With last: items before this cursor (a startCursor of the same field); unset: the end."),
]
YearFrom = Annotated[int | None, arg("Only papers of this year or later.")]
YearTo = Annotated[int | None, arg("Only papers of this year or earlier.")]
InCategory = Annotated[
    str | None, arg("Only papers in this arXiv category (cs.DC), primary or cross-listed.")
]
