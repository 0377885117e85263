"""The researcher page, ``/researchers/<id>-<slug>``: who they are across the sources, where
they stand on their author lists, their fields, same-name records, most-cited papers,
coauthors (and the network the explorer draws), their papers, affiliations and the
curators' decisions about them.

Its reads are those of the API's researcher fields (one statement per kind of question):
the researcher, then at once their profile, most cited, same-name records, coauthors,
affiliations, curation events and a page of papers with its count, then the authors of
those papers.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from scholargraph.api.site import jsonld, shapes
from scholargraph.api.site.addresses import with_query
from scholargraph.api.site.page import Feed, Missing, Redirect, SitePage, SiteRequest
from scholargraph.api.site.paperlist import SORTS, PaperListing, paper_listing
from scholargraph.api.site.shapes import SOURCE_NAMES, Json, Links
from scholargraph.graph import curation
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo import entities, researchers, same_name, semantic
from scholargraph.graph.repo.models import Affiliation, Coauthorship, Researcher
from scholargraph.graph.repo.pages import Page, PageRequest
from scholargraph.graph.repo.papers import PaperFilter, PaperSort

MOST_CITED = 3
SAME_NAME = 20
COAUTHORS = 24
AFFILIATIONS = 24
EVENTS = 20
SIMILAR = 8
# the id, and whatever slug follows it (an old one, a misspelt one: it redirects)
_LEADING_ID = re.compile(r"^(\d+)(?:-.*)?$")
_ID_URLS = {
    "orcid": "https://orcid.org/{}",
    "s2": "https://www.semanticscholar.org/author/{}",
    "openalex": "https://openalex.org/{}",
}


async def find(site: SiteRequest, ref: str) -> Researcher:
    """The researcher an address names; a merged-away id finds the survivor."""
    leading = _LEADING_ID.match(ref)
    try:
        if leading is None:
            raise NotFound(ref)
        return await entities.find_researcher(site.db, entities.ResearcherRef(id=leading[1]))
    except (BadInput, NotFound):
        raise Missing("researcher", ref, f"No researcher has the id in {ref!r}.") from None


def compare_url(links: Links, researcher: int, other: int) -> str:
    """The explorer's same-name view, the two records side by side."""
    return links.url(f"/explorer/researcher/{researcher}/same-name?with={other}")


@dataclass(frozen=True, slots=True)
class _Lists:
    listing: PaperListing
    profile: dict[int, researchers.Profile]
    cited: dict[int, researchers.MostCited]
    cluster: dict[int, same_name.SameNameCluster]
    coauthors: dict[int, Page[Coauthorship]]
    affiliations: dict[int, Page[Affiliation]]
    events: dict[int, tuple[curation.CurationEvent, ...]]
    near: list[tuple[float, Researcher]]


async def _lists(
    site: SiteRequest, rid: int, path: str, sort: PaperSort, code: str | None
) -> _Lists:
    """Everything the page lists of researcher ``rid``, asked for at once."""
    db = site.db
    try:
        async with asyncio.TaskGroup() as group:
            listed = group.create_task(
                paper_listing(
                    site,
                    PaperFilter(researcher=rid, category=code),
                    path,
                    sort=sort,
                    fixed={"category": code},
                )
            )
            profiled = group.create_task(researchers.profiles(db, [rid]))
            most = group.create_task(researchers.most_cited(db, [rid], MOST_CITED))
            named = group.create_task(same_name.same_name(db, [rid], SAME_NAME))
            tied = group.create_task(researchers.coauthor_pages(db, [rid], PageRequest(COAUTHORS)))
            placed = group.create_task(
                researchers.affiliation_pages(db, [rid], PageRequest(AFFILIATIONS))
            )
            decided = group.create_task(curation.events(db, [rid], EVENTS))
            near = group.create_task(
                semantic.similar_researchers(db, rid, SIMILAR, exclude_coauthors=True)
            )
    except ExceptionGroup as failed:  # a bad parameter, a database error: the first one
        raise failed.exceptions[0] from None
    return _Lists(
        listed.result(),
        dict(profiled.result()),
        dict(most.result()),
        dict(named.result()),
        dict(tied.result()),
        dict(placed.result()),
        dict(decided.result()),
        list(near.result()),
    )


