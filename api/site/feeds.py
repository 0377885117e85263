"""Atom 1.0 and RSS 2.0 feeds of the latest papers: the whole site, one category, one
researcher (following someone needs no account). Each holds the :data:`SIZE` newest papers,
read as the pages' paper lists are, with their first authors; TeX in titles and abstracts is
read out as plain text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from email.utils import format_datetime
from typing import Literal
from xml.sax.saxutils import escape, quoteattr

from scholargraph.api.site import shapes
from scholargraph.api.site.shapes import Links
from scholargraph.api.site.tex import to_plain
from scholargraph.graph.db import Database
from scholargraph.graph.repo import papers
from scholargraph.graph.repo.models import Author, Paper
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.papers import PaperFilter

SIZE = 50
AUTHORS = 10
Format = Literal["atom", "rss"]
MEDIA_TYPES: dict[Format, str] = {
    "atom": "application/atom+xml; charset=utf-8",
    "rss": "application/rss+xml; charset=utf-8",
}


@dataclass(frozen=True, slots=True)
class FeedEntry:
    paper: Paper
    authors: Sequence[Author]


@dataclass(frozen=True, slots=True)
class FeedInfo:
    title: str
    page: str  # the page the feed follows, absolute
    self_url: str  # the feed, absolute
    description: str


async def entries(db: Database, paper_filter: PaperFilter) -> list[FeedEntry]:
    page = (await papers.paper_pages(db, [paper_filter], "newest", PageRequest(SIZE)))[0]
    keys = [p.paper.key for p in page.nodes]
    authors = await papers.author_pages(db, keys, PageRequest(AUTHORS), brief=True) if keys else {}
    return [
        FeedEntry(p.paper, authors[p.paper.key].nodes if p.paper.key in authors else [])
        for p in page.nodes
    ]


def _moment(day: date | None, fallback: datetime) -> datetime:
    return datetime.combine(day, time(), tzinfo=UTC) if day else fallback


def atom(info: FeedInfo, found: Sequence[FeedEntry], links: Links, now: datetime) -> str:
    latest = max((_moment(e.paper.updated or e.paper.published, now) for e in found), default=now)
    items = "".join(_atom_entry(e, links, now) for e in found)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f"<title>{escape(info.title)}</title>\n"
        f"<subtitle>{escape(info.description)}</subtitle>\n"
        f"<id>{escape(info.self_url)}</id>\n"
        f'<link rel="self" type="application/atom+xml" href={quoteattr(info.self_url)}/>\n'
        f'<link rel="alternate" type="text/html" href={quoteattr(info.page)}/>\n'
        f"<updated>{latest.isoformat()}</updated>\n"
        "<author><name>scholargraph</name></author>\n"
        f"{items}</feed>\n"
    )


def _atom_entry(entry: FeedEntry, links: Links, now: datetime) -> str:
    paper = entry.paper
    url = shapes.paper(paper, links)["url"]
    authors = "".join(
        f"<author><name>{escape(a.researcher.name)}</name>"
        f"<uri>{escape(shapes.researcher(a.researcher, links)['url'])}</uri></author>"
        for a in entry.authors
    )
    categories = "".join(
        f"<category term={quoteattr(t.code)} label={quoteattr(shapes.category_name(t.code))}/>"
        for t in paper.categories
    )
    published = (
        f"<published>{_moment(paper.published, now).isoformat()}</published>"
        if paper.published
        else ""
    )
    summary = f"<summary>{escape(to_plain(paper.abstract))}</summary>" if paper.abstract else ""
    return (
        f"<entry><title>{escape(to_plain(paper.title))}</title><id>{escape(url)}</id>"
        f'<link rel="alternate" type="text/html" href={quoteattr(url)}/>'
        f"<updated>{_moment(paper.updated or paper.published, now).isoformat()}</updated>"
        f"{published}{authors}{categories}{summary}</entry>\n"
    )


def rss(info: FeedInfo, found: Sequence[FeedEntry], links: Links, now: datetime) -> str:
    latest = max((_moment(e.paper.published, now) for e in found), default=now)
    items = "".join(_rss_item(e, links, now) for e in found)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>\n'
        f"<title>{escape(info.title)}</title>\n"
        f"<link>{escape(info.page)}</link>\n"
        f"<description>{escape(info.description)}</description>\n"
        f'<atom:link rel="self" type="application/rss+xml" href={quoteattr(info.self_url)}/>\n'
        f"<lastBuildDate>{format_datetime(latest)}</lastBuildDate>\n"
        f"{items}</channel>\n</rss>\n"
    )


def _rss_item(entry: FeedEntry, links: Links, now: datetime) -> str:
    paper = entry.paper
    url = shapes.paper(paper, links)["url"]
    creators = "".join(
        f"<dc:creator>{escape(a.researcher.name)}</dc:creator>" for a in entry.authors
    )
    categories = "".join(f"<category>{escape(t.code)}</category>" for t in paper.categories)
    published = (
        f"<pubDate>{format_datetime(_moment(paper.published, now))}</pubDate>"
        if paper.published
        else ""
    )
    description = (
        f"<description>{escape(to_plain(paper.abstract))}</description>" if paper.abstract else ""
    )
    return (
        f"<item><title>{escape(to_plain(paper.title))}</title><link>{escape(url)}</link>"
        f'<guid isPermaLink="true">{escape(url)}</guid>{published}{creators}{categories}'
        f"{description}</item>\n"
    )
