"""ORCID records, works and employments; ROR organisations, dumps and the matcher."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.loaders.parse.files import iter_bulk_files
from scholargraph.graph.loaders.parse.orcid import (
    orcid_payload,
    orcid_work_ids,
    parse_orcid_employments,
    parse_orcid_person,
    parse_orcid_record,
)
from scholargraph.graph.loaders.parse.ror import (
    chosen_organization,
    parse_ror_payload,
    parse_ror_record,
)
from scholargraph.graph.records import InstitutionRef

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
DAY = date(2026, 1, 15)
CARBERRY = "0000-0002-1825-0097"


def external_id(kind: str, value: str, relationship: str = "self") -> dict[str, Any]:
    return {
        "external-id-type": kind,
        "external-id-value": value,
        "external-id-url": None,
        "external-id-relationship": relationship,
    }


def employment(
    organization: dict[str, Any], start: str | None, end: str | None, role: str | None
) -> dict[str, Any]:
    return {
        "summaries": [
            {
                "employment-summary": {
                    "role-title": role,
                    "start-date": {"year": {"value": start}} if start else None,
                    "end-date": {"year": {"value": end}} if end else None,
                    "organization": organization,
                }
            }
        ]
    }


BROWN = {
    "name": "Brown University",
    "address": {"city": "Providence", "region": "RI", "country": "US"},
    "disambiguated-organization": {
        "disambiguated-organization-identifier": "https://ror.org/05gq02987",
        "disambiguation-source": "ROR",
    },
}
WESLEYAN = {
    "name": "Wesleyan University",
    "address": {"country": "US"},
    "disambiguated-organization": {
        "disambiguated-organization-identifier": "7343",
        "disambiguation-source": "RINGGOLD",
    },
}

RECORD: dict[str, Any] = {
    "orcid-identifier": {
        "uri": f"https://orcid.org/{CARBERRY}",
        "path": CARBERRY,
        "host": "orcid.org",
    },
    "history": {"last-modified-date": {"value": 1700000000000}},
    "person": {
        "name": {
            "given-names": {"value": "Josiah"},
            "family-name": {"value": "Carberry"},
            "credit-name": {"value": "J.\u00a0S. Carberry"},
        },
        "other-names": {
            "other-name": [{"content": "Josiah Stinkney Carberry"}, {"content": "J. S. Carberry"}]
        },
    },
    "activities-summary": {
        "employments": {
            "affiliation-group": [
                employment(BROWN, "1929", None, "Professor of Psychoceramics"),
                employment(WESLEYAN, "1920", "1928", None),
                employment({"name": None}, "1910", None, None),
            ]
        },
        "works": {
            "group": [
                {
                    "external-ids": {
                        "external-id": [
                            external_id("arxiv", "arXiv:2301.08658v2"),
                            external_id("doi", "https://doi.org/10.1000/ABC", "version-of"),
                        ]
                    },
                    "work-summary": [
                        {"external-ids": {"external-id": [external_id("arxiv", "2301.08658")]}},
                        {
                            "external-ids": {
                                "external-id": [external_id("arxiv", "math.CO/9901016")]
                            }
                        },
                    ],
                },
                {
                    "external-ids": {
                        "external-id": [
                            external_id("doi", "10.1000/book", "part-of"),
                            external_id("doi", "work:doi"),
                            external_id("pmid", "12345"),
                            external_id("arxiv", "123456"),
                        ]
                    }
                },
            ]
        },
    },
}

RECORD_XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<record:record path="/{CARBERRY}" xmlns:record="http://www.orcid.org/ns/record"
    xmlns:common="http://www.orcid.org/ns/common" xmlns:person="http://www.orcid.org/ns/person"
    xmlns:personal-details="http://www.orcid.org/ns/personal-details"
    xmlns:other-name="http://www.orcid.org/ns/other-name"
    xmlns:activities="http://www.orcid.org/ns/activities"
    xmlns:employment="http://www.orcid.org/ns/employment" xmlns:work="http://www.orcid.org/ns/work">
  <common:orcid-identifier><common:path>{CARBERRY}</common:path></common:orcid-identifier>
  <person:person>
    <person:name visibility="public">
      <personal-details:given-names>Josiah</personal-details:given-names>
      <personal-details:family-name>Carberry</personal-details:family-name>
    </person:name>
    <other-name:other-names>
      <other-name:other-name put-code="1">
        <other-name:content>Jos. Carberry</other-name:content>
      </other-name:other-name>
    </other-name:other-names>
  </person:person>
  <activities:activities-summary>
    <activities:employments>
      <activities:affiliation-group>
        <employment:employment-summary put-code="7">
          <common:role-title>Professor</common:role-title>
          <common:start-date><common:year>1929</common:year></common:start-date>
          <common:organization>
            <common:name>Brown University</common:name>
            <common:address><common:country>US</common:country></common:address>
            <common:disambiguated-organization>
              <common:disambiguated-organization-identifier>05gq02987</common:disambiguated-organization-identifier>
              <common:disambiguation-source>ROR</common:disambiguation-source>
            </common:disambiguated-organization>
          </common:organization>
        </employment:employment-summary>
      </activities:affiliation-group>
    </activities:employments>
    <activities:works>
      <activities:group>
        <common:external-ids>
          <common:external-id>
            <common:external-id-type>arxiv</common:external-id-type>
            <common:external-id-value>astro-ph/9901001</common:external-id-value>
            <common:external-id-relationship>self</common:external-id-relationship>
          </common:external-id>
        </common:external-ids>
        <work:work-summary put-code="9">
          <work:title><common:title>A</common:title></work:title>
        </work:work-summary>
      </activities:group>
    </activities:works>
  </activities:activities-summary>
</record:record>"""


