"""What the tests read from a page's HTML, with the standard library's parser."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any


@dataclass
class Markup:
    title: str = ""
    lang: str | None = None
    meta: dict[str, str] = field(default_factory=dict)
    links: list[dict[str, str]] = field(default_factory=list)  # <link>
    anchors: list[tuple[str, str]] = field(default_factory=list)  # (href, text)
    headings: list[tuple[int, str]] = field(default_factory=list)
    scripts: list[dict[str, str]] = field(default_factory=list)
    jsonld: list[Any] = field(default_factory=list)
    elements: dict[str, dict[str, str]] = field(default_factory=dict)  # by id
    tags: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)  # what each <label> is for
    controls: list[dict[str, str]] = field(default_factory=list)  # <input>, <select>
    text: str = ""

    @property
    def canonical(self) -> str | None:
        return next((x["href"] for x in self.links if x.get("rel") == "canonical"), None)

    def hrefs(self) -> list[str]:
        return [href for href, _ in self.anchors]

    def graph(self) -> list[dict[str, Any]]:
        """Every schema.org object of the page's JSON-LD."""
        found: list[dict[str, Any]] = []
        for document in self.jsonld:
            found += document.get("@graph", [document])
        return found

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [x for x in self.graph() if x.get("@type") == kind]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Markup()
        self._in: list[str] = []
        self._anchor: list[Any] | None = None
        self._heading: list[Any] | None = None
        self._script: dict[str, str] | None = None
        self._buffer = ""
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.page.tags.append(tag)
        if "id" in values:
            self.page.elements[values["id"]] = {"tag": tag, **values}
        if tag == "html":
            self.page.lang = values.get("lang")
        elif tag == "meta":
            key = values.get("name") or values.get("property")
            if key:
                self.page.meta[key] = values.get("content", "")
        elif tag == "label":
            self.page.labels.append(values.get("for", ""))
        elif tag in ("input", "select", "textarea"):
            self.page.controls.append(values)
        elif tag == "link":
            self.page.links.append(values)
        elif tag == "a":
            self._anchor = [values.get("href", ""), ""]
        elif tag in ("h1", "h2", "h3", "h4"):
            self._heading = [int(tag[1]), ""]
        elif tag == "script":
            self._script = values
            self._buffer = ""
        elif tag == "title":
            self._in.append("title")

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._anchor is not None:
            self.page.anchors.append((self._anchor[0], " ".join(self._anchor[1].split())))
            self._anchor = None
        elif tag in ("h1", "h2", "h3", "h4") and self._heading is not None:
            self.page.headings.append((self._heading[0], " ".join(self._heading[1].split())))
            self._heading = None
        elif tag == "script" and self._script is not None:
            self.page.scripts.append({**self._script, "body": self._buffer})
            if self._script.get("type") == "application/ld+json":
                self.page.jsonld.append(json.loads(self._buffer))
            self._script = None
        elif tag == "title" and self._in:
            self._in.pop()

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._buffer += data
            return
        if self._in:
            self.page.title += data
        if self._anchor is not None:
            self._anchor[1] += data
        if self._heading is not None:
            self._heading[1] += data
        self._text.append(data)

    def close(self) -> None:
        super().close()
        self.page.text = " ".join(" ".join(self._text).split())


def read(html: str) -> Markup:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.page
