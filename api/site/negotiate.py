"""Which representation of a page to send, from the request's ``Accept`` header.

Every page has three: HTML (for browsers, and whatever accepts anything), markdown and
JSON. Quality values rank the types asked for; among equals the header's order wins.

>>> choose("text/markdown")
'markdown'
>>> choose("application/json;q=0.9, text/html;q=0.8")
'json'
>>> choose(None), choose("*/*"), choose("text/*")
('html', 'html', 'html')
>>> choose("image/png") is None
True
"""

from __future__ import annotations

from typing import Literal

Representation = Literal["html", "markdown", "json"]
MEDIA_TYPES: dict[Representation, str] = {
    "html": "text/html; charset=utf-8",
    "markdown": "text/markdown; charset=utf-8",
    "json": "application/json",
}
_KINDS: dict[str, Representation] = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "text/plain": "markdown",
    "application/json": "json",
    "application/ld+json": "json",
    "application/*": "json",
    "text/*": "html",
    "*/*": "html",
}
# A named type beats a wildcard of the same quality.
_SPECIFIC = {"*/*": 0, "text/*": 1, "application/*": 1}


def choose(accept: str | None) -> Representation | None:
    """The representation to answer ``accept`` with; None when none is acceptable."""
    if not accept or not accept.strip():
        return "html"
    best: tuple[tuple[float, int, int], Representation] | None = None
    for order, item in enumerate(accept.split(",")):
        kind, *params = (part.strip() for part in item.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        representation = _KINDS.get(kind.lower())
        if representation is None or quality <= 0:
            continue
        rank = (quality, _SPECIFIC.get(kind.lower(), 2), -order)
        if best is None or rank > best[0]:
            best = (rank, representation)
    return best[1] if best else None


def acceptable() -> str:
    return ", ".join(sorted({m.split(";")[0] for m in MEDIA_TYPES.values()}))
