"""The JSON shapes the pages share: an entity as a list shows it, and a numbered list.

Field names are camelCase, as in the GraphQL API, and stable: ``/openapi.json`` describes
each of them (:mod:`api.site.openapi`). URLs are absolute.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from scholargraph.api.site import addresses
from scholargraph.graph import taxonomy
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo.models import Author, Authorship, Institution, Paper, Researcher
from scholargraph.graph.repo.search import SearchHit
from scholargraph.graph.schema.relationships import MATCH_METHODS

Json = dict[str, Any]
_URL_SAFE = "/:?&=%#,+@!$'()*;~"
SOURCE_NAMES = {
    "arxiv": "arXiv",
    "s2": "Semantic Scholar",
    "openalex": "OpenAlex",
    "orcid": "ORCID",
    "ror": "ROR",
    "curator": "a curator",
}


@dataclass(frozen=True, slots=True)
class Links:
    """Absolute URLs on this site."""

    base: str

    def url(self, path: str) -> str:
        """``base`` and ``path``, any character a URL cannot hold percent-encoded (a slug of
        another script, a space in a name)."""
        return self.base + quote(path, safe=_URL_SAFE)


def category_name(code: str) -> str:
    try:
        return taxonomy.lookup(code).name
    except BadInput:
        return code


def category(code: str, links: Links) -> Json:
    return {"code": code, "name": category_name(code), "url": links.url(f"/categories/{code}")}


def researcher(r: Researcher, links: Links) -> Json:
    return {
        "id": r.id,
        "name": r.name,
        "url": links.url(addresses.researcher_path(r)),
        "orcid": r.orcid,
        "paperCount": r.paper_count,
        "citationCount": r.citation_count,
        "hIndex": r.h_index,
    }


def institution(i: Institution, links: Links) -> Json:
    return {
        "id": i.id,
        "name": i.name,
        "url": links.url(addresses.institution_path(i)),
        "rorId": i.ror_id,
        "countryCode": i.country_code,
    }


def authorship(a: Authorship) -> Json:
    return {
        "position": a.position,
        "kind": a.kind,
        "rawName": a.raw_name,
        "source": a.source,
        "method": a.method,
        "methodDescription": MATCH_METHODS.get(a.method or ""),
        "confidence": a.confidence,
        "pinned": a.pinned,
    }


def author(a: Author, links: Links) -> Json:
    return {**researcher(a.researcher, links), "authorship": authorship(a.authorship)}


def paper(p: Paper, links: Links, authors: Sequence[Author] | None = None) -> Json:
    shape: Json = {
        "id": p.key,
        "arxivId": p.arxiv_id,
        "title": p.title,
        "url": links.url(addresses.paper_path(p)),
        "published": p.published.isoformat() if p.published else None,
        "year": p.year,
        "primaryCategory": p.primary_category,
        "citationCount": p.citation_count,
        "authorCount": p.n_authors,
    }
    if authors is not None:
        shape["authors"] = [author(a, links) for a in authors]
    return shape


def search_hit(entry: SearchHit, links: Links) -> Json:
    entity = entry.entity
    shape: Json
    if isinstance(entity, Paper):
        shape = paper(entity, links)
    elif isinstance(entity, Researcher):
        shape = researcher(entity, links)
    else:
        shape = institution(entity, links)
    return {"kind": entry.kind, "score": round(entry.score, 4), "item": shape}


@dataclass(frozen=True, slots=True)
class Numbered:
    """Page ``number`` of ``total`` items, ``size`` a page, with the URL of any page."""

    number: int
    size: int
    total: int
    url: Callable[[int], str]
    next_url: str | None = None  # when the next page is not reached by its number
    numbered_up_to: int | None = None  # pages past this have no number link

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.size))

    def links(self) -> Json:
        last = self.pages
        reachable = last if self.numbered_up_to is None else min(last, self.numbered_up_to)
        has_next = self.number < last
        return {
            "self": self.url(self.number),
            "first": self.url(1),
            "previous": self.url(self.number - 1) if 1 < self.number <= reachable + 1 else None,
            "next": (self.next_url or self.url(self.number + 1)) if has_next else None,
            "last": self.url(last) if last <= reachable else None,
        }

    def window(self, width: int = 2) -> list[int | None]:
        """Page numbers to link, ``None`` where a run is left out: 1 … 4 5 [6] 7 8 … 20."""
        last = self.pages if self.numbered_up_to is None else min(self.pages, self.numbered_up_to)
        shown = sorted({1, last, *range(self.number - width, self.number + width + 1)})
        numbers: list[int | None] = []
        previous = 0
        for n in shown:
            if not 1 <= n <= last:
                continue
            if previous and n - previous > 1:
                numbers.append(None)
            numbers.append(n)
            previous = n
        return numbers

    def shape(self, items: list[Json], **extra: Any) -> Json:
        return {
            "total": self.total,
            "page": self.number,
            "pages": self.pages,
            "perPage": self.size,
            **extra,
            "items": items,
            "links": self.links(),
            "window": [
                {"page": n, "url": self.url(n), "current": n == self.number} if n else None
                for n in self.window()
            ],
        }
