"""/sitemap.xml is a sitemap index over chunks; every sitemap validates against the
sitemaps.org XSDs; a chunk is streamed a slice (one statement) at a time; every URL listed
answers 200 at its canonical address."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree

import xmlschema

from tests.site.conftest import Client
from tests.site.markup import read
from tests.site.sitedata import PROLIFIC_PAPERS

HERE = Path(__file__).parent
SITEMAP = xmlschema.XMLSchema(HERE / "sitemap.xsd")
SITEINDEX = xmlschema.XMLSchema(HERE / "siteindex.xsd")
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
CHUNK = 7
SLICE = 3


async def fetch_all(client: Client) -> tuple[list[str], dict[str, list[ElementTree.Element]]]:
    index = await client.get("/sitemap.xml", "*/*")
    assert index.status_code == 200
    assert index.headers["content-type"].startswith("application/xml")
    SITEINDEX.validate(index.text)
    root = ElementTree.fromstring(index.text)
    locations = [e.findtext("s:loc", namespaces=NS) or "" for e in root.findall("s:sitemap", NS)]
    assert all(e.findtext("s:lastmod", namespaces=NS) for e in root.findall("s:sitemap", NS))
    chunks = {}
    for location in locations:
        parts = urlsplit(location)
        response = await client.get(parts.path + (f"?{parts.query}" if parts.query else ""), "*/*")
        assert response.status_code == 200, location
        SITEMAP.validate(response.text)
        chunks[location] = ElementTree.fromstring(response.text).findall("s:url", NS)
    return locations, chunks


async def test_the_index_cuts_every_kind_into_chunks(client: Client) -> None:
    client.app.state.site.sitemap_chunk = CHUNK
    client.app.state.site.sitemap_slice = SLICE
    locations, chunks = await fetch_all(client)
    assert locations[0] == "http://test/sitemaps/pages.xml"
    papers = [loc for loc in locations if "/sitemaps/papers.xml" in loc]
    total_papers = 11 + PROLIFIC_PAPERS + 1
    assert len(papers) == -(-total_papers // CHUNK)
    assert all(0 < len(urls) <= CHUNK for loc, urls in chunks.items() if "pages" not in loc)
    listed = [u.findtext("s:loc", namespaces=NS) for urls in chunks.values() for u in urls]
    assert len(listed) == len(set(listed))
    paper_urls = [u for loc in papers for u in chunks[loc]]
    assert len(paper_urls) == total_papers
    assert all(u.findtext("s:lastmod", namespaces=NS) for u in paper_urls)
    assert "http://test/researchers/3000009-z-liu" not in listed  # merged away
    assert "http://test/researchers/2004394-ziming-liu" in listed
    assert "http://test/papers/astro-ph/9901001-dust-in-the-local-group" in listed
    assert "http://test/categories/cs.DC" in listed
    assert "http://test/categories/hep-th" not in listed  # no papers


async def test_a_chunk_is_read_a_slice_at_a_time(client: Client) -> None:
    client.app.state.site.sitemap_chunk = CHUNK
    client.app.state.site.sitemap_slice = SLICE
    client.statements.clear()
    response = await client.get("/sitemaps/papers.xml", "*/*")
    assert len(ElementTree.fromstring(response.text).findall("s:url", NS)) == CHUNK
    assert client.page_statements().count("read_site.sitemap_papers") == -(-CHUNK // SLICE)


async def test_every_listed_url_is_a_canonical_page(client: Client) -> None:
    client.app.state.site.sitemap_chunk = 50
    _, chunks = await fetch_all(client)
    for urls in chunks.values():
        for url in urls:
            location = url.findtext("s:loc", namespaces=NS) or ""
            response = await client.http.get(location, headers={"accept": "text/html"})
            assert response.status_code == 200, location
            assert read(response.text).canonical == location


async def test_the_default_chunk_is_the_protocols_limit(client: Client) -> None:
    assert client.app.state.site.sitemap_chunk == 50_000
    locations, _ = await fetch_all(client)
    assert len(locations) == 4  # the pages, and one chunk of each kind
