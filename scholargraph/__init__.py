"""scholargraph: an open scholarly knowledge graph in Neo4j, served over GraphQL.

The installed package holds four layers, each a folder at the top of the source tree:
``scholargraph.api`` (GraphQL, HTTP, the page) → ``scholargraph.graph`` (schema, repositories,
loaders, identity, analysis) → ``scholargraph.queries`` (Cypher), and ``scholargraph.cli``.
"""

__version__ = "0.2.0"

__all__ = ["__version__"]
