"""The reference site in Debian's Chromium: every page type and the 404 (no console error,
axe-core, a screenshot each in ``test-artifacts/site-*.png``), and a walk from the home page
to a researcher, a coauthor, a paper and an institution and back with the browser's buttons.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.api.graphdata import BERKELEY, HSIEH, INSTITUTIONS, KEUTZER, PAPERS, YOU
from tests.web.conftest import TEX_PAPER, assert_screenshots, clear_screenshots, run_node, spec_env
from tests.web.test_explorer import coauthors, ids, person

pytestmark = pytest.mark.browser

SPEC = Path(__file__).with_name("site.spec.mjs")
# Hsieh and Keutzer's paper: the walk goes through it from Hsieh to Keutzer.
WALKED_PAPER = "2105.00005"
PAGE_TYPES = ["home", "researcher", "paper", "institution", "category", "search", "404"]
INDEXES = ["researchers", "institutions", "papers", "categories"]


def expectations() -> dict[str, object]:
    title = {p["key"]: p["title"] for p in PAPERS}
    return {
        "you": person(YOU),
        "hsieh": person(HSIEH),
        "keutzer": person(KEUTZER),
        "youNetwork": ids(coauthors(YOU)),
        "texPaper": {"id": TEX_PAPER["key"], "title": TEX_PAPER["title"]},
        "paper": {"id": WALKED_PAPER, "title": title[WALKED_PAPER]},
        "institution": {
            "id": str(BERKELEY),
            "name": next(i["name"] for i in INSTITUTIONS if i["id"] == BERKELEY),
        },
        "category": "cs.LG",
    }


async def test_the_site_in_chromium(served: str, artifacts: Path) -> None:
    clear_screenshots(artifacts, "site")
    await run_node(SPEC, spec_env(served, artifacts, expectations()), limit_s=600)
    shots = PAGE_TYPES + [f"index-{name}" for name in INDEXES] + ["walk"]
    assert_screenshots(artifacts, [f"site-{name}" for name in shots])
