"""The complete records of a damaged XML file.

Two kinds of damage are met in bulk files:

* invalid UTF-8 bytes: each run of them is replaced by a numbered marker before parsing,
  so the parse goes on; the records holding a marker are then set aside, their excerpt
  showing the bytes as ``\\xNN``;
* a document that breaks off (a truncated download) or turns malformed: an incremental
  parse keeps every record element that was closed before the break and drops the one it
  was inside.

>>> text = mark_bad_bytes(b"<feed><e>ok</e><e>caf\\xe9</e></feed>")
>>> [line for line, _ in text.bad], [tainted(e, text) for e in ET.fromstring(text.text)]
([1], [[], [0]])
>>> root, error = salvage("<feed><e>1</e><e>2</e><e>3", "e")
>>> [e.text for e in root], error.position
(['1', '2'], (1, 26))
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from scholargraph.graph.loaders.parse.values import EXCERPT_CHARS

_OPEN, _CLOSE = "\ue000", "\ue001"
_MARKER = re.compile(f"{_OPEN}(\\d+){_CLOSE}")
_ESCAPED_BYTES = re.compile("[\udc80-\udcff]+")
_DECLARED_ENCODING = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)")
_FEED_CHARS = 1 << 16


@dataclass(frozen=True, slots=True)
class XmlText:
    """What the XML parser reads, and the invalid byte runs its markers stand for."""

    text: str | bytes
    bad: tuple[tuple[int, bytes], ...] = ()  # (line, bytes), by marker number


def mark_bad_bytes(data: bytes) -> XmlText:
    """UTF-8 XML as text, each run of invalid bytes replaced by a numbered marker.

    A document that declares another encoding is left to the XML parser as bytes."""
    declared = _DECLARED_ENCODING.match(data[:256])
    if declared and declared.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return XmlText(data)
    try:
        return XmlText(data.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", "surrogateescape")
    pieces: list[str] = []
    bad: list[tuple[int, bytes]] = []
    last, line = 0, 1
    for run in _ESCAPED_BYTES.finditer(text):
        line += text.count("\n", last, run.start())
        pieces += (text[last : run.start()], f"{_OPEN}{len(bad)}{_CLOSE}")
        bad.append((line, run.group(0).encode("utf-8", "surrogateescape")))
        last = run.end()
    pieces.append(text[last:])
    return XmlText("".join(pieces), tuple(bad))


def tainted(element: ET.Element, text: XmlText) -> list[int]:
    """The numbers of the invalid byte runs inside ``element``."""
    if not text.bad:
        return []
    return [int(n) for n in _MARKER.findall(ET.tostring(element, encoding="unicode"))]


def bad_bytes_reason(runs: list[int], text: XmlText) -> str:
    shown = ", ".join(
        f"{' '.join(f'0x{b:02x}' for b in text.bad[n][1])} on line {text.bad[n][0]}"
        for n in runs[:3]
    )
    return f"invalid UTF-8 ({shown})"


def spelt(element: ET.Element, text: XmlText) -> str:
    """An excerpt of the element as written, the invalid bytes shown as ``\\xNN``."""
    raw = ET.tostring(element, encoding="unicode")
    first = _MARKER.search(raw)
    if first is not None and first.start() > EXCERPT_CHARS - 150:
        raw = f"{raw[:150]} \u2026 {raw[first.start() - 150 :]}"

    def spell(match: re.Match[str]) -> str:
        return "".join(f"\\x{byte:02x}" for byte in text.bad[int(match.group(1))][1])

    return _MARKER.sub(spell, raw)[:EXCERPT_CHARS]


def salvage(text: str | bytes, record_tag: str) -> tuple[ET.Element | None, ET.ParseError | None]:
    """The document as far as it parses, with only the ``record_tag`` elements that were
    closed before the parse broke; and the error it broke on (None: it did not break)."""
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    root: ET.Element | None = None
    complete: set[ET.Element] = set()
    error: ET.ParseError | None = None
    for start in range(0, len(text), _FEED_CHARS):
        parser.feed(text[start : start + _FEED_CHARS])
        root, error = _read_events(parser, root, complete, record_tag)
        if error is not None:
            break
    if error is None:
        try:
            parser.close()
        except ET.ParseError as closing:
            error = closing
        else:
            root, error = _read_events(parser, root, complete, record_tag)
    if root is not None:
        for parent in list(root.iter()):
            for child in list(parent):
                if child.tag == record_tag and child not in complete:
                    parent.remove(child)
    return root, error


def _read_events(
    parser: ET.XMLPullParser[ET.Element],
    root: ET.Element | None,
    complete: set[ET.Element],
    record_tag: str,
) -> tuple[ET.Element | None, ET.ParseError | None]:
    try:
        for event in parser.read_events():
            kind, element = event[0], event[-1]
            if not isinstance(element, ET.Element):
                continue
            root = element if root is None else root
            if kind == "end" and element.tag == record_tag:
                complete.add(element)
    except ET.ParseError as error:
        return root, error
    return root, None


def near(text: str | bytes, line: int, column: int) -> str:
    """The text before a position (1-based line, 0-based column): where a file broke off."""
    data = text if isinstance(text, str) else text.decode("utf-8", "backslashreplace")
    offset = 0
    for _ in range(line - 1):
        found = data.find("\n", offset)
        if found < 0:
            break
        offset = found + 1
    end = min(len(data), offset + column)
    return _MARKER.sub("\ufffd", data[max(0, end - 300) : end + 100])[:EXCERPT_CHARS]
