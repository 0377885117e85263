"""What a page view hands back, and what it is handed.

A view reads the graph and returns a :class:`SitePage`: its data (the JSON representation,
from which the HTML and the markdown are made too), its title and description, its
canonical path, breadcrumbs and schema.org objects. It raises :class:`Redirect` when the
address is another form of a canonical one, and :class:`Missing` when it names nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from starlette.requests import Request

from scholargraph.api.site.shapes import Json, Links
from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput

S = TypeVar("S", bound=str)


@dataclass(frozen=True, slots=True)
class Feed:
    title: str
    path: str
    media_type: str


@dataclass
class SitePage:
    kind: str
    title: str  # plain text
    description: str
    canonical: str  # absolute, with the query parameters that change the content
    data: Json
    breadcrumbs: list[tuple[str, str]] = field(default_factory=list)  # (name, path)
    jsonld: list[Json] = field(default_factory=list)
    status: int = 200
    og_type: str = "website"
    feeds: tuple[Feed, ...] = ()
    indexable: bool = True


class Redirect(Exception):
    """The address names an entity whose canonical address is ``path``."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


class Missing(Exception):
    """The address names nothing; ``kind`` and ``key`` say what was looked for, to suggest
    the closest things there are."""

    def __init__(self, kind: str, key: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.key = key
        self.message = message


@dataclass
class SiteRequest:
    request: Request
    db: Database
    links: Links

    @property
    def params(self) -> dict[str, str]:
        return dict(self.request.query_params)

    def path_param(self, name: str) -> str:
        value: str = self.request.path_params[name]
        return value

    def number(self, name: str, default: int = 1, *, maximum: int | None = None) -> int:
        """A positive integer query parameter; a malformed one is a 400."""
        text = self.request.query_params.get(name)
        if text is None or text == "":
            return default
        try:
            value = int(text)
        except ValueError:
            raise BadInput(f"{name} must be a whole number, not {text!r}") from None
        if value < 1:
            raise BadInput(f"{name} must be 1 or more, not {value}")
        if maximum is not None and value > maximum:
            raise BadInput(f"{name} must be at most {maximum}, not {value}")
        return value

    def choice(self, name: str, options: tuple[S, ...]) -> S:
        """A query parameter among ``options`` (the first is the default)."""
        text = self.request.query_params.get(name) or options[0]
        for option in options:
            if option == text:
                return option
        raise BadInput(f"{name} must be one of {', '.join(options)}, not {text!r}")
