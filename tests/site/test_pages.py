"""Every page type, as a person sees it: what the issue lists for each, in valid and
accessible HTML (lang, title, description, canonical, Open Graph, one h1 and headings in
order, labelled controls, no inline script, TeX as MathML)."""

from __future__ import annotations

import itertools
import re

from tests.api.graphdata import BERKELEY, NUS, NUS_SOC, YOU, ZIMING, ZIMING_MIT, ZIMING_TJU
from tests.site.conftest import Client
from tests.site.markup import Markup, read
from tests.site.sitedata import PROLIFIC, TEX_PAPER

ZIMING_PAGE = "/researchers/2004394-ziming-liu"
ATP_PAGE = "/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models"
TEX_PAGE = f"/papers/{TEX_PAPER}-bounds-for-x-1-and-alpha-stable-laws"
NUS_PAGE = "/institutions/3-national-university-of-singapore"


def well_formed(html: str, canonical: str) -> Markup:
    page = read(html)
    assert page.lang == "en"
    assert page.title.strip()
    assert page.meta["viewport"].startswith("width=device-width")
    assert page.meta["description"].strip()
    assert page.canonical == canonical
    assert page.meta["og:url"] == canonical
    assert page.meta["og:title"] and page.meta["og:description"] and page.meta["og:type"]
    levels = [level for level, _ in page.headings]
    assert levels.count(1) == 1 and levels[0] == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels)), page.headings
    for script in page.scripts:  # a strict CSP runs no inline script
        assert script.get("src") or script.get("type") == "application/ld+json", script
    labelled = set(page.labels) | {c["id"] for c in page.controls if c.get("aria-label")}
    for control in page.controls:
        assert control.get("id") in labelled, control
    assert all(text for _, text in page.anchors), "a link without text"
    assert {"main", "header", "footer", "nav"} <= set(page.tags)
    assert page.jsonld, "no JSON-LD"
    return page


async def html(client: Client, path: str) -> str:
    response = await client.get(path)
    assert response.status_code == 200, (path, response.status_code, response.text[:300])
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    return response.text


async def test_the_researcher_page_shows_what_the_reference_page_shows(client: Client) -> None:
    text = await html(client, ZIMING_PAGE)
    page = well_formed(text, f"http://test{ZIMING_PAGE}")
    assert page.headings[0] == (1, "Ziming Liu")
    sections = [name for level, name in page.headings if level == 2]
    for section in ("Identity", "Author position", "Fields", "Most cited", "Same name",
                    "Coauthor network", "Papers", "Affiliations", "Curation history"):  # fmt: skip
        assert section in sections
    assert "2 papers here" in page.text
    assert "https://orcid.org/0009-0009-3355-6770" in page.hrefs()
    assert "Identity via ORCID, OpenAlex, Semantic Scholar." in page.text
    assert "https://www.semanticscholar.org/author/2116463213" in page.hrefs()
    assert "https://openalex.org/A5047541380" in page.hrefs()
    assert "across the 2 of 2 papers where every author was matched" in page.text
    # fields are filters of the paper list
    assert f"http://test{ZIMING_PAGE}?category=cs.DC" in page.hrefs()
    assert "14 citations across the 2 of 2 papers we have counts for" in page.text
    # the same-name records, each with its score and a side-by-side link
    for other in (ZIMING_MIT, ZIMING_TJU):
        assert f"http://test/explorer/researcher/{ZIMING}/same-name?with={other}" in page.hrefs()
    assert "42" in page.text and "100%" in page.text
    # the network mount the explorer bundle fills, with the coauthors as plain links
    mount = page.elements["network"]
    assert mount["tag"] == "div" and mount["data-researcher"] == str(ZIMING)
    assert f"http://test/researchers/{YOU}-yang-you" in page.hrefs()
    assert "http://test/institutions/3-national-university-of-singapore" in page.hrefs()
    assert "same ORCID on the papers" in page.text
    assert "http://test/researchers/2004394/feed.atom" in page.hrefs()
    # TeX in a listed title is MathML, never the raw dollars
    assert "<math" in text and "$x&lt;1$" not in text and "$x<1$" not in text


