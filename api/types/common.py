from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import strawberry

from scholargraph.graph.repo.pages import Page


@strawberry.type(description="Where a page of a connection sits (Relay cursor connections).")
class PageInfo:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None

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
