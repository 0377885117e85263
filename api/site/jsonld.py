"""schema.org objects for the pages, as JSON-LD: a ``Person`` for a researcher (ORCID, S2 and
OpenAlex as ``identifier`` and ``sameAs``, institutions as ``affiliation``), a
``ScholarlyArticle`` for a paper, an ``Organization`` for an institution, and a
``BreadcrumbList`` on every page. Each page carries one ``@graph``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scholargraph.api.site.shapes import Json

CONTEXT = "https://schema.org"


def external_ids(identity: Json) -> list[Json]:
    """The ``identifier`` values of a researcher's identity (see the researcher page data)."""
    values: list[Json] = []
    if identity.get("orcid"):
        values.append(_property("ORCID", identity["orcid"]))
    values += [_property("Semantic Scholar author", v) for v in identity.get("s2Ids", [])]
    values += [_property("OpenAlex author", v) for v in identity.get("openalexIds", [])]
    return values


def _property(name: str, value: Any) -> Json:
    return {"@type": "PropertyValue", "propertyID": name, "value": value}


def organization(institution: Json) -> Json:
    org: Json = {"@type": "Organization", "name": institution["name"], "url": institution["url"]}
    if institution.get("rorId"):
        org["sameAs"] = f"https://ror.org/{institution['rorId']}"
    return org


def person(data: Json) -> Json:
    identity = data["identity"]
    found: Json = {
        "@type": "Person",
        "@id": data["url"] + "#person",
        "name": data["name"],
        "url": data["url"],
        "identifier": external_ids(identity),
        "sameAs": [x["url"] for x in identity["externalIds"] if x.get("url")],
        "affiliation": [organization(a["institution"]) for a in data["affiliations"]],
    }
    if data.get("altNames"):
        found["alternateName"] = data["altNames"]
    return found


def article(data: Json) -> Json:
    found: Json = {
        "@type": "ScholarlyArticle",
        "@id": data["url"] + "#article",
        "headline": data["plainTitle"][:110],
        "name": data["plainTitle"],
        "url": data["url"],
        "author": [
            {"@type": "Person", "name": a["name"], "url": a["url"]} for a in data["authors"]
        ],
        "identifier": [
            _property(x["name"], x["value"]) for x in data["externalIds"] if x.get("value")
        ],
        "sameAs": [x["url"] for x in data["externalIds"] if x.get("url")],
        "about": [
            {"@type": "DefinedTerm", "termCode": c["code"], "name": c["name"], "url": c["url"]}
            for c in data["categories"]
        ],
        "isAccessibleForFree": True,
    }
    if data.get("published"):
        found["datePublished"] = data["published"]
    if data.get("updated"):
        found["dateModified"] = data["updated"]
    if data.get("abstract"):
        found["abstract"] = data["plainAbstract"]
    return found


def institution(data: Json) -> Json:
    org = organization(data)
    org["@id"] = data["url"] + "#organization"
    if data.get("acronyms") or data.get("aliases"):
        org["alternateName"] = [*data.get("acronyms", []), *data.get("aliases", [])]
    if data.get("countryCode"):
        org["address"] = {"@type": "PostalAddress", "addressCountry": data["countryCode"]}
    if data.get("parents"):
        org["parentOrganization"] = [organization(p) for p in data["parents"]]
    if data.get("children"):
        org["subOrganization"] = [organization(c) for c in data["children"]]
    return org


def collection(name: str, url: str, kind: str = "CollectionPage") -> Json:
    return {"@type": kind, "@id": url, "name": name, "url": url}


def website(base: str, name: str) -> Json:
    return {
        "@type": "WebSite",
        "@id": base + "/#website",
        "name": name,
        "url": base + "/",
        "potentialAction": {
            "@type": "SearchAction",
            "target": {"@type": "EntryPoint", "urlTemplate": base + "/search?q={query}"},
            "query-input": "required name=query",
        },
    }


def breadcrumbs(trail: Sequence[tuple[str, str]]) -> Json:
    return {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": n, "name": name, "item": url}
            for n, (name, url) in enumerate(trail, start=1)
        ],
    }


def document(objects: Sequence[Json], trail: Sequence[tuple[str, str]]) -> Json:
    return {"@context": CONTEXT, "@graph": [*objects, breadcrumbs(trail)]}
