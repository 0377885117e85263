"""``/sitemap.xml``: a sitemap index (sitemaps.org 0.9) over sitemaps of at most 50,000 URLs.

One sitemap lists the site's own pages (home, indexes, categories with papers); the
researchers, papers and institutions are cut into chunks in key order, each named by the key
just before it (``/sitemaps/papers.xml?after=2301.08658``). A chunk is streamed as it is read,
:data:`SLICE` entities a statement, so a sitemap of 50,000 URLs (and an index over a million)
holds one slice in memory at a time. Every entry of the index has the graph's last write as
its ``lastmod``; a paper's URL has the date of its latest version.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from xml.sax.saxutils import escape

from scholargraph.api.site.addresses import (
    category_path,
    institution_path,
    paper_path,
    with_query,
)
from scholargraph.api.site.shapes import Links
from scholargraph.graph import taxonomy
from scholargraph.graph.db import Database
from scholargraph.graph.repo import entities
from scholargraph.graph.repo import site as site_repo
from scholargraph.graph.repo.models import Institution, Paper
from scholargraph.graph.repo.site import SitemapEntry, SitemapKind

CHUNK = 50_000
SLICE = 5_000
NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"
MEDIA_TYPE = "application/xml; charset=utf-8"
_HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NAMESPACE}">\n'
_TAIL = "</urlset>\n"


def _url(loc: str, lastmod: str | None = None) -> str:
    modified = f"<lastmod>{lastmod}</lastmod>" if lastmod else ""
    return f"<url><loc>{escape(loc)}</loc>{modified}</url>\n"


async def index(db: Database, links: Links, changed_at: datetime | None, chunk: int = CHUNK) -> str:
    """The sitemap index: the site's pages, then each chunk of each kind."""
    lastmod = f"<lastmod>{changed_at.isoformat()}</lastmod>" if changed_at else ""
    locations = [links.url("/sitemaps/pages.xml")]
    for kind in site_repo.SITEMAP_KINDS:
        cut = await site_repo.sitemap_chunks(db, kind, chunk)
        locations += [
            links.url(with_query(f"/sitemaps/{kind}.xml", after=None if a is None else str(a)))
            for a in cut.afters
        ]
    entries = "".join(
        f"<sitemap><loc>{escape(loc)}</loc>{lastmod}</sitemap>\n" for loc in locations
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{NAMESPACE}">\n'
        f"{entries}</sitemapindex>\n"
    )


async def pages(db: Database, links: Links) -> str:
    """The site's own pages, and every category that has papers."""
    fixed = ["/", "/papers", "/researchers", "/institutions", "/categories"]
    listed = [c.code for c in taxonomy.all_categories() if taxonomy.canonical(c.code) == c.code]
    counts = await entities.category_counts(db, listed)
    codes = [code for code in listed if counts.get(code) and counts[code].papers]
    urls = [*fixed, *(category_path(code) for code in codes)]
    return _HEAD + "".join(_url(links.url(path)) for path in urls) + _TAIL


def _location(kind: SitemapKind, entry: SitemapEntry) -> str:
    if kind == "papers":
        return paper_path(Paper(key=str(entry.key), title=entry.name, arxiv_id=None))
    if kind == "institutions":
        return institution_path(Institution(id=int(entry.key), slug=entry.name, name=""))
    slug = entry.name
    return f"/researchers/{entry.key}-{slug}" if slug else f"/researchers/{entry.key}"


def parse_after(kind: SitemapKind, text: str | None) -> int | str | None:
    if text is None or text == "":
        return None
    return text if kind == "papers" else int(text)


async def chunk(
    db: Database,
    links: Links,
    kind: SitemapKind,
    after: int | str | None,
    size: int = CHUNK,
    slice_size: int = SLICE,
) -> AsyncIterator[bytes]:
    """The chunk of ``size`` URLs after the key ``after``, streamed slice by slice."""
    yield _HEAD.encode()
    left = size
    while left > 0:
        wanted = min(slice_size, left)
        entries = await site_repo.sitemap_slice(db, kind, after, wanted)
        yield "".join(
            _url(links.url(_location(kind, e)), e.modified.isoformat() if e.modified else None)
            for e in entries
        ).encode()
        left -= len(entries)
        if len(entries) < wanted:
            break
        after = entries[-1].key
    yield _TAIL.encode()
