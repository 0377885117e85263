"""Atom and RSS feeds of the latest papers: the whole site, a category, a researcher."""

from __future__ import annotations

import feedparser
import pytest

from tests.api.graphdata import YOU
from tests.site.conftest import Client
from tests.site.markup import read
from tests.site.sitedata import PROLIFIC

ATP = "http://test/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models"


async def parsed(client: Client, path: str, media_type: str) -> feedparser.FeedParserDict:
    response = await client.get(path, "*/*")
    assert response.status_code == 200, path
    assert response.headers["content-type"] == f"{media_type}; charset=utf-8"
    feed = feedparser.parse(response.text)
    assert not feed.bozo, feed.bozo_exception
    return feed


@pytest.mark.parametrize(("fmt", "media_type", "version"),
                         [("atom", "application/atom+xml", "atom10"),
                          ("rss", "application/rss+xml", "rss20")])  # fmt: skip
async def test_the_site_feed_has_the_latest_papers(
    client: Client, fmt: str, media_type: str, version: str
) -> None:
    feed = await parsed(client, f"/feed.{fmt}", media_type)
    assert feed.version == version
    assert feed.feed.title == "Latest papers in scholargraph"
    entries = feed.entries
    assert len(entries) == 42
    assert entries[0].title == "Bounds for x<1 and α-stable laws"  # newest, TeX as text
    dates = [e.published_parsed for e in entries]
    assert dates == sorted(dates, reverse=True)
    atp = next(e for e in entries if e.link == ATP)
    assert atp.title == "ATP: Adaptive Tensor Parallelism for Foundation Models"
    if fmt == "atom":
        assert [a.name for a in atp.authors] == ["Shenggan Cheng", "Ziming Liu", "Jiangsu Du",
                                                 "Yang You"]  # fmt: skip
        assert atp.id == ATP
        assert atp.updated.startswith("2023-03-02")
    else:
        assert atp.id == ATP  # the guid
    assert [t.term for t in atp.tags] == ["cs.DC"]
    assert atp.summary.startswith("We study")


async def test_a_category_feed(client: Client) -> None:
    feed = await parsed(client, "/categories/math.NA/feed.atom", "application/atom+xml")
    assert feed.feed.title == "Latest papers in math.NA"
    assert len(feed.entries) == 16  # 15 paged papers and one of the test graph's
    assert all("math.NA" in [t.term for t in e.tags] for e in feed.entries)


async def test_a_researcher_feed(client: Client) -> None:
    feed = await parsed(client, f"/researchers/{YOU}/feed.rss", "application/rss+xml")
    assert feed.feed.title == "Latest papers by Yang You"
    assert feed.feed.link == "http://test/researchers/2004396-yang-you"
    assert len(feed.entries) == 6
    many = await parsed(client, f"/researchers/{PROLIFIC}/feed.atom", "application/atom+xml")
    assert len(many.entries) == 30


async def test_pages_announce_their_feeds(client: Client) -> None:
    page = read((await client.get(f"/researchers/{YOU}-yang-you")).text)
    feeds = {x["type"]: x["href"] for x in page.links if x.get("rel") == "alternate"}
    assert feeds == {
        "application/atom+xml": f"http://test/researchers/{YOU}/feed.atom",
        "application/rss+xml": f"http://test/researchers/{YOU}/feed.rss",
    }


async def test_unknown_feeds(client: Client) -> None:
    assert (await client.get("/feed.json")).status_code == 404
    assert (await client.get("/researchers/77/feed.atom")).status_code == 404
    assert (await client.get("/categories/cs.XX/feed.atom")).status_code == 404
