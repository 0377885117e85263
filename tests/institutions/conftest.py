from __future__ import annotations

from pathlib import Path

import pytest

from scholargraph.graph.institutions import AffiliationIndex
from tests.institutions.records import fixture_index


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> AffiliationIndex:
    return fixture_index(tmp_path_factory.mktemp("ror") / "dump")


@pytest.fixture
def ror_dir(tmp_path: Path) -> Path:
    from tests.institutions.records import write_records

    return write_records(tmp_path / "dump")
