"""schema.org JSON-LD on every page: it parses, and carries what search engines read."""

from __future__ import annotations

import pytest

from tests.site.conftest import Client
from tests.site.markup import read

ZIMING_PAGE = "http://test/researchers/2004394-ziming-liu"
ATP = "http://test/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models"


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/papers",
        "/researchers",
        "/institutions",
        "/categories",
        "/categories/cs.DC",
        "/search?q=ziming",
        "/researchers/2004394-ziming-liu",
        "/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models",
        "/institutions/3-national-university-of-singapore",
        "/researchers/1",
    ],
)
async def test_every_page_has_a_breadcrumb_list(client: Client, path: str) -> None:
    page = read((await client.get(path)).text)
    assert len(page.jsonld) == 1
    assert page.jsonld[0]["@context"] == "https://schema.org"
    (crumbs,) = page.of_type("BreadcrumbList")
    items = crumbs["itemListElement"]
    assert items[0] == {"@type": "ListItem", "position": 1, "name": "Home", "item": "http://test/"}
    assert [i["position"] for i in items] == list(range(1, len(items) + 1))
    assert all(i["item"].startswith("http://test/") for i in items)


async def test_a_researcher_is_a_person_with_their_ids_and_affiliations(client: Client) -> None:
    page = read((await client.get("/researchers/2004394-ziming-liu")).text)
    (person,) = page.of_type("Person")
    assert person["name"] == "Ziming Liu"
    assert person["url"] == ZIMING_PAGE
    ids = {i["propertyID"]: i["value"] for i in person["identifier"]}
    assert ids == {
        "ORCID": "0009-0009-3355-6770",
        "Semantic Scholar author": "2116463213",
        "OpenAlex author": "A5047541380",
    }
    assert set(person["sameAs"]) == {
        "https://orcid.org/0009-0009-3355-6770",
        "https://www.semanticscholar.org/author/2116463213",
        "https://openalex.org/A5047541380",
    }
    affiliations = {a["name"]: a for a in person["affiliation"]}
    nus = affiliations["National University of Singapore"]
    assert nus["@type"] == "Organization" and nus["sameAs"] == "https://ror.org/01tgyzw49"
    assert person["alternateName"] == ["Z. Liu"]
    (profile,) = page.of_type("ProfilePage")
    assert profile["mainEntity"] == {"@id": person["@id"]}
    crumbs = page.of_type("BreadcrumbList")[0]["itemListElement"]
    assert [c["name"] for c in crumbs] == ["Home", "Researchers", "Ziming Liu"]


async def test_a_paper_is_a_scholarly_article(client: Client) -> None:
    page = read((await client.get(ATP.removeprefix("http://test"))).text)
    (article,) = page.of_type("ScholarlyArticle")
    assert article["name"] == "ATP: Adaptive Tensor Parallelism for Foundation Models"
    assert [a["name"] for a in article["author"]] == [
        "Shenggan Cheng", "Ziming Liu", "Jiangsu Du", "Yang You"
    ]  # fmt: skip
    assert article["author"][1]["url"] == ZIMING_PAGE
    assert article["datePublished"] == "2023-01-20"
    assert article["dateModified"] == "2023-03-02"
    ids = {i["propertyID"]: i["value"] for i in article["identifier"]}
    assert ids["arXiv"] == "2301.08658" and ids["DOI"] == "10.48550/arxiv.2301.08658"
    assert "https://arxiv.org/abs/2301.08658" in article["sameAs"]
    assert article["about"][0]["termCode"] == "cs.DC"
    assert article["about"][0]["url"] == "http://test/categories/cs.DC"


async def test_tex_reaches_json_ld_as_plain_text(client: Client) -> None:
    page = read((await client.get("/papers/2303.00010-bounds-for-x-1-and-alpha-stable-laws")).text)
    (article,) = page.of_type("ScholarlyArticle")
    assert article["name"] == "Bounds for x<1 and α-stable laws"
    assert "$" not in article["abstract"]


async def test_an_institution_is_an_organization_with_its_ror_id(client: Client) -> None:
    page = read((await client.get("/institutions/3-national-university-of-singapore")).text)
    (org,) = page.of_type("Organization")
    assert org["name"] == "National University of Singapore"
    assert org["sameAs"] == "https://ror.org/01tgyzw49"
    assert org["alternateName"] == ["NUS"]
    assert org["address"]["addressCountry"] == "SG"
    assert [c["name"] for c in org["subOrganization"]] == ["NUS School of Computing"]


async def test_json_ld_cannot_close_its_script_element(client: Client) -> None:
    """A title with "</script>" stays inside the JSON-LD."""
    from scholargraph.api.site import render
    from scholargraph.api.site.page import SitePage

    page = SitePage("error", "x", "y", "http://test/", {"title": "</script><b>"})
    page.jsonld = [{"name": "</script><b>"}]
    assert "</script>" not in render._jsonld(page)
