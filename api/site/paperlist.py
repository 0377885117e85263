"""A page's paged list of papers (24 a page, newest first or most cited first), read with the
same repository calls as the API's paper lists.

Pages are numbered: page ``n`` asks the keyset list for its first ``24 × n`` papers and shows
the last 24, so that every page up to :data:`NUMBERED_PAGES` has a plain link. Past it, the
next page is reached from the cursor of the last paper shown (``after``), as the API pages.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from scholargraph.api.site import shapes
from scholargraph.api.site.addresses import with_query
from scholargraph.api.site.page import SiteRequest
from scholargraph.api.site.shapes import Json, Numbered
from scholargraph.graph.repo import papers
from scholargraph.graph.repo.models import AuthoredPaper
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.papers import PaperFilter, PaperSort

PER_PAGE = 24
NUMBERED_PAGES = 40
AUTHORS_SHOWN = 10
SORTS: tuple[PaperSort, ...] = ("newest", "cited")


@dataclass(frozen=True, slots=True)
class PaperListing:
    shape: Json
    entries: list[AuthoredPaper]


async def paper_listing(
    site: SiteRequest,
    paper_filter: PaperFilter,
    path: str,
    *,
    sort: PaperSort = "newest",
    per_page: int = PER_PAGE,
    fixed: dict[str, str | None] | None = None,
) -> PaperListing:
    """The page of papers the request's ``page`` (and ``after``) ask for, with the first
    authors of each; ``path`` and ``fixed`` (query parameters kept in every page link) make
    the page links."""
    after = site.request.query_params.get("after") or None
    number = site.number("page", maximum=None if after else NUMBERED_PAGES)
    request = PageRequest(per_page, after) if after else PageRequest(per_page * number)
    pages, counts = await asyncio.gather(
        papers.paper_pages(site.db, [paper_filter], sort, request),
        papers.paper_counts(site.db, [paper_filter]),
    )
    page = pages[0]
    edges = page.edges if after else page.edges[per_page * (number - 1) :]
    keys = [edge.node.paper.key for edge in edges]
    authors = await papers.author_pages(site.db, keys, PageRequest(AUTHORS_SHOWN)) if keys else {}
    kept = {**(fixed or {}), "sort": None if sort == "newest" else sort}

    def url(n: int) -> str:
        here = after if n == number else None
        return site.links.url(with_query(path, **kept, page=None if n == 1 else n, after=here))

    next_url = None
    if page.has_next and edges and number >= NUMBERED_PAGES:
        next_url = site.links.url(with_query(path, **kept, page=number + 1, after=edges[-1].cursor))
    numbered = Numbered(
        number, per_page, counts[0], url, next_url=next_url, numbered_up_to=NUMBERED_PAGES
    )
    items = []
    for edge in edges:
        found = authors.get(edge.node.paper.key)
        item = shapes.paper(edge.node.paper, site.links, found.nodes if found else [])
        item["matchedAuthorCount"] = found.total if found else 0
        if edge.node.authorship is not None:
            item["authorship"] = shapes.authorship(edge.node.authorship)
        items.append(item)
    shape = numbered.shape(items, sort=sort)
    return PaperListing(shape, [edge.node for edge in edges])
