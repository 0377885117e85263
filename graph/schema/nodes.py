"""The graph's node labels, defined with neomodel.

The public integer id of researchers and institutions is the database property ``id``;
neomodel reserves that attribute name, so in Python it is ``public_id``.

neomodel owns the schema: ``scholargraph db init`` installs the uniqueness constraints and
indexes declared here (plus the multi-property full-text indexes in ``queries.schema``).
Hot paths write with ``UNWIND`` batches through the driver; these classes serve schema,
single-object access and tests.
"""

from __future__ import annotations

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateProperty,
    IntegerProperty,
    RelationshipFrom,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    ZeroOrOne,
)

from scholargraph.graph.schema.relationships import (
    Affiliated,
    Authored,
    Coauthor,
    Identifies,
    InCategory,
)

# The schemes of external author ids (Identifier.scheme).
IDENTIFIER_SCHEMES = ("s2", "openalex", "orcid")


class Paper(StructuredNode):
    """A paper, keyed by its arXiv id without version (``2301.08658``, ``astro-ph/9901001``).

    ``key`` equals ``arxiv_id`` for arXiv papers; papers known only from another source are
    keyed ``doi:…``, ``s2:…`` or ``openalex:…`` until an arXiv id is found.
    """

    key = StringProperty(required=True, unique_index=True)
    arxiv_id = StringProperty(unique_index=True)
    doi = StringProperty(index=True)
    s2_id = StringProperty(index=True)
    s2_corpus_id = IntegerProperty(index=True)
    openalex_id = StringProperty(index=True)
    title = StringProperty(required=True)
    abstract = StringProperty()
    published = DateProperty(index=True)
    updated = DateProperty()
    year = IntegerProperty(index=True)
    versions = IntegerProperty(default=1)
    primary_category = StringProperty(index=True)
    citation_count = IntegerProperty(index=True)
    journal_ref = StringProperty()
    comments = StringProperty()
    withdrawn = BooleanProperty(default=False)
    n_authors = IntegerProperty()
    hyperauthored = BooleanProperty(default=False)
    alphabetical = BooleanProperty(default=False)
    authors_truncated = BooleanProperty(default=False)
    sources = ArrayProperty(StringProperty(), default=list)
    # every id the sources gave (the scalar ones above are the ids the paper shows)
    dois = ArrayProperty(StringProperty(), default=list)
    s2_ids = ArrayProperty(StringProperty(), default=list)
    openalex_ids = ArrayProperty(StringProperty(), default=list)
    mag_ids = ArrayProperty(StringProperty(), default=list)
    former_keys = ArrayProperty(StringProperty(), default=list)
    citation_source = StringProperty()
    # "field=rank" of each field's winning value (graph.identity.precedence)
    field_ranks = ArrayProperty(StringProperty(), default=list)

    authors = RelationshipFrom("Researcher", "AUTHORED", model=Authored)
    categories = RelationshipTo("Category", "IN_CATEGORY", model=InCategory)


class Researcher(StructuredNode):
    """One person. ``id`` is the stable public integer id; ``slug`` follows the name.

    A merged-away researcher keeps its node with ``merged_into`` set to the survivor's id, so
    old ids keep resolving.
    """

    public_id = IntegerProperty(required=True, unique_index=True, db_property="id")
    slug = StringProperty(required=True)
    name = StringProperty(required=True, index=True)
    name_key = StringProperty(index=True)
    base_key = StringProperty(index=True)  # names.base_block_key, where it differs
    alt_names = ArrayProperty(StringProperty(), default=list)
    orcid = StringProperty(unique_index=True)
    s2_ids = ArrayProperty(StringProperty(), default=list)
    openalex_ids = ArrayProperty(StringProperty(), default=list)
    dblp = ArrayProperty(StringProperty(), default=list)
    h_index = IntegerProperty()
    h_index_s2 = IntegerProperty()
    h_index_openalex = IntegerProperty()
    paper_count = IntegerProperty(default=0)
    citation_count = IntegerProperty(default=0)
    merged_into = IntegerProperty(index=True)

    papers = RelationshipTo("Paper", "AUTHORED", model=Authored)
    coauthors = RelationshipTo("Researcher", "COAUTHOR", model=Coauthor)
    institutions = RelationshipTo("Institution", "AFFILIATED", model=Affiliated)
    identifiers = RelationshipFrom("Identifier", "IDENTIFIES", model=Identifies)


class Identifier(StructuredNode):
    """An external author id (``s2:1688882``, ``openalex:A5001226970``, ``orcid:…``)."""

    key = StringProperty(required=True, unique_index=True)
    scheme = StringProperty(required=True, choices={s: s for s in IDENTIFIER_SCHEMES})
    value = StringProperty(required=True)

    researcher = RelationshipTo("Researcher", "IDENTIFIES", model=Identifies, cardinality=ZeroOrOne)


class PaperId(StructuredNode):
    """An id a source gives a paper (``arxiv:2302.13971``, ``doi:…``, ``s2:<sha>``,
    ``openalex:W…``, ``mag:…``, ``corpus:…``): papers sharing one are one paper."""

    key = StringProperty(required=True, unique_index=True)
    scheme = StringProperty(required=True)
    value = StringProperty(required=True)

    paper = RelationshipTo("Paper", "IDENTIFIES_PAPER", cardinality=ZeroOrOne)


class Institution(StructuredNode):
    public_id = IntegerProperty(required=True, unique_index=True, db_property="id")
    slug = StringProperty(required=True)
    name = StringProperty(required=True, index=True)
    ror_id = StringProperty(unique_index=True)
    openalex_id = StringProperty(unique_index=True)
    acronyms = ArrayProperty(StringProperty(), default=list)
    aliases = ArrayProperty(StringProperty(), default=list)
    country_code = StringProperty(index=True)
    city = StringProperty()
    types = ArrayProperty(StringProperty(), default=list)
    status = StringProperty()
    established = IntegerProperty()

    parents = RelationshipTo("Institution", "PART_OF")
    members = RelationshipFrom("Researcher", "AFFILIATED", model=Affiliated)


class Archive(StructuredNode):
    """An arXiv archive (``cs``, ``hep-th``, ``astro-ph``) within a group ("Physics")."""

    code = StringProperty(required=True, unique_index=True)
    name = StringProperty(required=True)
    group = StringProperty(required=True, index=True)


class Category(StructuredNode):
    """An arXiv category (``cs.DC``), in one archive."""

    code = StringProperty(required=True, unique_index=True)
    name = StringProperty(required=True)
    active = BooleanProperty(default=True)

    archive = RelationshipTo("Archive", "IN_ARCHIVE", cardinality=ZeroOrOne)
    papers = RelationshipFrom("Paper", "IN_CATEGORY", model=InCategory)


class Sequence(StructuredNode):
    """Hands out the public integer ids of researchers and institutions."""

    name = StringProperty(required=True, unique_index=True)
    next = IntegerProperty(required=True)