async def test_the_network_script_is_loaded_only_when_the_bundle_is_built(
    client: Client,
) -> None:
    page = read(await html(client, ZIMING_PAGE))
    assert not [s for s in page.scripts if s.get("src")]
    dist = client.app.state.site.web_dist
    dist.mkdir(parents=True)
    (dist / "explorer.js").write_text("export {};")
    page = read(await html(client, ZIMING_PAGE))
    modules = [s for s in page.scripts if s.get("src")]
    assert modules == [{"type": "module", "src": "http://test/explorer/explorer.js", "body": ""}]


async def test_the_paper_list_is_paged_sorted_and_filtered(client: Client) -> None:
    path = f"/researchers/{PROLIFIC}-petra-prolific"

    async def titles(query: str) -> list[str]:
        data = await client.json(path + query)
        return [p["title"] for p in data["papers"]["items"]]

    first = read(await html(client, path))
    assert "Page 1 of 2, 30 papers in all." in first.text
    assert f"http://test{path}?page=2" in first.hrefs()
    assert (f"http://test{path}?page=2", "Next page of papers") in first.anchors
    listed = await titles("")
    assert len(listed) == 24 and listed[0] == "Paged paper 30"  # newest first
    assert await titles("?page=2") == [f"Paged paper {n}" for n in range(6, 0, -1)]
    second = read(await html(client, f"{path}?page=2"))
    assert second.canonical == f"http://test{path}?page=2"
    assert (f"http://test{path}", "Previous page of papers") in second.anchors
    cited = read(await html(client, f"{path}?sort=cited"))
    assert f"http://test{path}?sort=cited&page=2" in cited.hrefs()
    assert (await titles("?sort=cited&page=2"))[0] == "Paged paper 6"
    only = await titles("?category=math.NA")
    assert len(only) == 15 and all(int(t.split()[-1]) % 2 for t in only)
    filtered = read(await html(client, f"{path}?category=math.NA"))
    assert filtered.elements["paper-category"]["tag"] == "select"


async def test_the_paper_page(client: Client) -> None:
    page = well_formed(await html(client, ATP_PAGE), f"http://test{ATP_PAGE}")
    assert page.headings[0][1] == "ATP: Adaptive Tensor Parallelism for Foundation Models"
    authors = [t for h, t in page.anchors if "/researchers/" in h]
    assert authors[:4] == ["Shenggan Cheng", "Ziming Liu", "Jiangsu Du", "Yang You"]
    assert "matched by same ORCID iD" in page.text
    assert "matched by same Semantic Scholar author id" in page.text
    assert "2023-01-20" in page.text and "last updated 2023-03-02" in page.text
    assert "2 versions" in page.text
    assert "https://doi.org/10.48550/arxiv.2301.08658" in page.hrefs()
    assert "https://www.semanticscholar.org/paper/a3f1" in page.hrefs()
    assert "12, as counted by Semantic Scholar" in page.text
    assert "https://arxiv.org/abs/2301.08658" in page.hrefs()
    assert "https://arxiv.org/pdf/2301.08658" in page.hrefs()
    assert "http://test/categories/cs.DC" in page.hrefs()
    assert "4 of 4 author slots matched" in page.text


async def test_tex_in_titles_and_abstracts_is_mathml(client: Client) -> None:
    text = await html(client, TEX_PAGE)
    page = well_formed(text, f"http://test{TEX_PAGE}")
    assert page.title.startswith("Bounds for x<1 and α-stable laws")
    assert "$" not in page.text
    assert text.count("<math") >= 4  # two in the title, two in the abstract
    assert "<mo>&lt;</mo>" in text and "<mi>α</mi>" in text


async def test_the_institution_page(client: Client) -> None:
    page = well_formed(await html(client, NUS_PAGE), f"http://test{NUS_PAGE}")
    assert page.headings[0] == (1, "National University of Singapore")
    assert "https://ror.org/01tgyzw49" in page.hrefs()
    assert "NUS" in page.text and "SG" in page.text and "education" in page.text
    assert f"http://test/institutions/{NUS_SOC}-nus-school-of-computing" in page.hrefs()
    people = [t for h, t in page.anchors if "/researchers/" in h]
    assert people[:2] == ["Yang You", "Ziming Liu"]  # most papers first
    assert (
        "http://test/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models"
        in (page.hrefs())
    )
    part = read(await html(client, f"/institutions/{NUS_SOC}-nus-school-of-computing"))
    assert f"http://test/institutions/{NUS}-national-university-of-singapore" in part.hrefs()


