"""Field conventions shared by arXiv's formats (``.abs``, Atom, OAI-PMH, the metadata
snapshot)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from scholargraph.graph.errors import BadInput, RecordRejected
from scholargraph.graph.ids import parse_arxiv_id
from scholargraph.graph.loaders.parse.authors import split_authors
from scholargraph.graph.loaders.parse.text import clean_name, clean_title
from scholargraph.graph.records import AuthorRecord, Authorship, Version

_WITHDRAWAL_COMMENT = re.compile(
    r"^\s*(?:this\s+)?(?:paper|article|submission|manuscript)?\s*(?:has\s+been\s+|is\s+)?withdrawn\b"
    r"|\b(?:has|have)\s+been\s+withdrawn\b",
    re.IGNORECASE,
)


def withdrawn_by_comment(comments: str | None) -> bool:
    """Whether the comments announce a withdrawal ("This paper has been withdrawn by …").

    Used by the formats that carry no withdrawal flag (Atom, OAI-PMH ``arXiv``, the
    snapshot); the ``.abs`` and ``arXivRaw`` formats mark a withdrawn version with source
    type ``I``.
    """
    return bool(comments and _WITHDRAWAL_COMMENT.search(comments))


def identity(raw_id: str | None, raw_title: str | None, *, missing: str) -> tuple[str, str]:
    """(arXiv id without version, title) of a record; :class:`RecordRejected` when either is
    missing or the id is malformed (``missing`` is the reason for a record with no id)."""
    if not raw_id:
        raise RecordRejected(missing, source="arxiv")
    try:
        arxiv_id, _ = parse_arxiv_id(raw_id)
    except BadInput as exc:
        raise RecordRejected(str(exc), source="arxiv", ref=raw_id) from exc
    title = clean_title(raw_title, tex=True)
    if title is None:
        raise RecordRejected("no title", source="arxiv", ref=arxiv_id)
    return arxiv_id, title


def split_categories(raw: str | None) -> tuple[str | None, tuple[str, ...]]:
    """(primary, all categories in order) of a space-separated list; the first is primary."""
    categories = tuple(dict.fromkeys((raw or "").split()))
    return (categories[0] if categories else None), categories


def ordered_categories(primary: str | None, others: Sequence[str]) -> tuple[str, ...]:
    """All categories with the primary one first and no repeats."""
    return tuple(dict.fromkeys([c for c in (primary, *others) if c]))


def version_number(label: str | None) -> int | None:
    """The number of a version label (``v2``), or None."""
    digits = (label or "").strip().lstrip("vV")
    return int(digits) if digits.isdigit() else None


def version_dates(
    versions: Sequence[Version],
) -> tuple[date | None, date | None, int | None]:
    """(published, updated, year) of a version history in order: the first version's date,
    the latest one's and the first one's year."""
    published = versions[0].date if versions else None
    updated = versions[-1].date if versions else None
    return published, updated, published.year if published else None


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


def authorship_from_parts(
    position: int,
    keyname: str | None,
    forenames: str | None,
    suffix: str | None,
    affiliations: Sequence[str | None],
    *,
    retrieved: date,
) -> Authorship | None:
    """The authorship of a name arXiv split into key name, forenames and suffix (OAI-PMH
    ``arXiv``, the snapshot's ``authors_parsed``), printed "forenames keyname suffix"; None
    when no part holds a name. A collaboration has only a key name."""
    keyname = clean_name(keyname, tex=True)
    forenames = clean_name(forenames, tex=True)
    suffix = clean_name(suffix, tex=True)
    name = " ".join(part for part in (forenames, keyname, suffix) if part)
    if not name:
        return None
    return Authorship(
        position=position,
        raw_name=name,
        author=AuthorRecord(name=name, source="arxiv", retrieved=retrieved),
        raw_affiliations=tuple(
            dict.fromkeys(text for raw in affiliations if (text := clean_name(raw, tex=True)))
        ),
        forenames=forenames,
        keyname=keyname,
    )
