"""A small registry of ROR v2 records written for these tests: homonyms in two countries, a
university system and its campus, a parent and its institute, an inactive and a withdrawn
record, a company whose name ROR qualifies with its country."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scholargraph.graph.institutions import AffiliationIndex, build_index
from scholargraph.graph.institutions.sources import read_ror_files


def _record(
    ror_id: str,
    display: str,
    country: str,
    city: str,
    *,
    labels: tuple[tuple[str, str], ...] = (),
    aliases: tuple[str, ...] = (),
    acronyms: tuple[str, ...] = (),
    status: str = "active",
    parents: tuple[str, ...] = (),
    children: tuple[str, ...] = (),
    types: tuple[str, ...] = ("education",),
) -> dict[str, Any]:
    names: list[dict[str, Any]] = [
        {"value": display, "types": ["ror_display", "label"], "lang": "en"}
    ]
    names += [{"value": v, "types": ["label"], "lang": lang} for v, lang in labels]
    names += [{"value": v, "types": ["alias"], "lang": None} for v in aliases]
    names += [{"value": v, "types": ["acronym"], "lang": None} for v in acronyms]
    relationships = [
        {"type": "parent", "label": "", "id": f"https://ror.org/{p}"} for p in parents
    ] + [{"type": "child", "label": "", "id": f"https://ror.org/{c}"} for c in children]
    return {
        "id": f"https://ror.org/{ror_id}",
        "names": names,
        "status": status,
        "types": list(types),
        "established": None,
        "relationships": relationships,
        "locations": [
            {"geonames_id": 1, "geonames_details": {"name": city, "country_code": country}}
        ],
        "admin": {"last_modified": {"date": "2026-01-01", "schema_version": "2.1"}},
    }


TOKYO = "057zh3y96"
PHENOMICS = "0phen0a11"
TEXAS_SYSTEM = "0txsys011"
TEXAS_AUSTIN = "0txa5st22"
LEIPZIG = "0ze1pzg33"
PHYSICS_BEIJING = "0phys0a44"
PHYSICS_WARSAW = "0phys0b55"
CAS = "0cas0cn66"
CNRS = "0cnrs0f77"
WITHDRAWN = "0w1thd088"
CURIE = "0pmc0nn99"
KING_KHALID = "0kkh0sa12"
HEALTH_KENYA = "0m0h0ke23"
UW = "0wash0n34"
WASHU = "0wash5t45"
SHELL = "0she11n56"

RECORDS = [
    _record(TOKYO, "University of Tokyo", "JP", "Tokyo", labels=(("東京大学", "ja"),),
            aliases=("Todai",), acronyms=("UTokyo",)),
    _record(PHENOMICS, "Phenomics Australia", "AU", "Canberra", acronyms=("PA",),
            types=("facility",)),
    _record(TEXAS_SYSTEM, "The University of Texas System", "US", "Austin",
            labels=(("Universidad de Texas", "es"),), aliases=("University of Texas",),
            acronyms=("UT System",), children=(TEXAS_AUSTIN,)),
    _record(TEXAS_AUSTIN, "The University of Texas at Austin", "US", "Austin",
            acronyms=("UT Austin",), parents=(TEXAS_SYSTEM,)),
    _record(LEIPZIG, "Leipzig University", "DE", "Leipzig",
            labels=(("Universität Leipzig", "de"),)),
    _record(PHYSICS_BEIJING, "Institute of Physics", "CN", "Beijing", parents=(CAS,),
            types=("facility",)),
    _record(PHYSICS_WARSAW, "Institute of Physics", "PL", "Warsaw", types=("facility",)),
    _record(CAS, "Chinese Academy of Sciences", "CN", "Beijing", acronyms=("CAS",),
            children=(PHYSICS_BEIJING,), types=("government",)),
    _record(CNRS, "Centre National de la Recherche Scientifique", "FR", "Paris",
            acronyms=("CNRS",), types=("government",)),
    _record(WITHDRAWN, "Withdrawn Institute of Testing", "GB", "London", status="withdrawn"),
    _record(CURIE, "Université Pierre-et-Marie-Curie", "FR", "Paris", status="inactive"),
    _record(KING_KHALID, "King Khalid University", "SA", "Abha"),
    _record(HEALTH_KENYA, "Ministry of Health", "KE", "Nairobi", types=("government",)),
    _record(UW, "University of Washington", "US", "Seattle"),
    _record(WASHU, "Washington University in St. Louis", "US", "St. Louis"),
    _record(SHELL, "Shell (Netherlands)", "NL", "The Hague", types=("company",)),
]  # fmt: skip


def write_records(folder: Path) -> Path:
    """The records as a ROR dump part (JSON Lines), beside a file that is not one."""
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / "ror-records.jsonl"
    part.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS), "utf-8")
    (folder / "README.txt").write_text("not a ROR record\n", encoding="utf-8")
    return folder


def fixture_index(folder: Path) -> AffiliationIndex:
    return build_index(read_ror_files([write_records(folder)]))
