"""Root look-ups: every id form resolves; unknown and malformed ids answer with codes."""

from __future__ import annotations

import pytest

from tests.api.conftest import Api
from tests.api.graphdata import (
    BERKELEY,
    MERGED_Z_LIU,
    NUS,
    NUS_SOC,
    ZIMING,
    ZIMING_ORCID,
)

PAPER = "query($id: String!) { paper(id: $id) { id: key arxivId title year url authorCount } }"


@pytest.mark.parametrize(
    "ref",
    [
        "2301.08658",
        "2301.08658v2",
        "arXiv:2301.08658",
        "https://arxiv.org/abs/2301.08658v1",
        "10.48550/arXiv.2301.08658",
        "https://doi.org/10.48550/ARXIV.2301.08658",
    ],
)
async def test_paper_resolves_from_any_id_form(api: Api, ref: str) -> None:
    data = await api.data(PAPER, {"id": ref})
    assert data["paper"] == {
        "id": "2301.08658",
        "arxivId": "2301.08658",
        "title": "ATP: Adaptive Tensor Parallelism for Foundation Models",
        "year": 2023,
        "url": "https://arxiv.org/abs/2301.08658",
        "authorCount": 4,
    }


async def test_old_style_paper_id(api: Api) -> None:
    data = await api.data(PAPER, {"id": "astro-ph/9901001v2"})
    assert data["paper"]["id"] == "astro-ph/9901001"
    assert data["paper"]["year"] == 1999


async def test_unknown_paper_is_not_found_and_garbage_is_bad_input(api: Api) -> None:
    body, errors = await api.errors(PAPER, {"id": "2401.99999"})
    assert body["data"] == {"paper": None}
    assert api.codes(errors) == ["NOT_FOUND"]
    assert errors[0]["path"] == ["paper"]
    _, errors = await api.errors(PAPER, {"id": "not a paper"})
    assert api.codes(errors) == ["BAD_INPUT"]
    assert "arXiv id" in errors[0]["message"]


RESEARCHER = """
query($id: ID, $orcid: String, $s2: String, $openalex: String) {
  researcher(id: $id, orcid: $orcid, s2Id: $s2, openalexId: $openalex) { id: key name path orcid }
}
"""


@pytest.mark.parametrize(
    "variables",
    [
        {"id": str(ZIMING)},
        {"id": f"{ZIMING}-ziming-liu"},
        {"id": f"/researchers/{ZIMING}-ziming-liu"},
        {"orcid": ZIMING_ORCID},
        {"orcid": f"https://orcid.org/{ZIMING_ORCID}"},
        {"s2": "2116463213"},
        {"openalex": "https://openalex.org/A5047541380"},
        {"id": str(MERGED_Z_LIU)},  # merged away: resolves to the survivor
        {"s2": "999999"},  # an id of the merged-away record
    ],
)
async def test_researcher_resolves_from_any_id(api: Api, variables: dict[str, str]) -> None:
    data = await api.data(RESEARCHER, variables)
    assert data["researcher"] == {
        "id": str(ZIMING),
        "name": "Ziming Liu",
        "path": f"/researchers/{ZIMING}-ziming-liu",
        "orcid": ZIMING_ORCID,
    }


@pytest.mark.parametrize(
    ("variables", "code"),
    [
        ({}, "BAD_INPUT"),
        ({"id": str(ZIMING), "orcid": ZIMING_ORCID}, "BAD_INPUT"),
        ({"id": "ziming"}, "BAD_INPUT"),
        ({"orcid": "0009-0009-3355-6771"}, "BAD_INPUT"),  # checksum
        ({"id": "999"}, "NOT_FOUND"),
        ({"s2": "123"}, "NOT_FOUND"),
    ],
)
async def test_researcher_errors(api: Api, variables: dict[str, str], code: str) -> None:
    body, errors = await api.errors(RESEARCHER, variables)
    assert body["data"] == {"researcher": None}
    assert api.codes(errors) == [code]


INSTITUTION = """
query($ref: String!) {
  institution(ref: $ref) {
    id: key name rorId rorUrl acronyms countryCode
    parents { id: key } children { id: key name }
  }
}
"""


@pytest.mark.parametrize(
    "ref",
    [
        str(NUS),
        f"{NUS}-national-university-of-singapore",
        "01tgyzw49",
        "https://ror.org/01tgyzw49",
        "National University of Singapore",
        "national university of singapore",
        "NUS",
    ],
)
async def test_institution_resolves_from_id_ror_or_name(api: Api, ref: str) -> None:
    data = await api.data(INSTITUTION, {"ref": ref})
    assert data["institution"] == {
        "id": str(NUS),
        "name": "National University of Singapore",
        "rorId": "01tgyzw49",
        "rorUrl": "https://ror.org/01tgyzw49",
        "acronyms": ["NUS"],
        "countryCode": "SG",
        "parents": [],
        "children": [{"id": str(NUS_SOC), "name": "NUS School of Computing"}],
    }


async def test_institution_by_alias_and_part_of(api: Api) -> None:
    data = await api.data(INSTITUTION, {"ref": "UC Berkeley"})
    assert data["institution"]["id"] == str(BERKELEY)
    data = await api.data(INSTITUTION, {"ref": str(NUS_SOC)})
    assert data["institution"]["parents"] == [{"id": str(NUS)}]


async def test_unknown_institution_suggests_near_names(api: Api) -> None:
    _, errors = await api.errors(INSTITUTION, {"ref": "University of California"})
    assert api.codes(errors) == ["NOT_FOUND"]
    assert "did you mean" in errors[0]["message"]
    assert "Berkeley" in errors[0]["message"]
    _, errors = await api.errors(INSTITUTION, {"ref": "999"})
    assert api.codes(errors) == ["NOT_FOUND"]


CATEGORY = """
query($code: String!) {
  category(code: $code) {
    code name archive { code name group } paperCount primaryPaperCount
    papers(first: 2) { totalCount edges { node { id: key } } }
  }
}
"""


async def test_category_with_its_archive_counts_and_papers(api: Api) -> None:
    data = await api.data(CATEGORY, {"code": "cs.LG"})
    category = data["category"]
    assert category["name"] == "Machine Learning"
    assert category["archive"] == {
        "code": "cs",
        "name": "Computer Science",
        "group": "Computer Science",
    }
    assert (category["paperCount"], category["primaryPaperCount"]) == (5, 3)
    papers = category["papers"]
    assert papers["totalCount"] == 5
    assert [e["node"]["id"] for e in papers["edges"]] == ["2109.00006", "2107.00007"]


async def test_unknown_category_is_not_found_with_a_suggestion(api: Api) -> None:
    _, errors = await api.errors(CATEGORY, {"code": "cs.dc"})
    assert api.codes(errors) == ["NOT_FOUND"]
    assert "cs.DC" in errors[0]["message"]
