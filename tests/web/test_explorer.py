"""The explorer in Debian's Chromium, against a real server on a small graph: searches,
clicks, filters, path mode and the same-name view, each at its own address with back and
forward; TeX in titles; labels that never cover one another; a phone's screen and touch;
axe-core; 2,000 researchers. Screenshots land in ``test-artifacts/explorer-*.png``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.api.graphdata import (
    AUTHORSHIPS,
    BULUC,
    CHENG,
    DEMMEL,
    GILBERT,
    HSIEH,
    KEUTZER,
    PAPERS,
    RESEARCHERS,
    YOU,
    ZIMING,
    ZIMING_MIT,
    ZIMING_ORCID,
    ZIMING_PKU,
    ZIMING_TJU,
)
from tests.web.conftest import assert_screenshots, clear_screenshots, run_node, spec_env

pytestmark = pytest.mark.browser

SPEC = Path(__file__).with_name("explorer.spec.mjs")
NAMES = {row["id"]: row["name"] for row in RESEARCHERS}


def coauthors(researcher: int, max_authors: int | None = None) -> set[int]:
    """Everyone sharing a paper with ``researcher`` (with at most ``max_authors`` authors)."""
    sizes = {p["key"]: p["n_authors"] for p in PAPERS}
    papers = {
        paper
        for who, paper, *_ in AUTHORSHIPS
        if who == researcher and (max_authors is None or sizes[paper] <= max_authors)
    }
    return {who for who, paper, *_ in AUTHORSHIPS if paper in papers}


def person(researcher: int) -> dict[str, str]:
    return {"id": str(researcher), "name": NAMES[researcher]}


def ids(researchers: Iterable[int]) -> list[str]:
    return sorted(str(r) for r in researchers)


def expectations() -> dict[str, object]:
    return {
        "you": person(YOU),
        "hsieh": person(HSIEH),
        "demmel": person(DEMMEL),
        "keutzer": person(KEUTZER),
        "gilbert": person(GILBERT),
        "cheng": person(CHENG),
        "ziming": {**person(ZIMING), "orcid": ZIMING_ORCID},
        "zimingMit": str(ZIMING_MIT),
        "youNetwork": ids(coauthors(YOU)),
        "smallPaperNetwork": ids(coauthors(YOU, max_authors=3)),
        "throughDemmel": [str(r) for r in (YOU, DEMMEL, BULUC, GILBERT)],
        "throughHsieh": [str(r) for r in (YOU, HSIEH, KEUTZER, GILBERT)],
        "sameNameRecords": ids([ZIMING_MIT, ZIMING_PKU, ZIMING_TJU]),
    }


async def test_the_explorer_in_chromium(served: str, artifacts: Path) -> None:
    clear_screenshots(artifacts, "explorer")
    await run_node(SPEC, spec_env(served, artifacts, expectations()), limit_s=600)
    names = ["network", "year", "path", "same-name", "phone", "phone-options", "2000"]
    assert_screenshots(artifacts, [f"explorer-{name}" for name in names])
