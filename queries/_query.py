from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# "auto": an implicit (auto-commit) transaction, needed by CALL { … } IN TRANSACTIONS.
Mode = Literal["read", "write", "auto"]

REGISTRY: dict[str, Query] = {}


@dataclass(frozen=True, slots=True)
class Query:
    """A named, parameterised Cypher statement. User values only ever travel as ``$params``."""

    name: str
    text: str
    mode: Mode = "read"
    # The queries a composed statement runs (queries._compose); such a statement is not
    # registered: it is made per request from registered ones.
    parts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.parts:
            return
        if self.name in REGISTRY and REGISTRY[self.name].text != self.text:
            raise ValueError(f"two different queries are named {self.name!r}")
        REGISTRY[self.name] = self
