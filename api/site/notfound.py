"""The page for an address that names nothing: status 404, a search box, and where to look
next — the entities whose ids are closest to the one asked for, and those whose names match
the words of the address."""

from __future__ import annotations

import asyncio
import difflib
import re

from scholargraph.api.site import jsonld, shapes
from scholargraph.api.site.page import Missing, SitePage, SiteRequest
from scholargraph.api.site.shapes import Json
from scholargraph.graph import ids, taxonomy
from scholargraph.graph.errors import BadInput
from scholargraph.graph.repo import search
from scholargraph.graph.repo import site as site_repo
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.search import SearchKind

NAMES = 5
_LEADING_ID = re.compile(r"^(\d+)")
_WORD = re.compile(r"[A-Za-z][A-Za-z]+")
_KINDS: dict[str, SearchKind] = {
    "researcher": "researcher",
    "paper": "paper",
    "institution": "institution",
}


def _words(key: str) -> str:
    """The words of an address part, e.g. ``2004399-ziming-lu`` → ``ziming lu``."""
    return " ".join(_WORD.findall(key.replace("-", " ").replace("_", " ")))[:100]


async def _closest(site: SiteRequest, kind: str, key: str) -> list[Json]:
    links = site.links
    if kind == "researcher" and (m := _LEADING_ID.match(key)):
        found = await site_repo.nearest_researchers(site.db, int(m.group(1)))
        return [{**shapes.researcher(r, links), "why": "a nearby id"} for r in found]
    if kind == "institution" and (m := _LEADING_ID.match(key)):
        places = await site_repo.nearest_institutions(site.db, int(m.group(1)))
        return [{**shapes.institution(i, links), "why": "a nearby id"} for i in places]
    if kind == "paper":
        try:
            arxiv_id = ids.normalize_arxiv_id(key)
        except BadInput:
            return []
        near = await site_repo.nearest_papers(site.db, arxiv_id)
        return [{**shapes.paper(p, links), "why": "a nearby arXiv id"} for p in near]
    if kind == "category":
        codes = [c.code for c in taxonomy.all_categories()]
        close = difflib.get_close_matches(key, codes, n=6, cutoff=0.5)
        close += [c for c in codes if c.lower() == key.lower() and c not in close]
        return [{**shapes.category(code, links), "why": "a similar code"} for code in close]
    return []


async def _named(site: SiteRequest, kind: str, key: str) -> list[Json]:
    words = _words(key)
    if len(words) < 2 or kind == "category":
        return []
    wanted = [_KINDS[kind]] if kind in _KINDS else list(search.ALL_KINDS)
    try:
        page = await search.search(site.db, words, PageRequest(NAMES), wanted)
    except BadInput:
        return []
    found = []
    for edge in page.edges:
        item = shapes.search_hit(edge.node, site.links)
        found.append({**item["item"], "kind": item["kind"], "why": f"matches “{words}”"})
    return found


async def not_found_page(site: SiteRequest, missing: Missing) -> SitePage:
    closest, named = await asyncio.gather(
        _closest(site, missing.kind, missing.key), _named(site, missing.kind, missing.key)
    )
    links = site.links
    path = site.request.url.path
    seen: set[str] = set()
    suggestions = []
    for item in [*closest, *named]:
        if item["url"] not in seen:
            seen.add(item["url"])
            suggestions.append(item)
    data: Json = {
        "kind": "notFound",
        "url": links.url(path),
        "message": missing.message,
        "looked": {"kind": missing.kind, "key": missing.key},
        "search": links.url("/search"),
        "query": _words(missing.key),
        "suggestions": suggestions,
        "note": "New papers are harvested continuously, so the newest submissions can take "
        "a moment to appear.",
    }
    return SitePage(
        kind="notFound",
        title="Not found",
        description=missing.message,
        canonical=links.url(path),
        data=data,
        breadcrumbs=[("Home", links.url("/")), ("Not found", links.url(path))],
        jsonld=[jsonld.collection("Not found", links.url(path), "WebPage")],
        status=404,
        indexable=False,
    )
