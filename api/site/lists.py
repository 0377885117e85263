"""The pages that list: the home page, the latest papers, a category, the categories, the
researcher and institution indexes, and search."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

from scholargraph.api.site import jsonld, shapes
from scholargraph.api.site.addresses import category_path, with_query
from scholargraph.api.site.page import Feed, Missing, Redirect, SitePage, SiteRequest
from scholargraph.api.site.paperlist import SORTS, paper_listing
from scholargraph.api.site.shapes import Json, Numbered
from scholargraph.graph import taxonomy
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo import entities, search
from scholargraph.graph.repo import site as site_repo
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.papers import PaperFilter
from scholargraph.graph.repo.semantic import PaperFilter as SearchFilter
from scholargraph.graph.repo.site import NumberedPage
from scholargraph.graph.sync import sync_overview

SITE_NAME = "scholargraph"
INDEX_PER_PAGE = 50
SEARCH_PER_PAGE = 20
HOME_PAPERS = 12
LATEST_FEEDS = (
    Feed("Latest papers (Atom)", "/feed.atom", "application/atom+xml"),
    Feed("Latest papers (RSS)", "/feed.rss", "application/rss+xml"),
)


def _home(site: SiteRequest) -> tuple[str, str]:
    return ("Home", site.links.url("/"))


async def home_page(site: SiteRequest) -> SitePage:
    listing, synced = await asyncio.gather(
        paper_listing(site, PaperFilter(), "/papers", per_page=HOME_PAPERS),
        sync_overview(site.db),
    )
    links = site.links
    last_harvest = synced.last_harvest
    data: Json = {
        "kind": "home",
        "name": SITE_NAME,
        "url": links.url("/"),
        "search": links.url("/search"),
        "latestPapers": listing.shape["items"],
        "latestTotal": listing.shape["total"],
        "sync": {
            "lastHarvest": last_harvest.strftime("%Y-%m-%dT%H:%M:%SZ") if last_harvest else None,
            "backlog": synced.backlog,
        },
        "indexes": {
            "papers": links.url("/papers"),
            "researchers": links.url("/researchers"),
            "institutions": links.url("/institutions"),
            "categories": links.url("/categories"),
        },
        "machine": {
            "llms": links.url("/llms.txt"),
            "openapi": links.url("/openapi.json"),
            "graphql": links.url("/graphql"),
            "sitemap": links.url("/sitemap.xml"),
            "feed": links.url("/feed.atom"),
        },
    }
    return SitePage(
        kind="home",
        title=f"{SITE_NAME} — an open scholarly knowledge graph",
        description=(
            "Papers, researchers, institutions and arXiv categories from arXiv, Semantic "
            "Scholar, OpenAlex, ORCID and ROR, with every author match explained."
        ),
        canonical=links.url("/"),
        data=data,
        breadcrumbs=[_home(site)],
        jsonld=[jsonld.website(links.base, SITE_NAME)],
        feeds=LATEST_FEEDS,
    )


async def papers_page(site: SiteRequest) -> SitePage:
    sort = site.choice("sort", SORTS)
    listing = await paper_listing(site, PaperFilter(), "/papers", sort=sort)
    links = site.links
    url = links.url("/papers")
    title = "Latest papers" if sort == "newest" else "Most cited papers"
    return SitePage(
        kind="papers",
        title=title,
        description=f"{listing.shape['total']} papers in scholargraph, {title.lower()} first.",
        canonical=listing.shape["links"]["self"],
        data={"kind": "papers", "url": url, "papers": listing.shape},
        breadcrumbs=[_home(site), ("Papers", url)],
        jsonld=[jsonld.collection(title, url)],
        feeds=LATEST_FEEDS,
    )


def category_code(code: str) -> str:
    """The code a category is listed under; another spelling of it redirects there."""
    try:
        info = taxonomy.lookup(code)
    except BadInput:
        same = [c.code for c in taxonomy.all_categories() if c.code.lower() == code.lower()]
        if len(same) == 1:
            raise Redirect(category_path(same[0])) from None
        raise Missing("category", code, f"{code!r} is not an arXiv category.") from None
    listed = taxonomy.canonical(info.code)
    if listed != code:
        raise Redirect(category_path(listed))
    return listed


async def category_page(site: SiteRequest) -> SitePage:
    code = category_code(site.path_param("code"))
    info = taxonomy.lookup(code)
    sort = site.choice("sort", SORTS)
    path = category_path(code)
    listing, counts = await asyncio.gather(
        paper_listing(site, PaperFilter(category=code), path, sort=sort),
        entities.category_counts(site.db, [code]),
    )
    links = site.links
    url = links.url(path)
    count = counts.get(code, entities.CategoryCounts(0, 0))
    data: Json = {
        "kind": "category",
        **shapes.category(code, links),
        "archive": {"code": info.archive, "name": info.archive_name},
        "group": info.group,
        "active": info.active,
        "aliases": list(taxonomy.aliases_of(code)),
        "paperCount": count.papers,
        "primaryPaperCount": count.primary_papers,
        "papers": listing.shape,
        "feeds": {
            "atom": links.url(f"{path}/feed.atom"),
            "rss": links.url(f"{path}/feed.rss"),
        },
    }
    return SitePage(
        kind="category",
        title=f"{code}: {info.name}",
        description=(
            f"{count.papers} papers in the arXiv category {code} ({info.name}, "
            f"{info.group}), newest first."
        ),
        canonical=listing.shape["links"]["self"],
        data=data,
        breadcrumbs=[_home(site), ("Categories", links.url("/categories")), (code, url)],
        jsonld=[
            {
                **jsonld.collection(f"{code}: {info.name}", url),
                "about": {"@type": "DefinedTerm", "termCode": code, "name": info.name},
            }
        ],
        feeds=(
            Feed(f"Latest papers in {code} (Atom)", f"{path}/feed.atom", "application/atom+xml"),
            Feed(f"Latest papers in {code} (RSS)", f"{path}/feed.rss", "application/rss+xml"),
        ),
    )


async def categories_page(site: SiteRequest) -> SitePage:
    listed = [c for c in taxonomy.all_categories() if taxonomy.canonical(c.code) == c.code]
    counts = await entities.category_counts(site.db, [c.code for c in listed])
    links = site.links
    groups: dict[str, dict[str, list[Json]]] = defaultdict(lambda: defaultdict(list))
    for info in listed:
        count = counts.get(info.code, entities.CategoryCounts(0, 0))
        groups[info.group][info.archive_name].append(
            {**shapes.category(info.code, links), "papers": count.papers, "active": info.active}
        )
    url = links.url("/categories")
    data: Json = {
        "kind": "categories",
        "url": url,
        "groups": [
            {
                "name": group,
                "archives": [{"name": name, "categories": cats} for name, cats in archives.items()],
            }
            for group, archives in groups.items()
        ],
    }
    return SitePage(
        kind="categories",
        title="arXiv categories",
        description="Every arXiv category, by group and archive, with its papers in scholargraph.",
        canonical=url,
        data=data,
        breadcrumbs=[_home(site), ("Categories", url)],
        jsonld=[jsonld.collection("arXiv categories", url)],
    )


def _index_page(
    site: SiteRequest,
    kind: str,
    sort: str,
    default: str,
    found: NumberedPage[Any],
    items: list[Json],
) -> SitePage:
    """A numbered index of researchers or institutions, sorted by ``sort``."""
    number = site.number("page")
    links = site.links
    path = f"/{kind}"
    kept = None if sort == default else sort

    def url(n: int) -> str:
        return links.url(with_query(path, sort=kept, page=None if n == 1 else n))

    numbered = Numbered(number, INDEX_PER_PAGE, found.total, url)
    if number > numbered.pages:
        raise Missing("page", str(number), f"The {kind[:-1]} index has {numbered.pages} pages.")
    here = links.url(path)
    title = kind.capitalize()
    return SitePage(
        kind=kind,
        title=title + (f", page {number}" if number > 1 else ""),
        description=f"{found.total} {kind} in scholargraph, by {sort}.",
        canonical=url(number),
        data={"kind": kind, "url": here, **numbered.shape(items, sort=sort)},
        breadcrumbs=[_home(site), (title, here)],
        jsonld=[jsonld.collection(title, here)],
    )


async def researchers_page(site: SiteRequest) -> SitePage:
    sort = site.choice("sort", site_repo.RESEARCHER_SORTS)
    found = await site_repo.researcher_index(site.db, sort, site.number("page"), INDEX_PER_PAGE)
    items = [shapes.researcher(r, site.links) for r in found.items]
    return _index_page(site, "researchers", sort, "papers", found, items)


async def institutions_page(site: SiteRequest) -> SitePage:
    sort = site.choice("sort", site_repo.INSTITUTION_SORTS)
    found = await site_repo.institution_index(site.db, sort, site.number("page"), INDEX_PER_PAGE)
    items = [
        {**shapes.institution(i.institution, site.links), "researchers": i.researchers}
        for i in found.items
    ]
    return _index_page(site, "institutions", sort, "researchers", found, items)


SEARCH_KINDS: tuple[str, ...] = ("all", *search.ALL_KINDS)
SEARCH_MODES: tuple[search.SearchMode, ...] = ("hybrid", "keyword", "semantic")


async def search_page(site: SiteRequest) -> SitePage:
    text = (site.request.query_params.get("q") or "").strip()
    kind = site.choice("kind", SEARCH_KINDS)
    mode = site.choice("mode", SEARCH_MODES)
    narrowed = _paper_filter(site)
    after = site.request.query_params.get("after") or None
    links = site.links
    here = links.url("/search")
    data: Json = {"kind": "search", "url": here, "query": text, "searchKind": kind, "mode": mode}
    data["filters"] = {
        "category": narrowed.category,
        "yearFrom": narrowed.year_from,
        "yearTo": narrowed.year_to,
    }
    data.update(total=0, items=[], next=None)
    if text:
        kinds = [k for k in search.ALL_KINDS if kind in ("all", k)]
        page = await search.search(
            site.db,
            text,
            PageRequest(SEARCH_PER_PAGE, after),
            kinds,
            mode=mode,
            papers=narrowed,
        )
        data["total"] = page.total or 0
        data["items"] = [shapes.search_hit(e.node, links) for e in page.edges]
        if page.has_next and page.edges:
            data["next"] = links.url(
                with_query(
                    "/search",
                    q=text,
                    kind=None if kind == "all" else kind,
                    mode=None if mode == "hybrid" else mode,
                    **_filter_params(narrowed),
                    after=page.edges[-1].cursor,
                )
            )
    title = f"Search: {text}" if text else "Search"
    canonical = links.url(
        with_query(
            "/search",
            q=text,
            kind=None if kind == "all" else kind,
            mode=None if mode == "hybrid" else mode,
            **_filter_params(narrowed),
        )
    )
    return SitePage(
        kind="search",
        title=title,
        description="Search papers, researchers and institutions by words or by meaning, or "
        "find one by its arXiv id, DOI, ORCID, ROR id or researcher id.",
        canonical=canonical,
        data=data,
        breadcrumbs=[_home(site), ("Search", canonical)],
        jsonld=[jsonld.collection(title, canonical, "SearchResultsPage")],
        indexable=False,
    )


def _paper_filter(site: SiteRequest) -> SearchFilter:
    """``category``, ``from`` and ``to`` (years): what narrows the papers found."""
    code = site.request.query_params.get("category") or None
    if code is not None:
        code = entities.find_category(code).code
    year_from = site.number("from", 0, maximum=9999) or None
    year_to = site.number("to", 0, maximum=9999) or None
    return SearchFilter(category=code, year_from=year_from, year_to=year_to)


def _filter_params(narrowed: SearchFilter) -> dict[str, str | None]:
    return {
        "category": narrowed.category,
        "from": str(narrowed.year_from) if narrowed.year_from else None,
        "to": str(narrowed.year_to) if narrowed.year_to else None,
    }
