"""Every query the explorer sends (web/src/api.ts) runs on the test graph without errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.api.conftest import Api
from tests.api.graphdata import HSIEH, YOU

SOURCE = (Path(__file__).resolve().parents[2] / "web" / "src" / "api.ts").read_text()
_PIECES = {
    **dict(re.findall(r'const (\w+) = "([^"]*)";', SOURCE)),
    **dict(re.findall(r"const (\w+) = `([^`]*)`;", SOURCE)),
}


def query(name: str) -> str:
    text = dict(re.findall(r"export const (\w+) = `([^`]*)`;", SOURCE))[name]
    while "${" in text:
        text = re.sub(r"\$\{(\w+)\}", lambda m: _PIECES[m.group(1)], text)
    return text


NETWORK = {"depth": 1, "maxNodes": 200, "minJointPapers": 1}


@pytest.mark.parametrize(
    ("name", "variables"),
    [
        ("SEARCH", {"query": "yang you"}),
        ("LOOKUP", {"id": str(YOU)}),
        ("NETWORK", {"id": str(YOU), **NETWORK}),
        ("RESEARCHER_PAGE", {"id": str(YOU)}),
        ("SAME_NAME", {"id": str(YOU)}),
        ("PATH", {"from": str(YOU), "to": str(HSIEH), "k": 2, "strongest": False}),
    ],
)
async def test_the_explorers_queries_run(api: Api, name: str, variables: dict[str, object]) -> None:
    data = await api.data(query(name), variables)
    assert all(value is not None for value in data.values()), data
