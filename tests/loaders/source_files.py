"""Small source files of every bulk format, written the way each source writes them.

Every paper has an arXiv id, so its graph key is that id whatever source it comes from.
"""

from __future__ import annotations

import json
from typing import Any

AUTHORS = ("Ada Lovelace", "Alan Turing")


def arxiv_ids(count: int, month: str = "2301") -> list[str]:
    return [f"{month}.{n:05d}" for n in range(1, count + 1)]


# --- arXiv --------------------------------------------------------------------------


def oai_record(arxiv_id: str, title: str | None = None) -> str:
    authors = "".join(
        f"<author><keyname>{name.split()[-1]}</keyname><forenames>{name.split()[0]}</forenames>"
        "</author>"
        for name in AUTHORS
    )
    return f"""<record><header><identifier>oai:arXiv.org:{arxiv_id}</identifier>
<datestamp>2023-01-23</datestamp><setSpec>cs</setSpec></header>
<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/">
<id>{arxiv_id}</id><created>2023-01-20</created>
<authors>{authors}</authors>
<title>{title or f"Paper {arxiv_id}"}</title>
<categories>cs.DC</categories>
<abstract>An abstract of {arxiv_id}.</abstract>
</arXiv></metadata></record>
"""


def oai_page(records: list[str]) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
<responseDate>2026-01-02T00:00:00Z</responseDate>
<request verb="ListRecords" metadataPrefix="arXiv">http://oaipmh.arxiv.org/oai</request>
<ListRecords>
{"".join(records)}</ListRecords>
</OAI-PMH>
"""


def atom_entry(arxiv_id: str, title: str | None = None) -> str:
    authors = "".join(f"<author><name>{name}</name></author>" for name in AUTHORS)
    return f"""  <entry>
    <id>http://arxiv.org/abs/{arxiv_id}v1</id>
    <title>{title or f"Paper {arxiv_id}"}</title>
    <updated>2023-01-20T10:00:00Z</updated>
    <published>2023-01-20T10:00:00Z</published>
    <summary>An abstract of {arxiv_id}.</summary>
    {authors}
    <category term="cs.DC" scheme="http://arxiv.org/schemas/atom"/>
    <arxiv:primary_category term="cs.DC"/>
  </entry>
"""


def atom_feed(entries: list[str]) -> str:
    return f"""<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
      xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">
  <updated>2026-04-12T22:09:26Z</updated>
  <opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>
  <opensearch:totalResults>{len(entries)}</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
{"".join(entries)}</feed>
"""


def abs_record(arxiv_id: str, title: str | None = None, authors: str | None = None) -> str:
    return f"""------------------------------------------------------------------------------
\\\\
arXiv:{arxiv_id}
From: Ada Lovelace <ada@example.org>
Date: Mon, 2 Jan 2023 10:00:00 GMT   (12kb)

Title: {title or f"Paper {arxiv_id}"}
Authors: {authors or " and ".join(AUTHORS)}
Categories: cs.DC
\\\\
  An abstract of {arxiv_id}.
\\\\
"""


# --- OpenAlex, Semantic Scholar ------------------------------------------------------


def openalex_work(arxiv_id: str, number: int, title: str | None = None) -> dict[str, Any]:
    return {
        "id": f"https://openalex.org/W{4300000000 + number}",
        "doi": f"https://doi.org/10.48550/arxiv.{arxiv_id}",
        "title": title or f"Paper {arxiv_id}",
        "display_name": title or f"Paper {arxiv_id}",
        "publication_year": 2023,
        "publication_date": "2023-01-20",
        "updated_date": "2025-10-11T01:57:29.200816",
        "locations": [],
        "authorships": [
            {
                "author_position": "first" if position == 1 else "last",
                "author": {
                    "id": f"https://openalex.org/A{5000000000 + 10 * number + position}",
                    "display_name": name,
                    "orcid": None,
                },
                "raw_author_name": name,
                "institutions": [],
                "raw_affiliation_strings": [],
            }
            for position, name in enumerate(AUTHORS, start=1)
        ],
    }


def s2_line(arxiv_id: str, number: int, title: str | None = None) -> dict[str, Any]:
    """A line of the Semantic Scholar Datasets ``papers`` files."""
    return {
        "corpusid": 255000 + number,
        "externalids": {"ArXiv": arxiv_id, "CorpusId": str(255000 + number)},
        "title": title or f"Paper {arxiv_id}",
        "authors": [
            {"authorId": str(2110000000 + 10 * number + position), "name": name}
            for position, name in enumerate(AUTHORS, start=1)
        ],
        "year": 2023,
        "publicationdate": "2023-01-20",
    }


# --- ROR, ORCID ----------------------------------------------------------------------


def ror_ids(count: int) -> list[str]:
    return [f"0{n:06d}{n % 100:02d}" for n in range(1, count + 1)]


def ror_record(ror_id: str, name: str | None = None) -> dict[str, Any]:
    return {
        "id": f"https://ror.org/{ror_id}",
        "status": "active",
        "types": ["education"],
        "names": [{"value": name or f"University {ror_id}", "types": ["ror_display", "label"]}],
        "locations": [{"geonames_details": {"name": "Seattle", "country_code": "US"}}],
        "admin": {"last_modified": {"date": "2025-06-30", "schema_version": "2.1"}},
    }


def orcid_ids(count: int) -> list[str]:
    """Valid ORCID iDs (ISO 7064 MOD 11-2 check character)."""
    found = []
    for n in range(1, count + 1):
        digits = f"000000021825{n:03d}"
        total = 0
        for digit in digits:
            total = (total + int(digit)) * 2
        check = (12 - total % 11) % 11
        last = "X" if check == 10 else str(check)
        found.append(f"{digits[:4]}-{digits[4:8]}-{digits[8:12]}-{digits[12:]}{last}")
    return found


def orcid_json(orcid: str, given: str, family: str) -> dict[str, Any]:
    return {
        "orcid-identifier": {"path": orcid},
        "person": {"name": {"given-names": {"value": given}, "family-name": {"value": family}}},
    }


def orcid_xml(orcid: str, given: str, family: str) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<record:record xmlns:record="http://www.orcid.org/ns/record"
    xmlns:common="http://www.orcid.org/ns/common" xmlns:person="http://www.orcid.org/ns/person"
    xmlns:personal-details="http://www.orcid.org/ns/personal-details">
  <common:orcid-identifier><common:path>{orcid}</common:path></common:orcid-identifier>
  <person:person>
    <personal-details:name>
      <personal-details:given-names>{given}</personal-details:given-names>
      <personal-details:family-name>{family}</personal-details:family-name>
    </personal-details:name>
  </person:person>
</record:record>
"""


def json_lines(objects: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in objects).encode()
