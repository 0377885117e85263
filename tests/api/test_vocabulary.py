"""The GraphQL enums carry exactly the values graph/ defines for each closed vocabulary."""

from __future__ import annotations

from enum import Enum
from typing import get_args

import pytest

from scholargraph.api.types.vocabulary import (
    AuthorPosition,
    CurationKind,
    CurationRoleKind,
    DataSource,
    IdentifierScheme,
    MatchMethod,
)
from scholargraph.graph import curation, records
from scholargraph.graph.schema.nodes import IDENTIFIER_SCHEMES
from scholargraph.graph.schema.relationships import MATCH_METHODS, POSITION_KINDS


@pytest.mark.parametrize(
    ("enum", "values"),
    [
        (AuthorPosition, set(POSITION_KINDS)),
        (AuthorPosition, set(get_args(records.PositionKind))),
        (MatchMethod, set(MATCH_METHODS)),
        (DataSource, set(get_args(records.Source))),
        (IdentifierScheme, set(IDENTIFIER_SCHEMES)),
        (CurationKind, set(curation.EVENT_KINDS)),
        (CurationRoleKind, set(curation.ROLES)),
    ],
)
def test_enum_values_are_the_graphs_vocabulary(enum: type[Enum], values: set[str]) -> None:
    assert {member.value for member in enum} == values
    for member in enum:
        assert member.name == member.value.upper()
