from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

# "auto": an implicit (auto-commit) transaction, needed by CALL { … } IN TRANSACTIONS.
Mode = Literal["read", "write", "auto"]

REGISTRY: dict[str, Query] = {}
# An index hint must say SEEK. A bare `USING INDEX` is also met by scanning the whole index and
# filtering: a plan made while a label was near empty did that for each of 5,000 unwound keys
# (10 s instead of 50 ms, and once a read past its 600 s timeout).
_BARE_INDEX_HINT = re.compile(r"\bUSING\s+(?:RANGE\s+|TEXT\s+|POINT\s+)?INDEX\s+(?!SEEK\b)", re.I)


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
        if _BARE_INDEX_HINT.search(self.text):
            raise ValueError(f"{self.name}: an index hint is `USING INDEX SEEK …`")
        if self.name in REGISTRY and REGISTRY[self.name].text != self.text:
            raise ValueError(f"two different queries are named {self.name!r}")
        REGISTRY[self.name] = self
