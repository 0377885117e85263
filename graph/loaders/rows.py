"""Records → the parameter rows of the writer's queries.

(A record's author slots are made by :func:`graph.identity.mentions.slots_of`.)
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import date
from itertools import pairwise
from typing import Any

from scholargraph.graph.identity.mentions import n_authors
from scholargraph.graph.identity.names import ascii_fold, parse_name
from scholargraph.graph.identity.precedence import record_ref
from scholargraph.graph.records import PaperRecord
from scholargraph.queries.writer import CategoryRow

ALPHABETICAL_MIN_AUTHORS = 4


def slugify(text: str) -> str:
    """``"Ziming Liu"`` → ``"ziming-liu"``; letters folded as names are (diacritics, and
    ``ø``, ``ł``, ``ı``, ``ß`` … spelled in ASCII), anything else dropped.

    >>> slugify("Jürgen Schmidhuber")
    'jurgen-schmidhuber'
    >>> slugify("Søren Bäckström"), slugify("Elif Yılmaz")
    ('soren-backstrom', 'elif-yilmaz')
    """
    folded = ascii_fold(text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-") or "unnamed"


def is_alphabetical(paper: PaperRecord) -> bool:
    """Whether the author list is in surname order (only said of lists of four or more,
    where chance order is alphabetical at most once in 24)."""
    if len(paper.authorships) < ALPHABETICAL_MIN_AUTHORS:
        return False
    surnames = [parse_name(a.raw_name).last for a in paper.authorships]
    return all(a <= b for a, b in pairwise(surnames))


def paper_props(paper: PaperRecord, coauthor_cap: int) -> dict[str, Any]:
    n = n_authors(paper)
    props: dict[str, Any] = {
        "key": paper.key,
        "arxiv_id": paper.arxiv_id,
        "doi": paper.doi,
        "s2_id": paper.s2_id,
        "s2_corpus_id": paper.s2_corpus_id,
        "openalex_id": paper.openalex_id,
        "title": paper.title,
        "abstract": paper.abstract,
        "published": paper.published,
        "updated": paper.updated,
        "year": paper.year or (paper.published.year if paper.published else None),
        "versions": max((v.version for v in paper.versions), default=None),
        "primary_category": paper.primary_category,
        "citation_count": paper.citation_count,
        "journal_ref": paper.journal_ref,
        "comments": paper.comments,
        "withdrawn": paper.withdrawn,
        "n_authors": n,
        "hyperauthored": n > coauthor_cap or paper.authors_truncated,
        "alphabetical": is_alphabetical(paper),
        "authors_truncated": paper.authors_truncated,
    }
    return {k: v for k, v in props.items() if v is not None}


def category_rows(paper: PaperRecord) -> list[CategoryRow]:
    primary = paper.primary_category or (paper.categories[0] if paper.categories else None)
    codes = dict.fromkeys([*([primary] if primary else []), *paper.categories])
    return [CategoryRow(code=code, primary=code == primary) for code in codes]


def digest(paper: PaperRecord, props: dict[str, Any], categories: list[CategoryRow]) -> str:
    """A digest of everything a record writes (given its :func:`paper_props` and
    :func:`category_rows`); equal digests mean nothing would change."""
    content = {
        "props": props,
        "categories": categories,
        "authors": [
            (
                a.position,
                a.raw_name,
                a.author.orcid,
                a.author.s2_ids,
                a.author.openalex_ids,
                [(i.ror_id, i.openalex_id) for i in a.institutions],
                a.raw_affiliations,
            )
            for a in paper.authorships
        ],
    }
    text = json.dumps(content, sort_keys=True, default=_json_default)
    return f"{record_ref(paper)}:{hashlib.blake2b(text.encode(), digest_size=12).hexdigest()}"


def _json_default(value: object) -> str:
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"cannot fingerprint {type(value).__name__}")
