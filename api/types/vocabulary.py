"""The closed vocabularies of the graph as GraphQL enums.

graph/ defines each set of values (and keeps them plain strings); each enum here carries the
same strings as its Python values, so ``AuthorPosition(slot.kind)`` converts, and
tests/api/test_vocabulary.py checks that the two agree.
"""

from __future__ import annotations

from enum import Enum
from typing import cast

import strawberry


def wire_value(member: Enum) -> str:
    """The graph's string for ``member`` (mypy sees an ``enum_value`` as its definition)."""
    return cast(str, member.value)


@strawberry.enum(description="Where an author stands on a paper's author list.")
class AuthorPosition(Enum):
    FIRST = strawberry.enum_value("first", description="First of two or more authors.")
    MIDDLE = strawberry.enum_value("middle", description="Neither first nor last.")
    LAST = strawberry.enum_value("last", description="Last of two or more authors.")
    SOLO = strawberry.enum_value("solo", description="The only author.")


@strawberry.enum(description="How an author slot or an external id was matched to a researcher.")
class MatchMethod(Enum):
    ORCID = strawberry.enum_value("orcid", description="The same ORCID iD.")
    S2_ID = strawberry.enum_value("s2_id", description="The same Semantic Scholar author id.")
    OPENALEX_ID = strawberry.enum_value("openalex_id", description="The same OpenAlex author id.")
    CROSS_SOURCE = strawberry.enum_value(
        "cross_source",
        description="The same paper and position in two sources, with a compatible name.",
    )
    NAME_SCORE = strawberry.enum_value(
        "name_score", description="A same-name candidate scored above the threshold."
    )
    NEW = strawberry.enum_value("new", description="No candidate matched: a new researcher.")
    CURATOR = strawberry.enum_value("curator", description="Pinned by a curator.")


@strawberry.enum(description="A source the graph is loaded from.")
class DataSource(Enum):
    ARXIV = strawberry.enum_value("arxiv", description="arXiv (its API and OAI-PMH).")
    S2 = strawberry.enum_value("s2", description="Semantic Scholar.")
    OPENALEX = strawberry.enum_value("openalex", description="OpenAlex.")
    ORCID = strawberry.enum_value("orcid", description="ORCID.")
    ROR = strawberry.enum_value("ror", description="The Research Organization Registry.")
    DEMO = strawberry.enum_value("demo", description="The generated demo corpus.")


@strawberry.enum(description="The scheme of an external author id.")
class IdentifierScheme(Enum):
    S2 = strawberry.enum_value("s2", description="A Semantic Scholar author id.")
    OPENALEX = strawberry.enum_value("openalex", description="An OpenAlex author id (A…).")
    ORCID = strawberry.enum_value("orcid", description="An ORCID iD.")


@strawberry.enum(description="What a curation decision did.")
class CurationKind(Enum):
    MERGE = strawberry.enum_value("merge", description="Researchers merged into a survivor.")
    SPLIT = strawberry.enum_value(
        "split", description="Author slots moved from one researcher to another by a curator."
    )
    MOVE = strawberry.enum_value(
        "move", description="Author slots moved automatically, after a curator's decision."
    )
    DISTINCT = strawberry.enum_value(
        "distinct", description="Two researchers recorded as different people."
    )
    PIN = strawberry.enum_value(
        "pin", description="A researcher's slot on a paper fixed, so loads never move it."
    )


@strawberry.enum(description="What a researcher is to a curation decision.")
class CurationRoleKind(Enum):
    SURVIVOR = strawberry.enum_value("survivor", description="The researcher merged into.")
    MERGED = strawberry.enum_value("merged", description="A researcher merged away.")
    SOURCE = strawberry.enum_value("source", description="Where moved slots came from.")
    TARGET = strawberry.enum_value("target", description="Where moved slots went.")
    DISTINCT = strawberry.enum_value(
        "distinct", description="One of two researchers marked different people."
    )
    PINNED = strawberry.enum_value("pinned", description="The researcher pinned to a paper.")
