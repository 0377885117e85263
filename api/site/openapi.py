"""``/openapi.json``: an OpenAPI 3.1 description of every page's JSON representation (what
``Accept: application/json`` returns), its parameters, and the other machine-readable
addresses (llms.txt, sitemaps, feeds). The schemas are JSON Schema 2020-12 and close every
page object (``additionalProperties: false``), so a field that is not described here is
never sent."""

from __future__ import annotations

from scholargraph import __version__
from scholargraph.api.site.schemas import SCHEMAS, STRING, URL, Schema, ref

_PAGE = {
    "name": "page",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 1},
}
_AFTER = {
    "name": "after",
    "in": "query",
    "required": False,
    "description": "The cursor of the last paper shown, for pages past the numbered ones.",
    "schema": STRING,
}
_PAPER_SORT = {
    "name": "sort",
    "in": "query",
    "required": False,
    "schema": {"enum": ["newest", "cited"], "default": "newest"},
}


def _path(name: str, description: str) -> Schema:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": STRING,
    }


def _query(name: str, schema: Schema, description: str = "") -> Schema:
    found = {"name": name, "in": "query", "required": False, "schema": schema}
    if description:
        found["description"] = description
    return found


def _page(
    summary: str, schema: str, parameters: list[Schema], *, redirects: bool = False
) -> Schema:
    responses: Schema = {
        "200": {
            "description": summary,
            "headers": {
                "ETag": {"schema": STRING, "description": "From the graph's last write."},
                "Last-Modified": {"schema": STRING},
                "Vary": {"schema": {"const": "Accept"}},
            },
            "content": {
                "application/json": {"schema": ref(schema)},
                "text/html": {"schema": STRING},
                "text/markdown": {"schema": STRING},
            },
        },
        "304": {"description": "Not modified since the ETag or date sent."},
        "400": {
            "description": "A malformed parameter.",
            "content": {"application/json": {"schema": ref("Error")}},
        },
        "404": {
            "description": "Nothing there; suggestions of where to look next.",
            "content": {"application/json": {"schema": ref("NotFound")}},
        },
        "406": {"description": "None of the types in Accept is offered."},
    }
    if redirects:
        responses["301"] = {
            "description": "Another form of the address: Location is the canonical one.",
            "headers": {"Location": {"schema": URL}},
        }
    return {"get": {"summary": summary, "parameters": parameters, "responses": responses}}


def _text(summary: str, media_type: str) -> Schema:
    return {
        "get": {
            "summary": summary,
            "responses": {
                "200": {"description": summary, "content": {media_type: {"schema": STRING}}}
            },
        }
    }


def document(base: str) -> Schema:
    researcher = _path(
        "researcher", "The id, e.g. 2004394, or id-slug; a merged-away id redirects."
    )
    paper = _path(
        "paper",
        "An arXiv id with its slug, e.g. 2301.08658-atp-…; the id alone, vN, old-style "
        "(astro-ph/9901001) and the DataCite DOI (10.48550/arXiv.2301.08658) redirect.",
    )
    institution = _path("institution", "Our id with its slug; an id, a ROR id or a name redirect.")
    code = _path("code", "An arXiv category code, e.g. cs.DC; an alias redirects.")
    feed_format = {
        "name": "format",
        "in": "path",
        "required": True,
        "schema": {"enum": ["atom", "rss"]},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "scholargraph pages",
            "version": __version__,
            "description": "Every page of the site as JSON (send Accept: application/json). "
            "The same addresses answer text/html and text/markdown. GraphQL is at /graphql.",
        },
        "servers": [{"url": base}],
        "paths": {
            "/": _page(
                "The home page: the latest papers, the last harvest, and where to go.", "Home", []
            ),
            "/papers": _page("Every paper, 24 a page.", "Papers", [_PAPER_SORT, _PAGE, _AFTER]),
            "/papers/{paper}": _page("One paper.", "PaperPage", [paper], redirects=True),
            "/researchers": _page(
                "Researchers, 50 a page.",
                "Researchers",
                [
                    _query("sort", {"enum": ["papers", "citations", "name"], "default": "papers"}),
                    _PAGE,
                ],
            ),
            "/researchers/{researcher}": _page(
                "One researcher.",
                "Researcher",
                [
                    researcher,
                    _PAPER_SORT,
                    _query("category", STRING, "Only their papers in this arXiv category."),
                    _PAGE,
                    _AFTER,
                ],
                redirects=True,
            ),
            "/institutions": _page(
                "Institutions, 50 a page.",
                "Institutions",
                [
                    _query("sort", {"enum": ["researchers", "name"], "default": "researchers"}),
                    _PAGE,
                ],
            ),
            "/institutions/{institution}": _page(
                "One institution.",
                "Institution",
                [
                    institution,
                    _PAPER_SORT,
                    _PAGE,
                    _AFTER,
                    _query("rpage", {"type": "integer", "minimum": 1}, "The page of researchers."),
                ],
                redirects=True,
            ),
            "/categories": _page("Every arXiv category.", "Categories", []),
            "/categories/{code}": _page(
                "One arXiv category.",
                "CategoryPage",
                [code, _PAPER_SORT, _PAGE, _AFTER],
                redirects=True,
            ),
            "/search": _page(
                "Search papers, researchers and institutions.",
                "Search",
                [
                    _query(
                        "q",
                        STRING,
                        "Words, or an arXiv id, DOI, ORCID iD, ROR id or researcher id.",
                    ),
                    _query(
                        "kind",
                        {"enum": ["all", "paper", "researcher", "institution"], "default": "all"},
                    ),
                    _query("after", STRING, "The cursor of the next page of results."),
                ],
            ),
            "/llms.txt": _text("Guidance for automated readers.", "text/markdown"),
            "/robots.txt": _text("What crawlers may visit.", "text/plain"),
            "/sitemap.xml": _text("The sitemap index.", "application/xml"),
            "/sitemaps/{kind}.xml": {
                "get": {
                    "summary": "One sitemap: the site's pages, or a chunk of researchers, papers "
                    "or institutions.",
                    "parameters": [
                        {
                            "name": "kind",
                            "in": "path",
                            "required": True,
                            "schema": {"enum": ["pages", "researchers", "papers", "institutions"]},
                        },
                        _query("after", STRING, "The key just before the chunk."),
                    ],
                    "responses": {
                        "200": {
                            "description": "A sitemap.",
                            "content": {"application/xml": {"schema": STRING}},
                        }
                    },
                }
            },
            "/feed.{format}": _feed("The latest papers.", [feed_format]),
            "/categories/{code}/feed.{format}": _feed(
                "The latest papers in a category.", [code, feed_format]
            ),
            "/researchers/{researcher}/feed.{format}": _feed(
                "The latest papers of a researcher.", [researcher, feed_format]
            ),
        },
        "components": {"schemas": SCHEMAS},
    }


def _feed(summary: str, parameters: list[Schema]) -> Schema:
    return {
        "get": {
            "summary": summary,
            "parameters": parameters,
            "responses": {
                "200": {
                    "description": "An Atom 1.0 or RSS 2.0 feed.",
                    "content": {
                        "application/atom+xml": {"schema": STRING},
                        "application/rss+xml": {"schema": STRING},
                    },
                }
            },
        }
    }