def test_parse_orcid_person_names() -> None:
    author = parse_orcid_person(RECORD)
    assert (author.name, author.orcid, author.source) == ("J. S. Carberry", CARBERRY, "orcid")
    assert author.alt_names == ("Josiah Carberry", "Josiah Stinkney Carberry")
    assert author.retrieved == date(2023, 11, 14)  # the record's last modification
    assert parse_orcid_person(RECORD, retrieved=DAY).retrieved == DAY


def test_parse_orcid_person_rejections() -> None:
    private = {**RECORD, "person": {"name": None}}
    with pytest.raises(RecordRejected, match="not public"):
        parse_orcid_person(private)
    bad_checksum = {**RECORD, "orcid-identifier": {"path": "0000-0002-1825-0098"}}
    with pytest.raises(RecordRejected, match="no valid ORCID"):
        parse_orcid_person(bad_checksum)


def test_orcid_work_ids() -> None:
    ids = orcid_work_ids(RECORD)
    assert ids.arxiv_ids == ("2301.08658", "math/9901016")
    assert ids.dois == ("10.1000/abc",)  # part-of (the book) does not count
    assert sorted(r.reason for r in ids.rejected) == [
        "work arxiv id '123456' is not a valid arxiv id",
        "work doi id 'work:doi' is not a valid doi id",
    ]
    assert {r.ref for r in ids.rejected} == {CARBERRY}


def test_parse_orcid_employments_with_ror() -> None:
    author = parse_orcid_person(RECORD)
    affiliations = parse_orcid_employments(RECORD, author)
    assert [(a.institution, a.first_year, a.last_year, a.role) for a in affiliations] == [
        (
            InstitutionRef(ror_id="05gq02987", name="Brown University", country_code="US"),
            1929,
            None,
            "Professor of Psychoceramics",
        ),
        (InstitutionRef(name="Wesleyan University", country_code="US"), 1920, 1928, None),
    ]
    assert all(a.source == "orcid" and a.author is author for a in affiliations)
    # An /employments document alone reads the same.
    alone = parse_orcid_employments(RECORD["activities-summary"]["employments"], author)
    assert alone == affiliations


def test_parse_orcid_record_xml_reads_like_json() -> None:
    batch = parse_orcid_record(RECORD_XML.encode("utf-8"), retrieved=DAY)
    [author] = batch.authors
    assert (author.name, author.orcid, author.alt_names, author.retrieved) == (
        "Josiah Carberry",
        CARBERRY,
        ("Jos. Carberry",),
        DAY,
    )
    [affiliation] = batch.affiliations
    assert affiliation.institution.ror_id == "05gq02987"
    assert (affiliation.first_year, affiliation.role) == (1929, "Professor")
    assert orcid_work_ids(orcid_payload(RECORD_XML)).arxiv_ids == ("astro-ph/9901001",)


def test_parse_orcid_record_rejections() -> None:
    error = parse_orcid_record({"response-code": 404, "developer-message": "404 Not Found: orcid"})
    assert error.rejected[0].reason == "ORCID API error: 404 Not Found: orcid"
    malformed = parse_orcid_record("<record:record xmlns:record='x'>")
    assert "malformed XML" in malformed.rejected[0].reason
    assert not malformed.authors


# --- ROR ----------------------------------------------------------------------------


