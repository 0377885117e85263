"""A page in the representation asked for: HTML from the Jinja2 templates, markdown, or JSON.

Every representation of a page carries ``Vary: Accept``, the canonical address as a
``Link`` header, and the caching headers :mod:`api.site.conditional` computes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import orjson
from markupsafe import Markup
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from scholargraph.api.site import guidance, jsonld, markdown
from scholargraph.api.site.negotiate import MEDIA_TYPES, Representation
from scholargraph.api.site.page import SitePage
from scholargraph.api.site.shapes import SOURCE_NAMES, Links
from scholargraph.api.site.tex import to_html
from scholargraph.graph.schema.relationships import MATCH_METHODS

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


class _Environment(jinja2.Environment):
    """Page data is plain dicts: ``d.name`` looks the key up first (Jinja2 tries an attribute
    first, which costs a failed ``getattr`` for every field a page shows)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def templates() -> Jinja2Templates:
    env = _Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # templates are package data: no stat() per page
    )
    env.filters["tex"] = to_html
    env.globals.update(
        methods=MATCH_METHODS, sources=SOURCE_NAMES, harvest_line=guidance.harvest_line
    )
    return Jinja2Templates(env=env)


def _jsonld(page: SitePage) -> str:
    document = jsonld.document(page.jsonld, page.breadcrumbs)
    # inside <script>, "</" would end the element early
    return orjson.dumps(document).decode().replace("</", "<\\/")


def body(
    page: SitePage,
    representation: Representation,
    env: Jinja2Templates,
    links: Links,
    network_script: str | None,
) -> bytes:
    if representation == "json":
        return orjson.dumps(page.data)
    if representation == "markdown":
        return markdown.render(page, guidance.home_markdown).encode()
    template = env.get_template(f"{page.kind}.html.jinja")
    html = template.render(
        page=page,
        links=links,
        jsonld=Markup(_jsonld(page)),
        network_script=network_script,
        query=page.data.get("query", ""),
    )
    return html.encode()


def respond(
    page: SitePage,
    representation: Representation,
    env: Jinja2Templates,
    links: Links,
    *,
    headers: dict[str, str],
    network_script: str | None = None,
) -> Response:
    content = body(page, representation, env, links, network_script)
    return Response(
        content,
        status_code=page.status,
        media_type=MEDIA_TYPES[representation],
        headers={**headers, "Link": f'<{page.canonical}>; rel="canonical"'},
    )
