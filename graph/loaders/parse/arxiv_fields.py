"""Field conventions shared by arXiv's formats (``.abs``, Atom, OAI-PMH)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from scholargraph.graph.loaders.parse.authors import split_authors
from scholargraph.graph.records import AuthorRecord, Authorship

_WITHDRAWAL_COMMENT = re.compile(
    r"^\s*(?:this\s+)?(?:paper|article|submission|manuscript)?\s*(?:has\s+been\s+|is\s+)?withdrawn\b"
    r"|\b(?:has|have)\s+been\s+withdrawn\b",
    re.IGNORECASE,
)


def withdrawn_by_comment(comments: str | None) -> bool:
    """Whether the comments announce a withdrawal ("This paper has been withdrawn by …").

    Used by the formats that carry no withdrawal flag (Atom, OAI-PMH ``arXiv``); the
    ``.abs`` and ``arXivRaw`` formats mark a withdrawn version with source type ``I``.
    """
    return bool(comments and _WITHDRAWAL_COMMENT.search(comments))


def split_categories(raw: str | None) -> tuple[str | None, tuple[str, ...]]:
    """(primary, all categories in order) of a space-separated list; the first is primary."""
    categories = tuple(dict.fromkeys((raw or "").split()))
    return (categories[0] if categories else None), categories


def ordered_categories(primary: str | None, others: Sequence[str]) -> tuple[str, ...]:
    """All categories with the primary one first and no repeats."""
    return tuple(dict.fromkeys([c for c in (primary, *others) if c]))


def authorships_from_string(raw: str, *, retrieved: date) -> tuple[tuple[Authorship, ...], bool]:
    """Authorships of a flat arXiv author string, and whether it says "et al"."""
    parsed = split_authors(raw)
    authorships = tuple(
        Authorship(
            position=index,
            raw_name=author.name,
            author=AuthorRecord(name=author.name, source="arxiv", retrieved=retrieved),
            raw_affiliations=author.affiliations,
        )
        for index, author in enumerate(parsed.authors, start=1)
    )
    return authorships, parsed.et_al
