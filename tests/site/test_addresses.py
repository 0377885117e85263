"""Every other form of an address answers 301 with the canonical one; an address that names
nothing is the 404 page, with a search box and the closest ids and names."""

from __future__ import annotations

import pytest

from tests.api.graphdata import MERGED_Z_LIU, ZIMING
from tests.site.conftest import JSON, Client
from tests.site.markup import read

ZIMING_PAGE = "http://test/researchers/2004394-ziming-liu"
ATP = "http://test/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models"
DUST = "http://test/papers/astro-ph/9901001-dust-in-the-local-group"
BERKELEY = "http://test/institutions/1-university-of-california,-berkeley"


@pytest.mark.parametrize(
    ("path", "canonical"),
    [
        ("/researchers/2004394", ZIMING_PAGE),
        ("/researchers/2004394-zimin-lu", ZIMING_PAGE),
        (f"/researchers/{MERGED_Z_LIU}-z-liu", ZIMING_PAGE),
        (f"/researchers/{MERGED_Z_LIU}", ZIMING_PAGE),
        ("/researchers/2004394?sort=cited", ZIMING_PAGE + "?sort=cited"),
        ("/researchers/2004394-ziming-liu/", ZIMING_PAGE),
        ("/papers/2301.08658", ATP),
        ("/papers/2301.08658v2", ATP),
        ("/papers/2301.08658v1-atp", ATP),
        ("/papers/2301.08658-an-old-title", ATP),
        ("/papers/arXiv:2301.08658", ATP),
        ("/papers/10.48550/arXiv.2301.08658", ATP),
        ("/papers/astro-ph/9901001", DUST),
        ("/papers/astro-ph/9901001v3", DUST),
        ("/institutions/1", BERKELEY),
        ("/institutions/1-berkeley", BERKELEY),
        ("/institutions/01an7q238", BERKELEY),
        ("/institutions/https://ror.org/01an7q238", BERKELEY),
        ("/institutions/University of California, Berkeley", BERKELEY),
        ("/institutions/uc berkeley", BERKELEY),
        ("/institutions/UCB", BERKELEY),
        ("/categories/cs.NA", "http://test/categories/math.NA"),
        ("/categories/cs.dc", "http://test/categories/cs.DC"),
        ("/researchers/", "http://test/researchers"),
        (f"/researchers/{MERGED_Z_LIU}/feed.atom", f"http://test/researchers/{ZIMING}/feed.atom"),
        ("/categories/cs.NA/feed.rss", "http://test/categories/math.NA/feed.rss"),
    ],
)
async def test_other_forms_redirect_to_the_canonical_address(
    client: Client, path: str, canonical: str
) -> None:
    response = await client.get(path)
    assert response.status_code == 301, (path, response.status_code)
    assert response.headers["location"] == canonical
    landed = await client.http.get(canonical, headers={"accept": "text/html"})
    assert landed.status_code == 200, canonical
    if "/feed." not in canonical:
        assert read(landed.text).canonical == canonical


async def test_redirects_answer_every_representation(client: Client) -> None:
    response = await client.get("/papers/2301.08658v2", JSON)
    assert response.status_code == 301
    assert response.headers["location"] == ATP
    assert (await client.json(response.headers["location"].removeprefix("http://test")))[
        "id"
    ] == "2301.08658"


async def test_the_canonical_address_does_not_redirect(client: Client) -> None:
    for canonical in (ZIMING_PAGE, ATP, DUST, BERKELEY, "http://test/categories/cs.DC"):
        response = await client.http.get(canonical)
        assert response.status_code == 200, canonical


async def test_an_unknown_researcher_gets_the_404_page_with_suggestions(client: Client) -> None:
    response = await client.get("/researchers/2004398-ziming-liu")
    assert response.status_code == 404
    page = read(response.text)
    assert page.headings[0] == (1, "Nothing here")
    assert page.meta["robots"].startswith("noindex")
    assert page.elements["missing-search"]["value"] == "ziming liu"
    hrefs = page.hrefs()
    # the closest ids, and the researchers named like the address
    assert "http://test/researchers/2004396-yang-you" in hrefs
    assert "http://test/researchers/3000001-ziming-liu" in hrefs
    assert "can take a moment to appear" in page.text


async def test_an_unknown_paper_suggests_the_nearest_arxiv_ids(client: Client) -> None:
    response = await client.get("/papers/2301.08659")
    assert response.status_code == 404
    hrefs = read(response.text).hrefs()
    assert ATP in hrefs
    assert "http://test/papers/2302.00009-an-unmatched-coauthor" in hrefs


async def test_an_unknown_category_suggests_similar_codes(client: Client) -> None:
    response = await client.get("/categories/cs.DX")
    assert response.status_code == 404
    assert "http://test/categories/cs.DC" in read(response.text).hrefs()


async def test_an_unknown_institution_and_any_other_address(client: Client) -> None:
    response = await client.get("/institutions/University of Nowhere")
    assert response.status_code == 404
    near = await client.get("/institutions/9-nowhere")
    assert near.status_code == 404
    assert "http://test/institutions/5-massachusetts-institute-of-technology" in (
        read(near.text).hrefs()
    )
    other = await client.get("/no/such/tensor-parallelism")
    assert other.status_code == 404
    assert ATP in read(other.text).hrefs()
    body = (await client.get("/researchers/1", JSON)).json()
    assert body["kind"] == "notFound" and body["looked"] == {"kind": "researcher", "key": "1"}


async def test_a_malformed_parameter_is_a_400(client: Client) -> None:
    for path in ("/researchers/2004394-ziming-liu?page=zero", "/researchers?sort=height",
                 "/papers?page=0", "/researchers/2004394-ziming-liu?page=41"):  # fmt: skip
        response = await client.get(path, JSON)
        assert response.status_code == 400, path
        assert response.json()["kind"] == "error"
    unknown = await client.get("/researchers/2004394-ziming-liu?category=cs.XX")
    assert unknown.status_code == 404
