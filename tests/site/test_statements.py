"""A page never sends more Cypher statements than its GraphQL twin: the query that asks the
API for everything the page shows."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.site.conftest import CLOCK, JSON, Client

# the page's JSON shows each author's counts and ORCID iD too (api.site.shapes.researcher)
AUTHOR = "node { id name orcid paperCount citationCount hIndex }"
AUTHORS = (
    "authors(first: 10) { totalCount edges { authorship { position method } " + AUTHOR + " } }"
)
PAPERS = (
    "papers(first: 24) { totalCount pageInfo { hasNextPage endCursor } edges { "
    "node { id title published year citationCount primaryCategory { code } " + AUTHORS + " } } }"
)
RESEARCHER = (
    """
query($id: ID!) { researcher(id: $id) {
  id name slug altNames orcid paperCount citationCount hIndex hIndexS2 hIndexOpenalex path
  identity { orcid s2Ids openalexIds mergedFrom externalIds { key scheme value method source } }
  authorPositions { first middle last solo alphabetical matchedPapers totalPapers coverage }
  fields { category { code name } papers primaryPapers }
  mostCited(first: 3) { coverage citations countedPapers totalPapers
                        papers { id title published citationCount } }
  sameName(first: 20) { blockSize records { researcher { id name paperCount hIndex }
                        probability rule markedDistinct evidence { text } } }
  coauthors(first: 24) { totalCount edges { jointPapers firstYear lastYear
                         node { id name paperCount } } }
  affiliations(first: 24) { edges { firstYear lastYear sources node { id name rorId } } }
  curationEvents(first: 20) { id kind actor reason at papers roles { role } }
  similarResearchers(first: 8, excludeCoauthors: true) { similarity
                     researcher { id name paperCount hIndex } }
  """
    + PAPERS.replace("edges { ", "edges { authorship { position kind } ", 1)
    + " } }"
)
PAPER = """
query($id: String!) { paper(id: $id) {
  id title abstract published year versions doi s2Id openalexId citationCount authorCount
  categories { primary category { code name } }
  authors(first: 100) { totalCount edges { authorship { position kind method rawName }
                        node { id name orcid paperCount citationCount hIndex } } }
  related(first: 8) { similarity paper { id title published year citationCount
                                         primaryCategory { code } } }
} }
"""
INSTITUTION = (
    """
query($ref: String!) { institution(ref: $ref) {
  id name slug rorId acronyms aliases countryCode city types
  parents { id name } children { id name }
  researchers(first: 24) { totalCount edges { node { id name paperCount hIndex } } }
  """
    + PAPERS
    + " } }"
)
CATEGORY = (
    "query($code: String!) { category(code: $code) { code name paperCount primaryPaperCount "
    + PAPERS
    + " } }"
)

TWINS: list[tuple[str, str, dict[str, Any]]] = [
    ("/researchers/2004394-ziming-liu", RESEARCHER, {"id": "2004394"}),
    ("/researchers/2004396-yang-you", RESEARCHER, {"id": "2004396"}),
    ("/papers/2301.08658-atp-adaptive-tensor-parallelism-for-foundation-models", PAPER,
     {"id": "2301.08658"}),
    ("/institutions/3-national-university-of-singapore", INSTITUTION, {"ref": "3"}),
    ("/categories/cs.DC", CATEGORY, {"code": "cs.DC"}),
]  # fmt: skip


Sent = tuple[Counter[str], Counter[str]]  # statements by name, and the named queries they ran


def sent(client: Client) -> Sent:
    return Counter(client.page_statements()), Counter(
        name for name in client.parts if name != CLOCK
    )


async def graphql_statements(client: Client, query: str, variables: dict[str, Any]) -> Sent:
    client.statements.clear()
    client.parts.clear()
    response = await client.http.post(
        "/graphql", json={"query": query, "variables": variables}, headers={"accept": JSON}
    )
    body = response.json()
    assert response.status_code == 200 and "errors" not in body, body
    return sent(client)


async def page_statements(client: Client, path: str, accept: str) -> Sent:
    client.statements.clear()
    client.parts.clear()
    response = await client.get(path, accept)
    assert response.status_code == 200, path
    return sent(client)


@pytest.mark.parametrize(("path", "query", "variables"), TWINS)
async def test_a_page_sends_no_more_statements_than_its_graphql_twin(
    client: Client, path: str, query: str, variables: dict[str, Any]
) -> None:
    twin, twin_queries = await graphql_statements(client, query, variables)
    for accept in ("text/html", JSON):
        page, page_queries = await page_statements(client, path, accept)
        assert page.total() <= twin.total(), (accept, page, twin)
        # and no question the API would not have asked
        assert all(page_queries[name] <= twin_queries[name] for name in page_queries), (
            accept,
            page_queries,
            twin_queries,
        )


async def test_the_researcher_page_asks_each_question_once(client: Client) -> None:
    page, queries = await page_statements(client, "/researchers/2004394-ziming-liu", "text/html")
    assert set(queries.values()) == {1}
    assert queries.total() == 11  # ten of the profile, one of similar researchers
    # in two statements: the researcher, then the rest of the page at once
    assert page.total() == 2, page
