"""The reference site's researcher page, field by field, against the test graph."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import Api
from tests.api.graphdata import (
    AHN,
    BERKELEY,
    CHENG,
    DU,
    HSIEH,
    MERGED_Z_LIU,
    NUS,
    YOU,
    ZHANG_LIU,
    ZIMING,
    ZIMING_MIT,
    ZIMING_PKU,
    ZIMING_TJU,
)

PAGE = """
query Page($id: ID!, $papers: Int = 24, $after: String, $category: String) {
  researcher(id: $id) {
    id: key name slug orcid paperCount citationCount hIndexS2 altNames
    identity { orcid s2Ids openalexIds mergedFrom externalIds { key method methodDescription } }
    authorPositions { first middle last solo alphabetical matchedPapers totalPapers coverage }
    fields { category { code name } papers primaryPapers }
    mostCited(first: 2) {
      citations countedPapers totalPapers coverage papers { id: key citationCount }
    }
    sameName {
      blockSize
      records {
        researcher { id: key name paperCount hIndex }
        probability logOdds rule markedDistinct
        evidence { feature value weight text }
      }
    }
    papers(first: $papers, after: $after, category: $category) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor authorship { position kind method pinned } node { id: key published } }
    }
  }
}
"""


async def page(api: Api, researcher: int, **variables: Any) -> dict[str, Any]:
    data = await api.data(PAGE, {"id": str(researcher), **variables})
    result: dict[str, Any] = data["researcher"]
    return result


async def test_the_reference_researcher(api: Api) -> None:
    me = await page(api, ZIMING)
    assert (me["name"], me["slug"], me["paperCount"], me["hIndexS2"]) == (
        "Ziming Liu",
        "ziming-liu",
        1,
        1,
    )
    assert me["authorPositions"] == {
        "first": 0,
        "middle": 1,
        "last": 0,
        "solo": 0,
        "alphabetical": 0,
        "matchedPapers": 1,
        "totalPapers": 1,
        "coverage": "across the 1 of 1 papers where every author is matched",
    }
    assert me["fields"] == [
        {
            "category": {"code": "cs.DC", "name": "Distributed, Parallel, and Cluster Computing"},
            "papers": 1,
            "primaryPapers": 1,
        }
    ]
    identity = me["identity"]
    assert identity["mergedFrom"] == [str(MERGED_Z_LIU)]
    assert [x["key"] for x in identity["externalIds"]] == [
        "openalex:A5047541380",
        "orcid:0009-0009-3355-6770",
        "s2:2116463213",
    ]
    assert identity["externalIds"][1]["methodDescription"] == "same ORCID iD"
    assert [e["node"]["id"] for e in me["papers"]["edges"]] == ["2301.08658"]
    assert me["papers"]["edges"][0]["authorship"] == {
        "position": 2,
        "kind": "MIDDLE",
        "method": "ORCID",
        "pinned": False,
    }


async def test_author_positions_count_alphabetical_and_unmatched_papers_apart(api: Api) -> None:
    positions = (await page(api, YOU))["authorPositions"]
    # Six papers; 2302.00009 has an unmatched author; 2210.00008 lists authors by surname.
    assert positions == {
        "first": 2,
        "middle": 0,
        "last": 2,
        "solo": 0,
        "alphabetical": 1,
        "matchedPapers": 5,
        "totalPapers": 6,
        "coverage": "across the 5 of 6 papers where every author is matched",
    }
    counted = positions["first"] + positions["middle"] + positions["last"] + positions["solo"]
    assert counted + positions["alphabetical"] == positions["matchedPapers"]


async def test_fields_and_most_cited_with_coverage(api: Api) -> None:
    me = await page(api, YOU)
    assert [(f["category"]["code"], f["papers"], f["primaryPapers"]) for f in me["fields"]] == [
        ("cs.DC", 4, 4),
        ("cs.LG", 3, 2),
    ]
    cited = me["mostCited"]
    # 2107.00007 has no citation count: five of six papers are counted.
    assert (cited["countedPapers"], cited["totalPapers"]) == (5, 6)
    assert cited["citations"] == 12 + 900 + 70 + 3 + 1
    assert [p["id"] for p in cited["papers"]] == ["1905.00001", "2004.00004"]
    assert cited["coverage"] == "986 citations across the 5 of 6 papers we have counts for"


async def test_same_name_records_are_scored_with_evidence(api: Api) -> None:
    same = (await page(api, ZIMING))["sameName"]
    records = {int(r["researcher"]["id"]): r for r in same["records"]}
    # Zhang Liu shares the name block but not the name; the merged-away Z. Liu is not listed.
    assert set(records) == {ZIMING_MIT, ZIMING_PKU, ZIMING_TJU}
    assert ZHANG_LIU not in records and MERGED_Z_LIU not in records
    assert same["blockSize"] == 4
    assert records[ZIMING_MIT]["researcher"] == {
        "id": str(ZIMING_MIT),
        "name": "Ziming Liu",
        "paperCount": 42,
        "hIndex": 17,
    }
    # The Ziming Liu with the same affiliation, coauthors and field is very likely the same
    # person; the MIT and PKU ones are likely not.
    assert records[ZIMING_TJU]["probability"] > 0.9
    assert records[ZIMING_MIT]["probability"] < 0.2
    assert records[ZIMING_PKU]["probability"] < 0.2
    for record in records.values():
        features = [e["feature"] for e in record["evidence"]]
        assert features[0] == "name"
        assert abs(sum(e["weight"] for e in record["evidence"]) - record["logOdds"]) < 1e-9
        assert record["markedDistinct"] is False
    coauthors = next(e for e in records[ZIMING_TJU]["evidence"] if e["feature"] == "coauthors")
    assert coauthors["text"] == "2 shared coauthors"


async def test_papers_are_paged_newest_first_with_keyset_cursors(api: Api) -> None:
    whole = (await page(api, YOU, papers=10))["papers"]
    assert whole["totalCount"] == 6
    expected = ["2302.00009", "2301.08658", "2210.00008", "2107.00007", "2004.00004", "1905.00001"]
    assert [e["node"]["id"] for e in whole["edges"]] == expected
    seen: list[str] = []
    after = None
    while True:
        chunk = (await page(api, YOU, papers=4, after=after))["papers"]
        seen.extend(e["node"]["id"] for e in chunk["edges"])
        assert chunk["pageInfo"]["hasPreviousPage"] is (after is not None)
        if not chunk["pageInfo"]["hasNextPage"]:
            break
        after = chunk["pageInfo"]["endCursor"]
        assert after == chunk["edges"][-1]["cursor"]
    assert seen == expected


async def test_papers_filter_by_category(api: Api) -> None:
    papers = (await page(api, YOU, category="cs.LG"))["papers"]
    assert papers["totalCount"] == 3
    assert [e["node"]["id"] for e in papers["edges"]] == ["2107.00007", "2004.00004", "1905.00001"]


COAUTHORS = """
query($id: ID!, $first: Int!, $after: String, $min: Int = 1) {
  researcher(id: $id) {
    coauthors(first: $first, after: $after, minJointPapers: $min) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { jointPapers firstYear lastYear node { id: key name } }
    }
    affiliations { totalCount edges { node { id: key name } sources firstYear lastYear } }
  }
}
"""


async def test_coauthors_with_joint_papers_and_years(api: Api) -> None:
    data = await api.data(COAUTHORS, {"id": str(YOU), "first": 3})
    coauthors = data["researcher"]["coauthors"]
    assert coauthors["totalCount"] == 9
    assert coauthors["edges"][0] == {
        "jointPapers": 2,
        "firstYear": 2020,
        "lastYear": 2021,
        "node": {"id": str(HSIEH), "name": "Cho-Jui Hsieh"},
    }
    # Ties on joint papers come by id.
    assert [int(e["node"]["id"]) for e in coauthors["edges"][1:]] == [CHENG, ZIMING]
    rest = await api.data(
        COAUTHORS, {"id": str(YOU), "first": 20, "after": coauthors["pageInfo"]["endCursor"]}
    )
    ids = [int(e["node"]["id"]) for e in rest["researcher"]["coauthors"]["edges"]]
    assert len(ids) == 6 and DU in ids and AHN in ids
    assert rest["researcher"]["coauthors"]["pageInfo"]["hasNextPage"] is False
    strong = await api.data(COAUTHORS, {"id": str(YOU), "first": 5, "min": 2})
    assert strong["researcher"]["coauthors"]["totalCount"] == 1


async def test_affiliations_most_recent_first(api: Api) -> None:
    data = await api.data(COAUTHORS, {"id": str(YOU), "first": 1})
    affiliations = data["researcher"]["affiliations"]
    assert affiliations["totalCount"] == 2
    assert [
        (int(e["node"]["id"]), e["firstYear"], e["lastYear"]) for e in affiliations["edges"]
    ] == [
        (NUS, 2021, 2023),
        (BERKELEY, 2015, 2020),
    ]
    assert affiliations["edges"][0]["sources"] == ["OPENALEX"]


async def test_institution_lists_its_researchers_and_papers(api: Api) -> None:
    data = await api.data(
        """
        query($ref: String!) {
          institution(ref: $ref) {
            researchers(first: 2) { totalCount edges { node { name paperCount } } }
            papers(first: 10, yearFrom: 2016) { totalCount edges { node { id: key } } }
          }
        }
        """,
        {"ref": "01an7q238"},
    )
    institution = data["institution"]
    assert institution["researchers"]["totalCount"] == 4
    assert institution["researchers"]["edges"][0]["node"] == {"name": "Yang You", "paperCount": 6}
    # Papers with an author at Berkeley in the paper's year, from 2016 on.
    ids = [e["node"]["id"] for e in institution["papers"]["edges"]]
    assert ids == ["2109.00006", "2105.00005", "2004.00004", "1905.00001"]
    assert institution["papers"]["totalCount"] == 4