def _early_lists(site: SiteRequest, ref: str) -> asyncio.Task[_Lists] | None:
    """The lists of the researcher the address names, started beside the lookup of the
    researcher (its statement batch sends both as one statement); None when the address or
    its parameters are not ones the page would take as they are."""
    rid = early_id(ref)
    if rid is None:
        return None
    try:
        sort = site.choice("sort", SORTS)
        code = site.request.query_params.get("category") or None
        if code is not None:
            code = entities.find_category(code).code
    except (BadInput, NotFound):
        return None
    path = site.request.url.path
    task = asyncio.ensure_future(_lists(site, rid, path, sort, code))
    task.add_done_callback(_unread)
    return task


def early_id(ref: str) -> int | None:
    leading = _LEADING_ID.match(ref)
    return int(leading[1]) if leading else None


def _unread(task: asyncio.Task[_Lists]) -> None:
    if not task.cancelled():
        task.exception()


async def researcher_page(site: SiteRequest) -> SitePage:
    ref = site.path_param("ref")
    early = _early_lists(site, ref)
    try:
        found = await find(site, ref)
        if site.request.url.path != found.path:
            raise Redirect(with_query(found.path, **site.params))
    except BaseException:
        if early is not None:
            early.cancel()
        raise
    sort = site.choice("sort", SORTS)
    code = site.request.query_params.get("category") or None
    if code is not None:
        code = entities.find_category(code).code
    rid = found.id
    if early is not None and early_id(ref) == rid:
        lists = await early
    else:
        if early is not None:
            early.cancel()
        lists = await _lists(site, rid, found.path, sort, code)
    listing, profile, cited, cluster = lists.listing, lists.profile, lists.cited, lists.cluster
    coauthors, affiliations, events = lists.coauthors, lists.affiliations, lists.events
    links = site.links
    url = links.url(found.path)
    data: Json = {
        "kind": "researcher",
        **shapes.researcher(found, links),
        "slug": found.slug,
        "altNames": list(found.alt_names),
        "hIndexS2": found.h_index_s2,
        "hIndexOpenalex": found.h_index_openalex,
    }
    mine = profile.get(rid)
    data["identity"] = _identity(found, mine)
    data["authorPositions"] = _positions(mine.positions) if mine else None
    data["fields"] = [
        {
            **shapes.category(f.code, links),
            "papers": f.papers,
            "primaryPapers": f.primary_papers,
            "filterUrl": links.url(with_query(found.path, category=f.code)),
        }
        for f in (mine.fields if mine else ())
    ]
    best = cited.get(rid)
    data["mostCited"] = (
        {
            "citations": best.citations,
            "countedPapers": best.counted,
            "totalPapers": best.total,
            "coverage": f"{best.citations} citations across the {best.counted} of "
            f"{best.total} papers we have counts for",
            "papers": [shapes.paper(p, links) for p in best.papers],
        }
        if best
        else None
    )
    records = cluster.get(rid)
    data["sameName"] = {
        "blockSize": records.block_size if records else 0,
        "records": [
            {
                "researcher": shapes.researcher(r.researcher, links),
                "probability": round(r.score.probability, 4),
                "rule": r.score.rule,
                "markedDistinct": r.marked_distinct,
                "evidence": [e.text for e in r.score.evidence],
                "compareUrl": compare_url(links, rid, r.researcher.id),
            }
            for r in (records.records if records else ())
        ],
    }
    ties = coauthors.get(rid)
    data["coauthors"] = {
        "total": ties.total if ties else 0,
        "items": [
            {
                "researcher": shapes.researcher(e.node.researcher, links),
                "jointPapers": e.node.joint_papers,
                "firstYear": e.node.first_year,
                "lastYear": e.node.last_year,
            }
            for e in (ties.edges if ties else ())
        ],
    }
    data["similarResearchers"] = [
        {"researcher": shapes.researcher(r, links), "similarity": round(score, 4)}
        for score, r in lists.near
    ]
    data["network"] = {
        "graphql": links.url("/graphql"),
        "explorer": links.url(f"/explorer/researcher/{rid}"),
    }
    data["papers"] = {**listing.shape, "category": code}
    places = affiliations.get(rid)
    data["affiliations"] = [
        {
            "institution": shapes.institution(e.node.institution, links),
            "sources": [SOURCE_NAMES.get(s, s) for s in e.node.sources],
            "firstYear": e.node.first_year,
            "lastYear": e.node.last_year,
        }
        for e in (places.edges if places else ())
    ]
    data["curation"] = [
        {
            "id": e.id,
            "kind": e.kind,
            "actor": e.actor,
            "reason": e.reason,
            "at": e.at.isoformat(),
            "papers": list(e.papers),
            "researchers": [{"id": r, "role": role} for r, role in e.roles],
        }
        for e in events.get(rid, ())
    ]
    feed_path = f"/researchers/{rid}/feed"
    data["feeds"] = {"atom": links.url(feed_path + ".atom"), "rss": links.url(feed_path + ".rss")}
    trail = [
        ("Home", links.url("/")),
        ("Researchers", links.url("/researchers")),
        (found.name, url),
    ]
    papers_word = "paper" if found.paper_count == 1 else "papers"
    return SitePage(
        kind="researcher",
        title=found.name,
        description=(
            f"{found.name}: {found.paper_count} {papers_word} in scholargraph"
            + (f", ORCID {found.orcid}" if found.orcid else "")
            + " — author positions, fields, coauthors and same-name records."
        ),
        canonical=data["papers"]["links"]["self"],
        data=data,
        breadcrumbs=trail,
        jsonld=[
            {
                "@type": "ProfilePage",
                "@id": url,
                "url": url,
                "mainEntity": {"@id": url + "#person"},
            },
            jsonld.person(data),
        ],
        og_type="profile",
        feeds=(
            Feed(
                f"Latest papers by {found.name} (Atom)", feed_path + ".atom", "application/atom+xml"
            ),
            Feed(f"Latest papers by {found.name} (RSS)", feed_path + ".rss", "application/rss+xml"),
        ),
    )


