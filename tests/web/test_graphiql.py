"""GraphiQL in Debian's Chromium: our own bundle, nothing fetched from elsewhere, a query run
against the real API. The screenshot lands in ``test-artifacts/graphiql.png``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.api.graphdata import RESEARCHERS, ZIMING
from tests.web.conftest import assert_screenshots, clear_screenshots, run_node, spec_env

pytestmark = pytest.mark.browser

SPEC = Path(__file__).with_name("graphiql.spec.mjs")
NAMES = {row["id"]: row["name"] for row in RESEARCHERS}


async def test_graphiql_in_chromium(served: str, artifacts: Path) -> None:
    clear_screenshots(artifacts, "graphiql")
    (artifacts / "graphiql.png").unlink(missing_ok=True)
    await run_node(SPEC, spec_env(served, artifacts, {"name": NAMES[ZIMING]}), limit_s=300)
    assert_screenshots(artifacts, ["graphiql"])
