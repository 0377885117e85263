"""The paper page, ``/papers/<arXiv id>-<slug>``: title and abstract (TeX as MathML), the
authors in order with how each was matched, categories, versions and dates, every external
id, the citation count and where it comes from, and links to arXiv.

Its reads are those of the API's ``paper { authors }``: the paper, then its authors.
"""

from __future__ import annotations

import asyncio
from urllib.parse import unquote

from scholargraph.api.site import jsonld, shapes
from scholargraph.api.site.addresses import paper_path, split_paper_ref, with_query
from scholargraph.api.site.page import Missing, Redirect, SitePage, SiteRequest
from scholargraph.api.site.shapes import SOURCE_NAMES, Json
from scholargraph.api.site.tex import to_plain
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo import entities, papers, semantic
from scholargraph.graph.repo import site as site_repo
from scholargraph.graph.repo.models import Paper
from scholargraph.graph.repo.pages import PageRequest

AUTHORS = 100
RELATED = 8
CITATION_SOURCES = ("s2", "openalex")


async def find(site: SiteRequest, ref: str) -> Paper:
    given, _ = split_paper_ref(ref)
    try:
        return await entities.find_paper(site.db, given)
    except BadInput:
        stored = await site_repo.paper_by_key(site.db, given)
        if stored is not None:
            return stored
    except NotFound:
        pass
    raise Missing("paper", given, f"No paper has the id {given!r} here.")


def external_ids(paper: Paper) -> list[Json]:
    found: list[Json] = []
    if paper.arxiv_id:
        url = f"https://arxiv.org/abs/{paper.arxiv_id}"
        found.append({"name": "arXiv", "value": paper.arxiv_id, "url": url})
    if paper.doi:
        found.append({"name": "DOI", "value": paper.doi, "url": f"https://doi.org/{paper.doi}"})
    if paper.s2_id:
        url = f"https://www.semanticscholar.org/paper/{paper.s2_id}"
        found.append({"name": "Semantic Scholar", "value": paper.s2_id, "url": url})
    if paper.openalex_id:
        url = f"https://openalex.org/{paper.openalex_id}"
        found.append({"name": "OpenAlex", "value": paper.openalex_id, "url": url})
    return found


async def paper_page(site: SiteRequest) -> SitePage:
    found = await find(site, site.path_param("ref"))
    canonical = paper_path(found)
    if site.request.url.path != unquote(canonical):
        raise Redirect(with_query(canonical, **site.params))
    authors, related = await asyncio.gather(
        papers.author_pages(site.db, [found.key], PageRequest(AUTHORS)),
        semantic.related_papers(site.db, found.key, RELATED),
    )
    listed = authors.get(found.key)
    links = site.links
    url = links.url(canonical)
    counted_by = [SOURCE_NAMES[s] for s in CITATION_SOURCES if s in found.sources]
    tags = sorted(found.categories, key=lambda t: (not t.primary, t.code))
    data: Json = {
        "kind": "paper",
        **shapes.paper(found, links),
        "plainTitle": to_plain(found.title),
        "abstract": found.abstract,
        "plainAbstract": to_plain(found.abstract),
        "updated": found.updated.isoformat() if found.updated else None,
        "versions": found.versions,
        "journalRef": found.journal_ref,
        "withdrawn": found.withdrawn,
        "doi": found.doi,
        "citationSources": counted_by,
        "sources": [SOURCE_NAMES.get(s, s) for s in found.sources],
        "categories": [{**shapes.category(t.code, links), "primary": t.primary} for t in tags],
        "externalIds": external_ids(found),
        "arxiv": (
            {
                "abs": f"https://arxiv.org/abs/{found.arxiv_id}",
                "pdf": f"https://arxiv.org/pdf/{found.arxiv_id}",
            }
            if found.arxiv_id
            else None
        ),
        "matchedAuthorCount": listed.total if listed else 0,
        "alphabetical": found.alphabetical,
        "hyperauthored": found.hyperauthored,
        "authors": [shapes.author(a, links) for a in (listed.nodes if listed else [])],
        "related": [
            {"paper": shapes.paper(p, links), "similarity": round(score, 4)} for score, p in related
        ],
    }
    trail = [("Home", links.url("/"))]
    if found.primary_category:
        trail.append((found.primary_category, links.url(f"/categories/{found.primary_category}")))
    trail.append((data["plainTitle"], url))
    names = [a["name"] for a in data["authors"][:3]]
    more = " et al." if len(data["authors"]) > 3 else ""
    by = f" by {', '.join(names)}{more}" if names else ""
    when = f" ({found.published.isoformat()})" if found.published else ""
    abstract = data["plainAbstract"]
    return SitePage(
        kind="paper",
        title=data["plainTitle"],
        description=(f"{data['plainTitle']}{by}{when}. " + abstract)[:300].rstrip(),
        canonical=url,
        data=data,
        breadcrumbs=trail,
        jsonld=[jsonld.article(data)],
        og_type="article",
    )