def _identity(found: Researcher, profile: researchers.Profile | None) -> Json:
    links = profile.identifiers if profile else ()
    external: list[Json] = [
        {
            "key": i.key,
            "scheme": i.scheme,
            "value": i.value,
            "url": _ID_URLS[i.scheme].format(i.value) if i.scheme in _ID_URLS else None,
            "method": i.method,
            "source": i.source,
        }
        for i in links
    ]
    if found.orcid and not any(x["scheme"] == "orcid" for x in external):
        orcid_url = _ID_URLS["orcid"].format(found.orcid)
        external.insert(
            0,
            {
                "key": f"orcid:{found.orcid}",
                "scheme": "orcid",
                "value": found.orcid,
                "url": orcid_url,
                "method": None,
                "source": None,
            },
        )
    schemes = {str(x["scheme"]) for x in external}
    via = sorted(SOURCE_NAMES.get(scheme, scheme) for scheme in schemes)
    return {
        "orcid": found.orcid,
        "s2Ids": list(found.s2_ids),
        "openalexIds": list(found.openalex_ids),
        "via": via,
        "externalIds": external,
        "mergedFrom": list(profile.merged_from) if profile else [],
    }


def _positions(positions: researchers.AuthorPositions) -> Json:
    return {
        "first": positions.first,
        "middle": positions.middle,
        "last": positions.last,
        "solo": positions.solo,
        "alphabetical": positions.alphabetical,
        "matchedPapers": positions.matched,
        "totalPapers": positions.papers,
        "coverage": f"across the {positions.matched} of {positions.papers} papers where every "
        "author was matched, so the position is known",
    }
