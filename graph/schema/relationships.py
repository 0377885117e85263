"""Relationship models: the properties every edge of the graph carries.

neomodel reserves the attribute name ``source``, so the source of a fact is the attribute
``origin`` stored as the property ``source`` (what Cypher and other tools see).
"""

from __future__ import annotations

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    FloatProperty,
    IntegerProperty,
    StringProperty,
    StructuredRel,
)

POSITION_KINDS = {"first": "first", "middle": "middle", "last": "last", "solo": "solo"}
MATCH_METHODS = {
    "orcid": "same ORCID iD",
    "s2_id": "same Semantic Scholar author id",
    "openalex_id": "same OpenAlex author id",
    "cross_source": "same paper and position in two sources, compatible name",
    "name_score": "same-name candidate scored above the threshold",
    "new": "no candidate matched; a new researcher",
    "curator": "pinned by a curator",
}


class Authored(StructuredRel):
    """``(:Researcher)-[:AUTHORED]->(:Paper)``: one author slot, with how it was matched."""

    position = IntegerProperty(required=True, index=True)
    kind = StringProperty(required=True, choices=POSITION_KINDS)
    raw_name = StringProperty(required=True)
    origin = StringProperty(required=True, db_property="source")
    method = StringProperty(required=True, choices=MATCH_METHODS)
    confidence = FloatProperty(default=1.0)
    source_ids = ArrayProperty(StringProperty(), default=list)  # ["s2:1688882", …]
    sources = ArrayProperty(StringProperty(), default=list)  # every source listing the slot
    rank = IntegerProperty()  # of ``method``: the strongest rule that matched the slot
    mentions = ArrayProperty(StringProperty(), default=list)  # "<source>:<method>:<raw name>"
    affiliations = ArrayProperty(StringProperty(), default=list)  # as printed on the slot
    # "<source>:<string>": what a source printed without an institution id, for the matcher
    raw_affiliations = ArrayProperty(StringProperty(), default=list)
    pinned = BooleanProperty(default=False)


class Affiliated(StructuredRel):
    """``(:Researcher)-[:AFFILIATED]->(:Institution)`` with the years seen and the source."""

    origin = StringProperty(required=True, db_property="source")
    first_year = IntegerProperty()
    last_year = IntegerProperty()
    method = StringProperty()  # "id", or the matcher's method (graph.institutions.linking)
    score = FloatProperty()
    raw = ArrayProperty(StringProperty(), default=list)  # the strings matched to it


class Coauthor(StructuredRel):
    """``(:Researcher)-[:COAUTHOR]->(:Researcher)``, stored once per pair (lower id → higher).

    Materialised from AUTHORED: ``joint_papers`` counts papers both authored that have at most
    the coauthor cap of authors (default 100); larger papers are flagged ``hyperauthored`` and
    add no COAUTHOR edges.
    """

    joint_papers = IntegerProperty(required=True)
    first_year = IntegerProperty()
    last_year = IntegerProperty()


class InCategory(StructuredRel):
    """``(:Paper)-[:IN_CATEGORY]->(:Category)``; ``primary`` for the primary category."""

    primary = BooleanProperty(default=False)


class Identifies(StructuredRel):
    """``(:Identifier)-[:IDENTIFIES]->(:Researcher)``: how an external id came to a researcher."""

    method = StringProperty(required=True, choices=MATCH_METHODS)
    origin = StringProperty(required=True, db_property="source")
