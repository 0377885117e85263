"""The markdown representation of each page, made from the page's data (as the HTML is).

TeX stays as written (``$x<1$``), which markdown readers with math support render; links
are absolute.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from scholargraph.api.site.page import SitePage
from scholargraph.api.site.shapes import Json


def _escape(text: str | None) -> str:
    return (text or "").replace("[", "\\[").replace("]", "\\]")


def _link(name: str | None, url: str) -> str:
    return f"[{_escape(name)}]({url})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _paper_line(p: Json) -> str:
    bits = [_link(p["title"], p["url"])]
    if p.get("authors"):
        names = ", ".join(_link(a["name"], a["url"]) for a in p["authors"])
        more = p.get("authorCount") or 0
        bits.append(names + (" et al." if more > len(p["authors"]) else ""))
    meta = [x for x in (p.get("published"), p.get("primaryCategory")) if x]
    if p.get("citationCount") is not None:
        meta.append(_plural(p["citationCount"], "citation"))
    if p.get("authorship"):
        a = p["authorship"]
        meta.append(f"author {a['position']} ({a['kind']})")
    if meta:
        bits.append(" · ".join(meta))
    return "- " + " — ".join(bits)


def _pages(listing: Json) -> list[str]:
    links = listing["links"]
    out = [f"Page {listing['page']} of {listing['pages']} ({listing['total']} in all)."]
    moves = [
        (name, links[key])
        for key, name in (("previous", "Previous page"), ("next", "Next page"))
        if links.get(key)
    ]
    if moves:
        out.append(" · ".join(_link(name, url) for name, url in moves))
    return out


def _section(title: str, lines: Iterable[str]) -> list[str]:
    body = list(lines)
    return ["", f"## {title}", "", *body] if body else []


def _researcher(d: Json) -> list[str]:
    out = [f"# {d['name']}", "", f"{_plural(d['paperCount'], 'paper')} here."]
    identity = d["identity"]
    if identity["orcid"]:
        out.append(f"ORCID: {_link(identity['orcid'], 'https://orcid.org/' + identity['orcid'])}")
    if identity["via"]:
        out.append("Identity via " + ", ".join(identity["via"]) + ".")
    out += _section(
        "External ids",
        (f"- {x['key']}" + (f": {x['url']}" if x["url"] else "") for x in identity["externalIds"]),
    )
    positions = d["authorPositions"]
    if positions:
        out += _section(
            "Author positions",
            [
                f"- first: {positions['first']}, middle: {positions['middle']}, "
                f"last: {positions['last']}, solo: {positions['solo']}",
                f"- counted {positions['coverage']}",
                f"- {_plural(positions['alphabetical'], 'paper')} with an alphabetical "
                "author list, counted apart",
            ],
        )
    out += _section(
        "Fields",
        (
            f"- {_link(f['code'] + ' ' + f['name'], f['filterUrl'])}: {f['papers']}"
            for f in d["fields"]
        ),
    )
    cited = d["mostCited"]
    if cited:
        out += _section("Most cited", [cited["coverage"] + ".", *map(_paper_line, cited["papers"])])
    records = d["sameName"]["records"]
    out += _section(
        "Same name",
        [
            "Other records under this name: either other researchers who publish under it, "
            "or the same person where the sources have not merged their records.",
            *(
                f"- {_link(r['researcher']['name'], r['researcher']['url'])}: "
                f"{_plural(r['researcher']['paperCount'], 'paper')}"
                + (
                    f", h {r['researcher']['hIndex']}"
                    if r["researcher"]["hIndex"] is not None
                    else ""
                )
                + f", same person? {round(100 * r['probability'])}%"
                for r in records
            ),
        ]
        if records
        else [],
    )
    out += _section(
        "Coauthors",
        (
            f"- {_link(c['researcher']['name'], c['researcher']['url'])}: "
            f"{_plural(c['jointPapers'], 'joint paper')}"
            for c in d["coauthors"]["items"]
        ),
    )
    papers = d["papers"]
    out += _section("Papers", [*map(_paper_line, papers["items"]), "", *_pages(papers)])
    out += _section(
        "Affiliations",
        (
            f"- {_link(a['institution']['name'], a['institution']['url'])}"
            + (f" {a['firstYear']}–{a['lastYear'] or ''}" if a["firstYear"] else "")
            for a in d["affiliations"]
        ),
    )
    out += _section(
        "Curation history",
        (f"- {e['at'][:10]} {e['kind']} by {e['actor']}: {e['reason']}" for e in d["curation"]),
    )
    out += ["", f"Feeds: {_link('Atom', d['feeds']['atom'])} · {_link('RSS', d['feeds']['rss'])}"]
    return out


def _paper(d: Json) -> list[str]:
    out = [f"# {d['title']}", ""]
    authors = [
        f"{_link(a['name'], a['url'])} ({a['authorship']['position']}, "
        f"{a['authorship']['methodDescription'] or a['authorship']['method'] or 'matched'})"
        for a in d["authors"]
    ]
    if authors:
        out.append("Authors: " + "; ".join(authors))
    dates = [
        f"published {d['published']}" if d["published"] else None,
        f"updated {d['updated']}" if d["updated"] else None,
        _plural(d["versions"], "version") if d["versions"] else None,
    ]
    out.append(" · ".join(x for x in dates if x))
    out.append("Categories: " + ", ".join(_link(c["code"], c["url"]) for c in d["categories"]))
    if d["citationCount"] is not None:
        source = " (" + ", ".join(d["citationSources"]) + ")" if d["citationSources"] else ""
        out.append(f"Citations: {d['citationCount']}{source}")
    out += _section("Abstract", [d["abstract"] or "No abstract."])
    out += _section(
        "Identifiers", (f"- {x['name']}: {x['value']} {x['url']}" for x in d["externalIds"])
    )
    if d["arxiv"]:
        out += [
            "",
            f"{_link('arXiv abstract', d['arxiv']['abs'])} · {_link('PDF', d['arxiv']['pdf'])}",
        ]
    return out


def _institution(d: Json) -> list[str]:
    out = [f"# {d['name']}", ""]
    facts = [
        ("ROR", d["rorUrl"]),
        ("Country", d["countryCode"]),
        ("City", d["city"]),
        ("Type", ", ".join(d["types"])),
        ("Acronyms", ", ".join(d["acronyms"])),
        ("Also known as", "; ".join(d["aliases"])),
    ]
    out += [f"- {name}: {value}" for name, value in facts if value]
    out += _section("Part of", (f"- {_link(p['name'], p['url'])}" for p in d["parents"]))
    out += _section("Parts", (f"- {_link(c['name'], c['url'])}" for c in d["children"]))
    members = d["researchers"]
    out += _section(
        "Researchers",
        [
            *(
                f"- {_link(r['name'], r['url'])}: {_plural(r['paperCount'], 'paper')}"
                for r in members["items"]
            ),
            "",
            *_pages(members),
        ],
    )
    out += _section("Papers", [*map(_paper_line, d["papers"]["items"]), "", *_pages(d["papers"])])
    return out


def _category(d: Json) -> list[str]:
    out = [
        f"# {d['code']}: {d['name']}",
        "",
        f"{d['archive']['name']} · {d['group']}",
        f"{_plural(d['paperCount'], 'paper')} ({d['primaryPaperCount']} as primary category).",
    ]
    out += _section("Papers", [*map(_paper_line, d["papers"]["items"]), "", *_pages(d["papers"])])
    return out


def _categories(d: Json) -> list[str]:
    out = ["# arXiv categories"]
    for group in d["groups"]:
        out += ["", f"## {group['name']}"]
        for archive in group["archives"]:
            out += ["", f"### {archive['name']}", ""]
            out += [
                f"- {_link(c['code'], c['url'])} {c['name']}: {c['papers']}"
                for c in archive["categories"]
            ]
    return out


def _papers(d: Json) -> list[str]:
    return ["# Papers", "", *map(_paper_line, d["papers"]["items"]), "", *_pages(d["papers"])]


def _index(title: str, line: Callable[[Json], str]) -> Callable[[Json], list[str]]:
    def render(d: Json) -> list[str]:
        return [
            f"# {title}",
            "",
            f"Sorted by {d['sort']}.",
            "",
            *map(line, d["items"]),
            "",
            *_pages(d),
        ]

    return render


def _search(d: Json) -> list[str]:
    out = [f"# Search: {d['query']}" if d["query"] else "# Search", ""]
    if not d["query"]:
        return [*out, "Ask with ?q=words (or an arXiv id, DOI, ORCID iD, ROR id or researcher id)."]
    out.append(f"{d['total']} results.")
    out += [""] + [
        f"- {h['kind']}: {_link(h['item'].get('title') or h['item'].get('name'), h['item']['url'])}"
        for h in d["items"]
    ]
    if d["next"]:
        out += ["", _link("Next results", d["next"])]
    return out


def _not_found(d: Json) -> list[str]:
    out = ["# Not found", "", d["message"], "", d["note"]]
    out += _section(
        "Where to look next",
        (
            f"- {_link(s.get('title') or s.get('name') or s.get('code'), s['url'])} ({s['why']})"
            for s in d["suggestions"]
        ),
    )
    return [*out, "", f"Search: {d['search']}?q=words"]


def _error(d: Json) -> list[str]:
    return [f"# {d['title']}", "", d["message"]]


_RENDERERS: dict[str, Callable[[Json], list[str]]] = {
    "researcher": _researcher,
    "paper": _paper,
    "institution": _institution,
    "category": _category,
    "categories": _categories,
    "papers": _papers,
    "researchers": _index(
        "Researchers",
        lambda r: f"- {_link(r['name'], r['url'])}: {_plural(r['paperCount'], 'paper')}",
    ),
    "institutions": _index(
        "Institutions",
        lambda i: f"- {_link(i['name'], i['url'])}: {_plural(i['researchers'], 'researcher')}",
    ),
    "search": _search,
    "notFound": _not_found,
    "error": _error,
}


def render(page: SitePage, home_guidance: Callable[[SitePage], list[str]]) -> str:
    """The page as markdown; the home page is the site's guidance (as ``/llms.txt``) with
    the latest papers."""
    lines = home_guidance(page) if page.kind == "home" else _RENDERERS[page.kind](page.data)
    return "\n".join(lines).strip() + "\n"
