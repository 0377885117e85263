"""The institution page, ``/institutions/<id>-<slug>``: its names and acronyms, ROR id,
country and type, the institutions it is part of and its parts, and two paged lists: its
researchers (most papers first) and its papers (newest first).

An id, a ROR id (bare or as a URL) or a name (its name, an alias or an acronym) all find it.
Its reads are those of the API's ``institution { parents children researchers papers }``.
"""

from __future__ import annotations

import asyncio
import re
from urllib.parse import unquote

from scholargraph.api.site import jsonld, shapes
from scholargraph.api.site.addresses import institution_path, with_query
from scholargraph.api.site.page import Missing, Redirect, SitePage, SiteRequest
from scholargraph.api.site.paperlist import NUMBERED_PAGES, SORTS, paper_listing
from scholargraph.api.site.shapes import Json, Numbered
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo import entities, researchers
from scholargraph.graph.repo.models import Institution
from scholargraph.graph.repo.pages import PageRequest
from scholargraph.graph.repo.papers import PaperFilter

MEMBERS_PER_PAGE = 24
# our id and whatever slug follows it; anything else is a ROR id or a name
_LEADING_ID = re.compile(r"^(\d+)-.*$")


async def find(site: SiteRequest, ref: str) -> Institution:
    leading = _LEADING_ID.match(ref)
    try:
        return await entities.find_institution(site.db, leading[1] if leading else ref)
    except (BadInput, NotFound):
        raise Missing("institution", ref, f"No institution is known as {ref!r}.") from None


async def institution_page(site: SiteRequest) -> SitePage:
    found = await find(site, unquote(site.path_param("ref")))
    canonical = institution_path(found)
    if site.request.url.path != canonical:
        raise Redirect(with_query(canonical, **site.params))
    sort = site.choice("sort", SORTS)
    member_page = site.number("rpage", maximum=NUMBERED_PAGES)
    kept = {"sort": None if sort == "newest" else sort}

    async def relatives() -> tuple[Institution, dict[int, Institution]]:
        # read beside the papers' authors: one statement for both
        full = await entities.institutions_by_id(site.db, [found.id])
        here = full.get(found.id, found)
        return here, await entities.institutions_by_id(site.db, [*here.parents, *here.children])

    listing, (here, related), members = await asyncio.gather(
        paper_listing(
            site,
            PaperFilter(institution=found.id),
            canonical,
            sort=sort,
            fixed={"rpage": str(member_page) if member_page > 1 else None},
        ),
        relatives(),
        researchers.member_pages(site.db, [found.id], PageRequest(MEMBERS_PER_PAGE * member_page)),
    )
    links = site.links
    url = links.url(canonical)
    page = members.get(found.id)
    shown = page.nodes[MEMBERS_PER_PAGE * (member_page - 1) :] if page else []

    def member_url(n: int) -> str:
        return links.url(with_query(canonical, **kept, rpage=None if n == 1 else n))

    numbered = Numbered(
        member_page,
        MEMBERS_PER_PAGE,
        page.total or 0 if page else 0,
        member_url,
        numbered_up_to=NUMBERED_PAGES,
    )
    data: Json = {
        "kind": "institution",
        **shapes.institution(found, links),
        "slug": found.slug,
        "rorUrl": f"https://ror.org/{found.ror_id}" if found.ror_id else None,
        "openalexId": found.openalex_id,
        "acronyms": list(found.acronyms),
        "aliases": list(found.aliases),
        "city": found.city,
        "types": list(found.types),
        "established": found.established,
        "parents": [shapes.institution(related[i], links) for i in here.parents if i in related],
        "children": [shapes.institution(related[i], links) for i in here.children if i in related],
        "researchers": numbered.shape([shapes.researcher(r, links) for r in shown]),
        "papers": listing.shape,
    }
    trail = [
        ("Home", links.url("/")),
        ("Institutions", links.url("/institutions")),
        (found.name, url),
    ]
    where = f" ({found.country_code})" if found.country_code else ""
    return SitePage(
        kind="institution",
        title=found.name,
        description=(
            f"{found.name}{where} in scholargraph: {numbered.total} researchers and "
            f"{listing.shape['total']} papers"
            + (f"; ROR {found.ror_id}" if found.ror_id else "")
            + "."
        ),
        canonical=listing.shape["links"]["self"],
        data=data,
        breadcrumbs=trail,
        jsonld=[jsonld.institution(data)],
    )
