"""The site's routes, and what every page response goes through: the representation the
``Accept`` header asks for, validators and ``304``, redirects to canonical addresses, and the
404 page with suggestions for addresses that name nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import orjson
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from scholargraph.api.site import feeds, guidance, lists, openapi, render, shapes, sitemap
from scholargraph.api.site.addresses import category_path
from scholargraph.api.site.conditional import GraphClock, not_modified
from scholargraph.api.site.institution import institution_page
from scholargraph.api.site.negotiate import acceptable, choose
from scholargraph.api.site.notfound import not_found_page
from scholargraph.api.site.page import Missing, Redirect, SitePage, SiteRequest
from scholargraph.api.site.paper import paper_page
from scholargraph.api.site.researcher import find as find_researcher
from scholargraph.api.site.researcher import researcher_page
from scholargraph.api.site.shapes import Links
from scholargraph.graph.errors import BadInput, NotFound
from scholargraph.graph.repo.papers import PaperFilter
from scholargraph.graph.repo.site import SITEMAP_KINDS

STATIC = Path(__file__).resolve().parents[1] / "static"
CACHE_CONTROL = "public, max-age=60"
View = Callable[[SiteRequest], Awaitable[SitePage]]


def _links(request: Request) -> Links:
    return Links(str(request.base_url).rstrip("/"))


class Site:
    """The reference site: pages, feeds, sitemaps and machine-readable guidance.

    ``sitemap_chunk`` caps the URLs of one sitemap (50,000 by the protocol; smaller in
    tests); ``web_dist`` is where the explorer bundle is, whose script the researcher
    page loads into its network mount when it is built.
    """

    def __init__(
        self,
        web_dist: Path,
        *,
        sitemap_chunk: int = sitemap.CHUNK,
        sitemap_slice: int = sitemap.SLICE,
        clock_interval_s: float = 1.0,
    ) -> None:
        self.web_dist = web_dist
        self.sitemap_chunk = sitemap_chunk
        self.sitemap_slice = sitemap_slice
        self.clock = GraphClock(clock_interval_s)
        self.templates = render.templates()

    async def close(self) -> None:
        await self.clock.close()

    def routes(self) -> list[BaseRoute]:
        """Every route of the site; the last one answers any other address with the 404 page."""
        page = self.page
        return [
            Route("/", page(lists.home_page), name="home"),
            Route("/search", page(lists.search_page)),
            Route("/papers", page(lists.papers_page)),
            Route("/papers/{ref:path}", page(paper_page)),
            Route("/researchers", page(lists.researchers_page)),
            Route("/researchers/{ref}/feed.{format}", self.feed("researcher")),
            Route("/researchers/{ref}", page(researcher_page)),
            Route("/institutions", page(lists.institutions_page)),
            Route("/institutions/{ref:path}", page(institution_page)),
            Route("/categories", page(lists.categories_page)),
            Route("/categories/{code}/feed.{format}", self.feed("category")),
            Route("/categories/{code}", page(lists.category_page)),
            Route("/feed.{format}", self.feed("site")),
            Route("/sitemap.xml", self.sitemap_index),
            Route("/sitemaps/{kind}.xml", self.sitemap_chunk_endpoint),
            Route("/llms.txt", self.llms_txt),
            Route("/robots.txt", self.robots_txt),
            Route("/openapi.json", self.openapi_json),
            Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
            Route("/{path:path}", page(_no_route)),
        ]

    async def _validators(
        self, request: Request, *parts: str
    ) -> tuple[dict[str, str], Response | None]:
        """The caching headers of a response, and the ``304`` to send instead when the
        request's validators match."""
        headers = {"Cache-Control": CACHE_CONTROL}
        await self.clock.current(request.app.state.db)
        tag = self.clock.etag(str(request.base_url), request.url.path, request.url.query, *parts)
        if tag is None or self.clock.last_modified is None:
            return headers, None
        headers.update(ETag=tag, **{"Last-Modified": self.clock.last_modified})
        if not_modified(request.headers, tag, self.clock.changed_at):
            return headers, Response(status_code=304, headers=headers)
        return headers, None

    def _site(self, request: Request) -> SiteRequest:
        # as a GraphQL request: one time budget, and the reads asked together as one statement
        db = request.app.state.db.within(request.app.state.settings.request_budget_s)
        return SiteRequest(request, db.batched(), _links(request))

    def page(self, view: View) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            representation = choose(request.headers.get("accept"))
            if representation is None:
                return PlainTextResponse(
                    f"Pages are offered as {acceptable()}; ask for one of them in Accept.",
                    status_code=406,
                    headers={"Vary": "Accept"},
                )
            headers, unchanged = await self._validators(request, representation)
            headers["Vary"] = "Accept"
            if unchanged is not None:
                unchanged.headers["Vary"] = "Accept"
                return unchanged
            site = self._site(request)
            try:
                found = await view(site)
            except Redirect as redirect:
                return RedirectResponse(
                    site.links.url(redirect.path),
                    status_code=301,
                    headers={"Vary": "Accept", "Cache-Control": CACHE_CONTROL},
                )
            except Missing as missing:
                found = await not_found_page(site, missing)
            except NotFound as error:
                nothing = Missing("page", request.url.path, str(error))
                found = await not_found_page(site, nothing)
            except BadInput as error:
                found = _error_page(site, 400, "Not a valid address", str(error))
            if found.status != 200:
                headers = {"Vary": "Accept", "Cache-Control": "no-cache"}
            return render.respond(
                found,
                representation,
                self.templates,
                site.links,
                headers=headers,
                network_script=self._network_script(site.links),
            )

        return endpoint

    def _network_script(self, links: Links) -> str | None:
        bundle = self.web_dist / "explorer.js"
        return links.url("/explorer/explorer.js") if bundle.is_file() else None

    def feed(self, scope: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            fmt = request.path_params["format"]
            site = self._site(request)
            if fmt not in feeds.MEDIA_TYPES:
                missing = Missing("feed", request.url.path, "Feeds are feed.atom and feed.rss.")
                return self._plain_404(site, await not_found_page(site, missing))
            headers, unchanged = await self._validators(request, fmt)
            if unchanged is not None:
                return unchanged
            try:
                info, paper_filter = await self._feed_scope(site, scope, fmt)
            except Redirect as redirect:
                return RedirectResponse(site.links.url(redirect.path), status_code=301)
            except Missing as missing:
                return self._plain_404(site, await not_found_page(site, missing))
            found = await feeds.entries(site.db, paper_filter)
            now = self.clock.changed_at or datetime.now(UTC).replace(microsecond=0)
            write = feeds.atom if fmt == "atom" else feeds.rss
            return Response(
                write(info, found, site.links, now),
                media_type=feeds.MEDIA_TYPES[fmt],
                headers=headers,
            )

        return endpoint

    async def _feed_scope(
        self, site: SiteRequest, scope: str, fmt: str
    ) -> tuple[feeds.FeedInfo, PaperFilter]:
        links = site.links
        if scope == "researcher":
            ref = site.path_param("ref")
            found = await find_researcher(site, ref)
            own = f"/researchers/{found.id}/feed.{fmt}"
            if site.request.url.path != own:
                raise Redirect(own)
            info = feeds.FeedInfo(
                f"Latest papers by {found.name}",
                links.url(found.path),
                links.url(own),
                f"New papers of {found.name} in scholargraph.",
            )
            return info, PaperFilter(researcher=found.id)
        if scope == "category":
            code = site.path_param("code")
            try:
                listed = lists.category_code(code)
            except Redirect as redirect:
                raise Redirect(f"{redirect.path}/feed.{fmt}") from None
            path = category_path(listed)
            info = feeds.FeedInfo(
                f"Latest papers in {listed}",
                links.url(path),
                links.url(f"{path}/feed.{fmt}"),
                f"New papers in the arXiv category {listed} ({shapes.category_name(listed)}).",
            )
            return info, PaperFilter(category=listed)
        info = feeds.FeedInfo(
            "Latest papers in scholargraph",
            links.url("/papers"),
            links.url(f"/feed.{fmt}"),
            "New papers in scholargraph.",
        )
        return info, PaperFilter()

    def _plain_404(self, site: SiteRequest, page: SitePage) -> Response:
        return render.respond(
            page, "html", self.templates, site.links, headers={"Cache-Control": "no-cache"}
        )

    async def sitemap_index(self, request: Request) -> Response:
        headers, unchanged = await self._validators(request)
        if unchanged is not None:
            return unchanged
        text = await sitemap.index(
            request.app.state.db, _links(request), self.clock.changed_at, self.sitemap_chunk
        )
        return Response(text, media_type=sitemap.MEDIA_TYPE, headers=headers)

    async def sitemap_chunk_endpoint(self, request: Request) -> Response:
        kind = request.path_params["kind"]
        site = self._site(request)
        if kind != "pages" and kind not in SITEMAP_KINDS:
            missing = Missing("sitemap", kind, f"There is no sitemap of {kind}.")
            return self._plain_404(site, await not_found_page(site, missing))
        headers, unchanged = await self._validators(request)
        if unchanged is not None:
            return unchanged
        if kind == "pages":
            text = await sitemap.pages(site.db, site.links)
            return Response(text, media_type=sitemap.MEDIA_TYPE, headers=headers)
        try:
            after = sitemap.parse_after(kind, request.query_params.get("after"))
        except ValueError:
            return PlainTextResponse("after must be a researcher or institution id", 400)
        stream = sitemap.chunk(
            site.db, site.links, kind, after, self.sitemap_chunk, self.sitemap_slice
        )
        return StreamingResponse(stream, media_type=sitemap.MEDIA_TYPE, headers=headers)

    async def llms_txt(self, request: Request) -> Response:
        text = "\n".join(guidance.llms_txt(_links(request).base)) + "\n"
        return Response(text, media_type="text/markdown; charset=utf-8", headers=_static_headers())

    async def robots_txt(self, request: Request) -> Response:
        return PlainTextResponse(
            guidance.robots_txt(_links(request).base), headers=_static_headers()
        )

    async def openapi_json(self, request: Request) -> Response:
        body = orjson.dumps(openapi.document(_links(request).base))
        return Response(body, media_type="application/json", headers=_static_headers())


def _static_headers() -> dict[str, str]:
    return {"Cache-Control": "public, max-age=3600"}


async def _no_route(site: SiteRequest) -> SitePage:
    path = site.request.url.path
    if len(path) > 1 and path.endswith("/"):
        raise Redirect(path.rstrip("/"))
    kind = path.strip("/").split("/", 1)[0]
    kinds = {"researchers": "researcher", "papers": "paper", "institutions": "institution"}
    key = path.strip("/").rsplit("/", 1)[-1]
    raise Missing(kinds.get(kind, "page"), key, f"There is no page at {path}.")


def _error_page(site: SiteRequest, status: int, title: str, message: str) -> SitePage:
    url = site.links.url(site.request.url.path)
    return SitePage(
        kind="error",
        title=title,
        description=message,
        canonical=url,
        data={"kind": "error", "status": status, "title": title, "message": message},
        breadcrumbs=[("Home", site.links.url("/")), (title, url)],
        status=status,
        indexable=False,
    )
