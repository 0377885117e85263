"""Institutions as ROR v2 (schema 2.1) organisation records."""

from __future__ import annotations

import re
from collections.abc import Iterator

from scholargraph.graph.demo.institutions import Institution
from scholargraph.graph.demo.places import COUNTRY_BY_CODE
from scholargraph.graph.demo.printing import SALT_ROR_STATUS, JsonObject
from scholargraph.graph.demo.world import World

ROR = "https://ror.org/"

# The language of an institution's own-language name, recognised by its first word.
_LANGUAGES = {
    "Universität": "de",
    "Technische": "de",
    "Université": "fr",
    "École": "fr",
    "Università": "it",
    "Politecnico": "it",
    "Scuola": "it",
    "Universidad": "es",
    "Universitat": "ca",
    "Universidade": "pt",
    "Universiteit": "nl",
    "Uniwersytet": "pl",
    "Politechnika": "pl",
    "Univerzita": "cs",
}


def _language(name: str) -> str | None:
    first = name.split()[0]
    if first in _LANGUAGES:
        return _LANGUAGES[first]
    if name.endswith("Üniversitesi"):
        return "tr"
    if name.endswith("Universitet"):
        return "da"
    return "en"


def _names(institution: Institution) -> list[JsonObject]:
    entries: list[JsonObject] = [
        {
            "value": institution.name,
            "types": ["ror_display", "label"],
            "lang": _language(institution.name),
        }
    ]
    if institution.acronym:
        entries.append({"value": institution.acronym, "types": ["acronym"], "lang": None})
    return entries


def _relationships(world: World, institution: Institution) -> list[JsonObject]:
    items = world.institutions.institutions
    links: list[JsonObject] = []
    if institution.parent >= 0:
        parent = items[institution.parent]
        links.append({"type": "parent", "label": parent.name, "id": f"{ROR}{parent.ror}"})
    for child_index in institution.children:
        child = items[child_index]
        links.append({"type": "child", "label": child.name, "id": f"{ROR}{child.ror}"})
    return links


def _website(institution: Institution) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", institution.name.lower()).strip("-")
    return f"https://www.{slug}.example"  # the reserved .example TLD: no real site is implied


def record(world: World, institution: Institution) -> JsonObject:
    country = COUNTRY_BY_CODE[institution.country]
    types = [institution.kind]
    if institution.kind == "nonprofit" and institution.parent < 0:
        types.append("funder")
    status = "inactive" if world.noise(institution.index, SALT_ROR_STATUS) < 0.02 else "active"
    return {
        "id": f"{ROR}{institution.ror}",
        "status": status,
        "established": institution.established,
        "types": types,
        "names": _names(institution),
        "relationships": _relationships(world, institution),
        "external_ids": [
            {"type": "grid", "all": [institution.grid], "preferred": institution.grid},
            {"type": "wikidata", "all": [institution.wikidata], "preferred": None},
        ],
        "locations": [
            {
                "geonames_id": institution.geonames,
                "geonames_details": {
                    "continent_code": country.continent[0],
                    "continent_name": country.continent[1],
                    "country_code": country.code,
                    "country_name": country.name,
                    "country_subdivision_code": None,
                    "country_subdivision_name": None,
                    "lat": institution.lat,
                    "lng": institution.lng,
                    "name": institution.city,
                },
            }
        ],
        "links": [{"type": "website", "value": _website(institution)}],
        "domains": [],
        "admin": {
            "created": {"date": "2018-11-14", "schema_version": "1.0"},
            "last_modified": {"date": "2025-10-01", "schema_version": "2.1"},
        },
    }


def records(world: World) -> Iterator[JsonObject]:
    for institution in world.institutions.institutions:
        yield record(world, institution)