def ror_record(**change: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": "https://ror.org/00cvxb145",
        "status": "active",
        "established": 1861,
        "types": ["education", "funder"],
        "names": [
            {"value": "UW", "types": ["acronym"], "lang": None},
            {"value": "University of Washington", "types": ["ror_display", "label"], "lang": "en"},
            {"value": "Universidad de Washington", "types": ["label"], "lang": "es"},
            {"value": "U\u2010Dub", "types": ["alias"], "lang": None},
        ],
        "relationships": [
            {"type": "child", "label": "UW Medicine", "id": "https://ror.org/05wf30g94"},
            {"type": "parent", "label": "System", "id": "https://ror.org/01abcde12"},
            {"type": "related", "label": "Hospital", "id": "https://ror.org/02xyzab34"},
            {"type": "successor", "label": "Later", "id": "https://ror.org/03zzzzz56"},
            {"type": "child", "label": "Bad", "id": "not-a-ror-id"},
        ],
        "locations": [
            {"geonames_id": 5809844, "geonames_details": {"name": "Seattle", "country_code": "US"}}
        ],
        "admin": {"last_modified": {"date": "2025-06-30", "schema_version": "2.1"}},
    }
    record.update(change)
    return record


def test_parse_ror_record() -> None:
    institution = parse_ror_record(ror_record())
    assert (institution.name, institution.ror_id, institution.source) == (
        "University of Washington",
        "00cvxb145",
        "ror",
    )
    assert (institution.acronyms, institution.aliases, institution.labels) == (
        ("UW",),
        ("U-Dub",),
        ("Universidad de Washington",),
    )
    assert (institution.country_code, institution.city) == ("US", "Seattle")
    assert (institution.types, institution.status, institution.established) == (
        ("education", "funder"),
        "active",
        1861,
    )
    assert (institution.parent_ids, institution.child_ids, institution.related_ids) == (
        ("01abcde12",),
        ("05wf30g94",),
        ("02xyzab34",),
    )
    assert institution.retrieved == date(2025, 6, 30)


def test_parse_ror_record_fallbacks_and_rejections() -> None:
    label_only = ror_record(
        names=[{"value": "Institut X", "types": ["label"]}], locations=[], admin=None
    )
    institution = parse_ror_record(label_only, retrieved=DAY)
    assert (
        institution.name,
        institution.labels,
        institution.country_code,
        institution.retrieved,
    ) == (
        "Institut X",
        (),
        None,
        DAY,
    )
    assert parse_ror_record(ror_record(status="withdrawn")).status == "withdrawn"
    with pytest.raises(RecordRejected, match="no valid ROR id"):
        parse_ror_record(ror_record(id="https://ror.org/INVALID"))
    with pytest.raises(RecordRejected, match="no ror_display or label"):
        parse_ror_record(ror_record(names=[{"value": "UW", "types": ["acronym"]}]))
    v1 = {"id": "https://ror.org/00cvxb145", "name": "University of Washington", "labels": []}
    with pytest.raises(RecordRejected, match="v1 record"):
        parse_ror_record(v1)


def test_affiliation_matcher_trusts_chosen_only() -> None:
    def item(ror_id: str, score: float, chosen: bool) -> dict[str, Any]:
        return {
            "score": score,
            "matching_type": "FUZZY",
            "chosen": chosen,
            "substring": "Univ. of Washington",
            "organization": ror_record(id=f"https://ror.org/{ror_id}"),
        }

    response = {
        "number_of_results": 2,
        "items": [item("00cvxb145", 0.99, False), item("05wf30g94", 0.9, True)],
    }
    chosen = chosen_organization(response)
    assert chosen is not None
    assert chosen.ror_id == "05wf30g94"
    assert [i.ror_id for i in parse_ror_payload(response).institutions] == ["05wf30g94"]
    undecided = {"number_of_results": 1, "items": [item("00cvxb145", 0.99, False)]}
    assert chosen_organization(undecided) is None
    batch = parse_ror_payload(undecided)
    assert (batch.institutions, batch.rejected) == ([], [])
    assert chosen_organization({"number_of_results": 0, "items": []}) is None


def test_parse_ror_payload_shapes() -> None:
    page = parse_ror_payload(
        {"number_of_results": 2, "items": [ror_record(), ror_record(id="bad")]}
    )
    assert [i.ror_id for i in page.institutions] == ["00cvxb145"]
    assert [(r.ref, r.reason) for r in page.rejected] == [("bad", "no valid ROR id")]
    dump = parse_ror_payload([ror_record(), 7])
    assert (len(dump.institutions), dump.rejected[0].ref) == (1, "#1")
    hits = parse_ror_payload({"hits": {"hits": [{"_source": ror_record()}]}})
    assert len(hits.institutions) == 1
    error = parse_ror_payload({"errors": ["'x' is not a valid ROR ID"]})
    assert error.rejected[0].reason == "ROR API error: 'x' is not a valid ROR ID"


