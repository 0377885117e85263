"""The JSON Schemas (2020-12) of the pages' JSON representations, for ``/openapi.json``.

Every page object is closed (``additionalProperties: false``): a field the site sends is a
field described here, which the tests check on every page kind."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(kind: str) -> Schema:
    return {"type": [kind, "null"]}


def list_of(item: Schema) -> Schema:
    return {"type": "array", "items": item}


def _object(properties: dict[str, Schema], *, closed: bool = True) -> Schema:
    schema: Schema = {"type": "object", "required": sorted(properties), "properties": properties}
    if closed:
        schema["additionalProperties"] = False
    return schema


STRING: Schema = {"type": "string"}
URL: Schema = {"type": "string", "format": "uri"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
DATE: Schema = {"type": ["string", "null"], "format": "date"}
NULLABLE_URL: Schema = {"type": ["string", "null"], "format": "uri"}


def _paged(item: str, **extra: Schema) -> Schema:
    return _object(
        {
            "total": INT,
            "page": INT,
            "pages": INT,
            "perPage": INT,
            **extra,
            "items": list_of(ref(item)),
            "links": ref("PageLinks"),
            "window": list_of({"oneOf": [ref("PageNumber"), {"type": "null"}]}),
        }
    )


_RESEARCHER_REF = {
    "id": INT,
    "name": STRING,
    "url": URL,
    "orcid": nullable("string"),
    "paperCount": INT,
    "citationCount": INT,
    "hIndex": nullable("integer"),
}
_INSTITUTION_REF = {
    "id": INT,
    "name": STRING,
    "url": URL,
    "rorId": nullable("string"),
    "countryCode": nullable("string"),
}
_PAPER = {
    "id": STRING,
    "arxivId": nullable("string"),
    "title": STRING,
    "url": URL,
    "published": DATE,
    "year": nullable("integer"),
    "primaryCategory": nullable("string"),
    "citationCount": nullable("integer"),
    "authorCount": nullable("integer"),
}
_CATEGORY = {"code": STRING, "name": STRING, "url": URL}

SCHEMAS: dict[str, Schema] = {
    "ResearcherRef": _object(_RESEARCHER_REF),
    "InstitutionRef": _object(_INSTITUTION_REF),
    "Category": _object(_CATEGORY),
    "Authorship": _object(
        {
            "position": INT,
            "kind": STRING,
            "rawName": STRING,
            "source": nullable("string"),
            "method": nullable("string"),
            "methodDescription": nullable("string"),
            "confidence": nullable("number"),
            "pinned": BOOL,
        }
    ),
    "Author": _object({**_RESEARCHER_REF, "authorship": ref("Authorship")}),
    "Paper": {
        **_object(_PAPER),
        "properties": {
            **_PAPER,
            "authors": list_of(ref("Author")),
            "matchedAuthorCount": INT,
            "authorship": ref("Authorship"),
        },
        "description": "A paper as lists show it; in paged lists also its first authors, "
        "how many are matched, and (in a researcher's list) their slot.",
    },
    "PageLinks": _object(
        {
            "self": URL,
            "first": URL,
            "previous": NULLABLE_URL,
            "next": NULLABLE_URL,
            "last": NULLABLE_URL,
        }
    ),
    "PageNumber": _object({"page": INT, "url": URL, "current": BOOL}),
    "PaperList": _paged("Paper", sort={"enum": ["newest", "cited"]}),
    "Researcher": _object(
        {
            "kind": {"const": "researcher"},
            **_RESEARCHER_REF,
            "slug": STRING,
            "altNames": list_of(STRING),
            "hIndexS2": nullable("integer"),
            "hIndexOpenalex": nullable("integer"),
            "identity": _object(
                {
                    "orcid": nullable("string"),
                    "s2Ids": list_of(STRING),
                    "openalexIds": list_of(STRING),
                    "via": list_of(STRING),
                    "externalIds": list_of(
                        _object(
                            {
                                "key": STRING,
                                "scheme": STRING,
                                "value": STRING,
                                "url": NULLABLE_URL,
                                "method": nullable("string"),
                                "source": nullable("string"),
                            }
                        )
                    ),
                    "mergedFrom": list_of(INT),
                }
            ),
            "authorPositions": {
                "oneOf": [
                    _object(
                        {
                            "first": INT,
                            "middle": INT,
                            "last": INT,
                            "solo": INT,
                            "alphabetical": INT,
                            "matchedPapers": INT,
                            "totalPapers": INT,
                            "coverage": STRING,
                        }
                    ),
                    {"type": "null"},
                ]
            },
            "fields": list_of(
                _object({**_CATEGORY, "papers": INT, "primaryPapers": INT, "filterUrl": URL})
            ),
            "mostCited": {
                "oneOf": [
                    _object(
                        {
                            "citations": INT,
                            "countedPapers": INT,
                            "totalPapers": INT,
                            "coverage": STRING,
                            "papers": list_of(ref("Paper")),
                        }
                    ),
                    {"type": "null"},
                ]
            },
            "similarResearchers": list_of(
                _object({"researcher": ref("ResearcherRef"), "similarity": {"type": "number"}})
            ),
            "sameName": _object(
                {
                    "blockSize": INT,
                    "records": list_of(
                        _object(
                            {
                                "researcher": ref("ResearcherRef"),
                                "probability": {"type": "number"},
                                "rule": nullable("string"),
                                "markedDistinct": BOOL,
                                "evidence": list_of(STRING),
                                "compareUrl": URL,
                            }
                        )
                    ),
                }
            ),
            "coauthors": _object(
                {
                    "total": INT,
                    "items": list_of(
                        _object(
                            {
                                "researcher": ref("ResearcherRef"),
                                "jointPapers": INT,
                                "firstYear": nullable("integer"),
                                "lastYear": nullable("integer"),
                            }
                        )
                    ),
                }
            ),
            "network": _object({"graphql": URL, "explorer": URL}),
            "papers": _paged(
                "Paper", sort={"enum": ["newest", "cited"]}, category=nullable("string")
            ),
            "affiliations": list_of(
                _object(
                    {
                        "institution": ref("InstitutionRef"),
                        "sources": list_of(STRING),
                        "firstYear": nullable("integer"),
                        "lastYear": nullable("integer"),
                    }
                )
            ),
            "curation": list_of(
                _object(
                    {
                        "id": STRING,
                        "kind": STRING,
                        "actor": STRING,
                        "reason": STRING,
                        "at": {"type": "string", "format": "date-time"},
                        "papers": list_of(STRING),
                        "researchers": list_of(_object({"id": INT, "role": STRING})),
                    }
                )
            ),
            "feeds": _object({"atom": URL, "rss": URL}),
        }
    ),
    "PaperPage": _object(
        {
            "kind": {"const": "paper"},
            **_PAPER,
            "plainTitle": STRING,
            "abstract": nullable("string"),
            "plainAbstract": STRING,
            "updated": DATE,
            "versions": nullable("integer"),
            "journalRef": nullable("string"),
            "withdrawn": BOOL,
            "doi": nullable("string"),
            "citationSources": list_of(STRING),
            "sources": list_of(STRING),
            "categories": list_of(_object({**_CATEGORY, "primary": BOOL})),
            "externalIds": list_of(_object({"name": STRING, "value": STRING, "url": URL})),
            "arxiv": {"oneOf": [_object({"abs": URL, "pdf": URL}), {"type": "null"}]},
            "matchedAuthorCount": INT,
            "alphabetical": BOOL,
            "hyperauthored": BOOL,
            "authors": list_of(ref("Author")),
            "related": list_of(_object({"paper": ref("Paper"), "similarity": {"type": "number"}})),
        }
    ),
    "Institution": _object(
        {
            "kind": {"const": "institution"},
            **_INSTITUTION_REF,
            "slug": STRING,
            "rorUrl": NULLABLE_URL,
            "openalexId": nullable("string"),
            "acronyms": list_of(STRING),
            "aliases": list_of(STRING),
            "city": nullable("string"),
            "types": list_of(STRING),
            "established": nullable("integer"),
            "parents": list_of(ref("InstitutionRef")),
            "children": list_of(ref("InstitutionRef")),
            "researchers": _paged("ResearcherRef"),
            "papers": ref("PaperList"),
        }
    ),
    "CategoryPage": _object(
        {
            "kind": {"const": "category"},
            **_CATEGORY,
            "archive": _object({"code": STRING, "name": STRING}),
            "group": STRING,
            "active": BOOL,
            "aliases": list_of(STRING),
            "paperCount": INT,
            "primaryPaperCount": INT,
            "papers": ref("PaperList"),
            "feeds": _object({"atom": URL, "rss": URL}),
        }
    ),
    "Categories": _object(
        {
            "kind": {"const": "categories"},
            "url": URL,
            "groups": list_of(
                _object(
                    {
                        "name": STRING,
                        "archives": list_of(
                            _object(
                                {
                                    "name": STRING,
                                    "categories": list_of(
                                        _object({**_CATEGORY, "papers": INT, "active": BOOL})
                                    ),
                                }
                            )
                        ),
                    }
                )
            ),
        }
    ),
    "Papers": _object({"kind": {"const": "papers"}, "url": URL, "papers": ref("PaperList")}),
    "Researchers": _paged(
        "ResearcherRef",
        kind={"const": "researchers"},
        url=URL,
        sort={"enum": ["papers", "citations", "name"]},
    ),
    "InstitutionCount": _object({**_INSTITUTION_REF, "researchers": INT}),
    "Institutions": _paged(
        "InstitutionCount",
        kind={"const": "institutions"},
        url=URL,
        sort={"enum": ["researchers", "name"]},
    ),
    "Search": _object(
        {
            "kind": {"const": "search"},
            "url": URL,
            "query": STRING,
            "searchKind": {"enum": ["all", "paper", "researcher", "institution"]},
            "mode": {"enum": ["hybrid", "keyword", "semantic"]},
            "filters": _object(
                {
                    "category": nullable("string"),
                    "yearFrom": nullable("integer"),
                    "yearTo": nullable("integer"),
                }
            ),
            "total": INT,
            "items": list_of(
                _object(
                    {
                        "kind": {"enum": ["paper", "researcher", "institution"]},
                        "score": {"type": "number"},
                        "item": {
                            "oneOf": [ref("Paper"), ref("ResearcherRef"), ref("InstitutionRef")]
                        },
                    }
                )
            ),
            "next": NULLABLE_URL,
        }
    ),
    "Home": _object(
        {
            "kind": {"const": "home"},
            "name": STRING,
            "url": URL,
            "search": URL,
            "latestPapers": list_of(ref("Paper")),
            "latestTotal": INT,
            "sync": _object(
                {
                    "lastHarvest": {"type": ["string", "null"], "format": "date-time"},
                    "backlog": INT,
                }
            ),
            "indexes": _object(
                {"papers": URL, "researchers": URL, "institutions": URL, "categories": URL}
            ),
            "machine": _object(
                {"llms": URL, "openapi": URL, "graphql": URL, "sitemap": URL, "feed": URL}
            ),
        }
    ),
    "NotFound": _object(
        {
            "kind": {"const": "notFound"},
            "url": URL,
            "message": STRING,
            "looked": _object({"kind": STRING, "key": STRING}),
            "search": URL,
            "query": STRING,
            "suggestions": list_of(
                {
                    "type": "object",
                    "required": ["url", "why"],
                    "properties": {"url": URL, "why": STRING, "kind": STRING},
                    "description": "A researcher, paper, institution or category, as lists "
                    "show it, and why it is suggested.",
                }
            ),
            "note": STRING,
        }
    ),
    "Error": _object(
        {"kind": {"const": "error"}, "status": INT, "title": STRING, "message": STRING}
    ),
}
