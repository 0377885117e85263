"""A paper's authors asked for by id, name and slug only are fetched brief, and answer as the
full records do; anything more, however it is selected, fetches the full records."""

from __future__ import annotations

import pytest

from tests.api.conftest import Api

BRIEF = "read_papers.brief_author_pages"
FULL = "read_papers.author_pages"
COMMON = "id key name slug path __typename"


def _authors(arguments: str, node: str, extra: str = "") -> str:
    return f"""
    query {{ paper(id: "2301.08658") {{
      authors{arguments} {{ totalCount
                            edges {{ cursor authorship {{ position }} node {{ {node} }} }}
                            nodes {{ {node} }} pageInfo {{ hasNextPage endCursor }} }}
    }} }}
    {extra}
    """


def _common(data: dict[str, object]) -> object:
    """The answer with every author cut to the brief fields."""
    keep = set(COMMON.split())

    def cut(value: object) -> object:
        if isinstance(value, dict):
            is_author = "slug" in value and "name" in value
            return {k: cut(v) for k, v in value.items() if not is_author or k in keep}
        if isinstance(value, list):
            return [cut(item) for item in value]
        return value

    return cut(data)


@pytest.mark.parametrize("arguments", ["", "(first: 2)", "(last: 2)", "(first: 1, after: null)"])
async def test_brief_authors_answer_as_the_full_records_do(api: Api, arguments: str) -> None:
    api.statements.clear()
    brief = await api.data(_authors(arguments, COMMON))
    brief_statements = [s for s in api.statements if "author_pages" in s]
    api.statements.clear()
    full = await api.data(_authors(arguments, f"{COMMON} orcid paperCount"))
    full_statements = [s for s in api.statements if "author_pages" in s]
    assert brief == _common(full)
    assert brief["paper"]["authors"]["edges"], "the reference paper has authors"
    backward = "_backward" if "last" in arguments else ""
    assert brief_statements == [BRIEF + backward]
    assert full_statements == [FULL + backward]


@pytest.mark.parametrize(
    ("node", "extra"),
    [
        ("...Who", "fragment Who on Researcher { name orcid }"),
        ("... on Researcher { hIndex }", ""),
        ("name identity { orcid }", ""),
    ],
)
async def test_anything_more_fetches_the_full_records(api: Api, node: str, extra: str) -> None:
    api.statements.clear()
    await api.data(_authors("", node, extra))
    assert [s for s in api.statements if "author_pages" in s] == [FULL]


async def test_a_fragment_of_brief_fields_stays_brief(api: Api) -> None:
    api.statements.clear()
    data = await api.data(_authors("", "...Who", "fragment Who on Researcher { name slug }"))
    assert [s for s in api.statements if "author_pages" in s] == [BRIEF]
    names = [edge["node"]["name"] for edge in data["paper"]["authors"]["edges"]]
    assert len(names) == 4 and all(names)
