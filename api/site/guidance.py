"""Guidance for automated readers: ``/llms.txt`` (the llmstxt.org layout: a title, a summary,
then sections of links), the same as the home page's markdown, and ``/robots.txt``."""

from __future__ import annotations

from typing import Any

from scholargraph.api.site.page import SitePage


def llms_txt(base: str) -> list[str]:
    return [
        "# scholargraph",
        "",
        "> An open scholarly knowledge graph: papers, researchers, institutions and arXiv "
        "categories from arXiv, Semantic Scholar, OpenAlex, ORCID and ROR, where every "
        "author match says how it was made.",
        "",
        "Every page below answers in three forms, chosen by the Accept header: HTML "
        "(text/html), markdown (text/markdown) and JSON (application/json, field names "
        f"described in {base}/openapi.json). Responses carry ETag and Last-Modified; send "
        "them back as If-None-Match / If-Modified-Since to get 304 while nothing changed.",
        "",
        "## Addresses",
        "",
        f"- [A researcher]({base}/researchers/2004394): /researchers/<id>-<name>; the id "
        "alone works and redirects; ids come from search results, not from names. A "
        "merged-away id redirects to the record it was merged into.",
        f"- [A paper]({base}/papers/2301.08658): /papers/<arxiv-id>-<title>; the id alone "
        "works and redirects, with or without vN, in the old /papers/astro-ph/9901001 form "
        "too, or as the DataCite DOI /papers/10.48550/arXiv.2301.08658.",
        f"- [An institution]({base}/institutions): /institutions/<id>-<name>; an id, a ROR "
        "id or a name all resolve to the canonical page.",
        f"- [A category]({base}/categories/cs.DC): /categories/<code>, e.g. cs.DC or hep-th.",
        f"- [Search]({base}/search?q=tensor+parallelism): /search?q=words, or an arXiv id, "
        "DOI, ORCID iD, ROR id or researcher id; kind=paper|researcher|institution narrows.",
        "",
        "## Lists",
        "",
        f"- [Latest papers]({base}/papers): 24 a page, sort=newest|cited, page=N.",
        f"- [Researchers]({base}/researchers): sort=papers|citations|name, page=N.",
        f"- [Institutions]({base}/institutions): sort=researchers|name, page=N.",
        f"- [Categories]({base}/categories): every arXiv category with its papers.",
        "",
        "## Machine interfaces",
        "",
        f"- [OpenAPI]({base}/openapi.json): every JSON representation and its parameters.",
        f"- [GraphQL]({base}/graphql): researcher networks, collaboration paths, same-name "
        "clusters; schema by introspection.",
        f"- [Sitemap]({base}/sitemap.xml): every indexable URL.",
        f"- [Latest papers feed]({base}/feed.atom) (also /feed.rss; per category "
        "/categories/<code>/feed.atom, per researcher /researchers/<id>/feed.atom).",
        "",
        "## Optional",
        "",
        "- New papers are harvested continuously, so the newest submissions can take a "
        "moment to appear. Matching runs newest-first, so older work may not be attached "
        "to a profile yet.",
        "- Author positions are counted only on papers where every author was matched; "
        "alphabetical author lists (common in hep-th and math) are counted apart.",
    ]


def home_markdown(page: SitePage) -> list[str]:
    base = page.data["url"].rstrip("/")
    lines = llms_txt(base)
    lines += ["", "## Latest papers", ""]
    if line := harvest_line(page.data["sync"]):
        lines += [line, ""]
    for paper in page.data["latestPapers"]:
        when = f" ({paper['published']})" if paper.get("published") else ""
        lines.append(f"- [{paper['title']}]({paper['url']}){when}")
    return lines


def harvest_line(sync: dict[str, Any]) -> str:
    """ "Last harvest: 2026-12-01 06:00 UTC · 12 papers waiting for enrichment", or "" before
    the first sync."""
    last, backlog = sync["lastHarvest"], sync["backlog"]
    if last is None and not backlog:
        return ""
    parts = [f"Last harvest: {last[:10]} {last[11:16]} UTC" if last else "No harvest yet"]
    if backlog:
        parts.append(f"{backlog:,} paper{'' if backlog == 1 else 's'} waiting for enrichment")
    else:
        parts.append("every paper enriched")
    return " · ".join(parts)


def robots_txt(base: str) -> str:
    return (
        "User-agent: *\n"
        "Allow: /\n"
        "Disallow: /search\n"
        "Disallow: /graphql\n"
        "\n"
        f"Sitemap: {base}/sitemap.xml\n"
    )
