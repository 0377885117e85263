"""HTTP clients for the sources. Each takes an ``httpx.AsyncClient`` and a settings object
and returns the sources' raw payloads (JSON objects or XML text) for the parsers."""

from scholargraph.graph.loaders.clients.arxiv import ArxivClient, ArxivSettings
from scholargraph.graph.loaders.clients.openalex import OpenAlexClient, OpenAlexSettings
from scholargraph.graph.loaders.clients.orcid import OrcidClient, OrcidSettings
from scholargraph.graph.loaders.clients.ror import RorClient, RorSettings, chosen_organizations
from scholargraph.graph.loaders.clients.s2 import (
    S2Settings,
    SemanticScholarClient,
    arxiv_ref,
    corpus_ref,
    doi_ref,
)

__all__ = [
    "ArxivClient",
    "ArxivSettings",
    "OpenAlexClient",
    "OpenAlexSettings",
    "OrcidClient",
    "OrcidSettings",
    "RorClient",
    "RorSettings",
    "S2Settings",
    "SemanticScholarClient",
    "arxiv_ref",
    "chosen_organizations",
    "corpus_ref",
    "doi_ref",
]
