"""The reference site: researcher, paper, institution and category pages at their own
addresses, for people (HTML), machines (JSON, markdown, feeds, sitemaps) and crawlers
(schema.org JSON-LD), from the same repositories the GraphQL API reads."""

from scholargraph.api.site.routes import Site

__all__ = ["Site"]
