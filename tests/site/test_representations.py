"""Each page in three representations chosen by Accept (HTML, markdown, JSON) with Vary:
Accept; the JSON of every page kind as /openapi.json describes it; /llms.txt and /robots.txt."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate

from tests.site.conftest import HTML, JSON, MARKDOWN, Client
from tests.site.sitedata import PROLIFIC

PAGES = {
    "/": "Home",
    "/papers": "Papers",
    "/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models": "PaperPage",
    "/papers/2303.00010-bounds-for-x-1-and-alpha-stable-laws": "PaperPage",
    "/researchers": "Researchers",
    "/researchers/2004394-ziming-liu": "Researcher",
    "/researchers/2004396-yang-you?sort=cited": "Researcher",
    f"/researchers/{PROLIFIC}-petra-prolific?page=2": "Researcher",
    "/institutions": "Institutions",
    "/institutions/3-national-university-of-singapore": "Institution",
    "/categories": "Categories",
    "/categories/cs.DC": "CategoryPage",
    "/search?q=ziming": "Search",
    "/search?q=10.48550/arXiv.2301.08658": "Search",
    "/search": "Search",
}


async def openapi(client: Client) -> dict[str, Any]:
    response = await client.get("/openapi.json", JSON)
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def schema_of(document: dict[str, Any], name: str) -> jsonschema.Draft202012Validator:
    schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


async def test_openapi_json_is_a_valid_openapi_31_document(client: Client) -> None:
    document = await openapi(client)
    validate(document)
    assert document["openapi"] == "3.1.0"
    assert document["servers"] == [{"url": "http://test"}]
    pages = ["/researchers/{researcher}", "/papers/{paper}", "/institutions/{institution}",
             "/categories/{code}", "/search", "/researchers", "/institutions", "/"]  # fmt: skip
    for path in pages:
        responses = document["paths"][path]["get"]["responses"]
        assert set(responses["200"]["content"]) == {"application/json", "text/html",
                                                    "text/markdown"}  # fmt: skip


@pytest.mark.parametrize(("path", "schema"), list(PAGES.items()))
async def test_every_json_representation_is_as_described(
    client: Client, path: str, schema: str
) -> None:
    document = await openapi(client)
    body = await client.json(path)
    errors = sorted(schema_of(document, schema).iter_errors(body), key=str)
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


async def test_errors_are_as_described(client: Client) -> None:
    document = await openapi(client)
    missing = await client.get("/researchers/77-nobody", JSON)
    assert missing.status_code == 404
    schema_of(document, "NotFound").validate(missing.json())
    bad = await client.get("/papers?page=nope", JSON)
    assert bad.status_code == 400
    schema_of(document, "Error").validate(bad.json())


@pytest.mark.parametrize("path", ["/researchers/2004394-ziming-liu", "/categories/cs.DC", "/"])
async def test_accept_chooses_the_representation(client: Client, path: str) -> None:
    answers = {}
    for accept in (HTML, MARKDOWN, JSON, "*/*", "text/markdown;q=0.9, application/json;q=0.5"):
        response = await client.get(path, accept)
        assert response.status_code == 200
        assert "Accept" in response.headers["vary"].split(", ")
        assert 'rel="canonical"' in response.headers["link"]
        answers[accept] = response.headers["content-type"]
    assert answers[HTML] == answers["*/*"] == "text/html; charset=utf-8"
    assert answers[MARKDOWN].startswith("text/markdown")
    assert answers[JSON] == "application/json"
    assert answers["text/markdown;q=0.9, application/json;q=0.5"].startswith("text/markdown")
    refused = await client.get(path, "image/png")
    assert refused.status_code == 406
    assert "text/markdown" in refused.text


async def test_markdown_is_the_page_as_text(client: Client) -> None:
    text = (await client.get("/researchers/2004394-ziming-liu", MARKDOWN)).text
    assert text.startswith("# Ziming Liu\n")
    for line in ("## Author positions", "## Same name", "## Papers", "## Curation history",
                 "[Yang You](http://test/researchers/2004396-yang-you)"):  # fmt: skip
        assert line in text
    atp = await client.http.get(
        "/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models",
        headers={"accept": MARKDOWN},
    )
    assert atp.text.startswith("# ATP: Adaptive Tensor Parallelism")
    assert "Authors: [Shenggan Cheng]" in atp.text
    missing = await client.get("/papers/2401.99999", MARKDOWN)
    assert missing.status_code == 404 and missing.text.startswith("# Not found")


async def test_llms_txt_and_the_home_pages_guidance(client: Client) -> None:
    llms = await client.get("/llms.txt", "*/*")
    assert llms.status_code == 200
    assert llms.headers["content-type"].startswith("text/markdown")
    text = llms.text
    assert text.startswith("# scholargraph\n\n> ")
    needles = ["/papers/astro-ph/9901001", "the id alone works and redirects",
               "http://test/openapi.json", "http://test/sitemap.xml", "## Optional"]  # fmt: skip
    for needle in needles:
        assert needle in text
    home = (await client.get("/", MARKDOWN)).text
    assert home.startswith(text.strip().split("\n## Optional")[0][:200])
    assert "## Latest papers" in home


async def test_robots_txt_points_at_the_sitemap(client: Client) -> None:
    robots = await client.get("/robots.txt", "*/*")
    assert robots.status_code == 200
    assert robots.headers["content-type"].startswith("text/plain")
    assert "User-agent: *" in robots.text
    assert "Sitemap: http://test/sitemap.xml" in robots.text
    assert "Disallow: /search" in robots.text