def test_bulk_ror_dump_array_and_lines(tmp_path: Path) -> None:
    (tmp_path / "v2-ror-data.json").write_text(
        json.dumps([ror_record(), ror_record(id="https://ror.org/05wf30g94")])
    )
    (tmp_path / "part.jsonl").write_text(json.dumps(ror_record()) + "\n" + "not json\n")
    results = {path.name: batch for path, batch in iter_bulk_files([tmp_path])}
    assert len(results["v2-ror-data.json"].institutions) == 2
    assert len(results["part.jsonl"].institutions) == 1
    assert results["part.jsonl"].rejected[0].source == "ror"


# --- recorded data ------------------------------------------------------------------

ORCID_SAMPLES = SHARED / "orcid" / "orcid-model-samples" / "record_3.0" / "samples"


@pytest.mark.shared
def test_shared_orcid_samples_parse() -> None:
    files = sorted(p for p in ORCID_SAMPLES.rglob("*") if p.suffix in (".xml", ".json"))
    assert len(files) == 102
    for path in files:
        data = json.loads(path.read_text()) if path.suffix == ".json" else path.read_bytes()
        payload = orcid_payload(data)  # every sample is readable
        ids = orcid_work_ids(payload)
        assert all(r.reason.startswith("work ") for r in ids.rejected), path
    record = parse_orcid_record((ORCID_SAMPLES / "read_samples" / "record-3.0.xml").read_bytes())
    [author] = record.authors
    assert (author.orcid, author.name) == ("8888-8888-8888-8880", "credit-name")
    assert author.alt_names == ("give-names family-name", "other-name-1")
    assert [a.institution.name for a in record.affiliations] == ["employment-org"]
    full = json.loads((ORCID_SAMPLES / "read_samples" / "record-full-3.0.json").read_text())
    [three] = parse_orcid_record(full).authors
    assert (three.orcid, three.name) == ("0000-0002-7319-2192", "Three releasecandidate1")
    assert orcid_work_ids(full).dois == ("10.1087/20120404",)
    works = orcid_payload((ORCID_SAMPLES / "read_samples" / "works-3.0.xml").read_bytes())
    assert [r.reason for r in orcid_work_ids(works).rejected] == [
        "work arxiv id '123456' is not a valid arxiv id"
    ]


@pytest.mark.shared
def test_shared_ror_v2_records() -> None:
    folder = SHARED / "ror" / "ror-records-v2-latest"
    batches = [batch for _, batch in iter_bulk_files([folder])]
    institutions = [i for b in batches for i in b.institutions]
    assert [r for b in batches for r in b.rejected] == []
    manifest = (folder / "manifest.tsv").read_text().splitlines()[1:]
    assert len(institutions) == len({i.ror_id for i in institutions}) == len(manifest) == 13503
    assert Counter(i.status for i in institutions) == {
        "active": 13211,
        "inactive": 221,
        "withdrawn": 71,
    }
    assert all(i.name and i.retrieved and i.source == "ror" for i in institutions)
    assert sum(bool(i.country_code) for i in institutions) == len(institutions)
    tsri = next(i for i in institutions if i.ror_id == "000025p04")
    assert (tsri.name, tsri.acronyms, tsri.country_code, tsri.established) == (
        "Thailand Science Research and Innovation",
        ("TSRI",),
        "TH",
        2019,
    )


@pytest.mark.shared
def test_shared_ror_search_index_records() -> None:
    folder = SHARED / "ror" / "ror-api-tests" / "tests_unit" / "data"
    v2 = parse_ror_payload(json.loads((folder / "test_data_search_es7_v2.json").read_text()))
    assert len(v2.institutions) == 20
    assert not v2.rejected
    monash = next(i for i in v2.institutions if i.name == "Monash University")
    assert (monash.ror_id, monash.country_code, monash.city) == ("02bfwt286", "AU", "Melbourne")
    assert len(monash.child_ids) == 5
    v1 = parse_ror_payload(json.loads((folder / "test_data_search_es7.json").read_text()))
    assert not v1.institutions
    assert {r.reason for r in v1.rejected} == {"a ROR v1 record; only the v2 schema is read"}