async def test_the_category_page(client: Client) -> None:
    page = well_formed(await html(client, "/categories/cs.DC"), "http://test/categories/cs.DC")
    assert page.headings[0] == (1, "cs.DC: Distributed, Parallel, and Cluster Computing")
    assert "Computer Science" in page.text
    assert "19 papers" in page.text
    assert "http://test/categories/cs.DC/feed.atom" in page.hrefs()
    assert "Page 1 of 1, 19 papers in all." in page.text


async def test_the_categories_index(client: Client) -> None:
    page = well_formed(await html(client, "/categories"), "http://test/categories")
    assert (2, "Computer Science") in page.headings
    assert "http://test/categories/cs.DC" in page.hrefs()
    assert "http://test/categories/cs.NA" not in page.hrefs()  # listed as math.NA


async def test_the_researcher_index_is_paged_and_sortable(client: Client) -> None:
    page = well_formed(await html(client, "/researchers"), "http://test/researchers")
    names = [t for h, t in page.anchors if re.search(r"/researchers/\d", h)]
    assert names[0] == "Ziming Liu"  # 42 papers
    assert "Petra Prolific" in names[:3]
    by_name = read(await html(client, "/researchers?sort=name"))
    listed = [t for h, t in by_name.anchors if re.search(r"/researchers/\d", h)]
    assert listed == sorted(listed)
    assert "Z. Liu" not in listed  # merged away
    by_citations = await client.json("/researchers?sort=citations")
    counts = [r["citationCount"] for r in by_citations["items"]]
    assert counts == sorted(counts, reverse=True) and by_citations["sort"] == "citations"
    missing = await client.get("/researchers?page=9")
    assert missing.status_code == 404


async def test_the_institution_index(client: Client) -> None:
    page = well_formed(await html(client, "/institutions"), "http://test/institutions")
    names = [t for h, t in page.anchors if re.search(r"/institutions/\d", h)]
    assert names[0] == "University of California, Berkeley"  # four researchers
    by_name = read(await html(client, "/institutions?sort=name"))
    listed = [t for h, t in by_name.anchors if re.search(r"/institutions/\d", h)]
    assert listed == sorted(listed)
    assert f"http://test/institutions/{BERKELEY}-university-of-california,-berkeley" in (
        page.hrefs()
    )


async def test_search(client: Client) -> None:
    page = well_formed(
        await html(client, "/search?q=tensor+parallelism"),
        "http://test/search?q=tensor+parallelism",
    )
    assert page.meta["robots"].startswith("noindex")
    assert f"http://test{ATP_PAGE}" in page.hrefs()
    people = read(await html(client, "/search?q=ziming&kind=researcher"))
    assert [t for h, t in people.anchors if "/researchers/2" in h or "/researchers/3" in h]
    assert not [h for h in people.hrefs() if "/papers/2" in h]
    by_id = read(await html(client, "/search?q=0009-0009-3355-6770"))
    assert f"http://test{ZIMING_PAGE}" in by_id.hrefs()
    empty = well_formed(await html(client, "/search"), "http://test/search")
    assert "arXiv id, DOI, ORCID iD" in empty.text


async def test_the_home_page(client: Client) -> None:
    page = well_formed(await html(client, "/"), "http://test/")
    assert page.elements["home-search"]["name"] == "q"
    latest = [h for h in page.hrefs() if "/papers/" in h]
    assert latest[0] == f"http://test{TEX_PAGE}"  # the newest paper first
    for path in ("/researchers", "/institutions", "/categories", "/llms.txt", "/openapi.json"):
        assert f"http://test{path}" in page.hrefs()
    assert page.of_type("WebSite")[0]["potentialAction"]["@type"] == "SearchAction"
    papers = well_formed(await html(client, "/papers"), "http://test/papers")
    assert "Page 1 of 2" in papers.text


async def test_a_page_is_usable_without_the_explorer(client: Client) -> None:
    """The CSS is served from our origin, and the explorer link goes to its own path."""
    css = await client.get("/static/site.css")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]
    page = read(await html(client, ZIMING_PAGE))
    stylesheets = [x["href"] for x in page.links if x.get("rel") == "stylesheet"]
    assert stylesheets == ["http://test/static/site.css"]
    assert f"http://test/explorer/researcher/{ZIMING}" in page.hrefs()
