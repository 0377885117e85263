"""TeX in titles and abstracts, as MathML for pages and as plain text for titles and feeds.

Math is what arXiv authors write between ``$…$``, ``$$…$$``, ``\\(…\\)`` or ``\\[…\\]``; an
escaped ``\\$`` is a dollar sign. Each formula goes through latex2mathml, and only what
MathML needs to be drawn is kept of its output: known presentation elements, a few
layout attributes, and text re-escaped (latex2mathml passes ``\\text{<b>}`` and
``\\href{javascript:…}`` through as markup). A formula it cannot read is shown as its
source, without the dollars, in ``<code>``.

>>> str(to_html("Bounds for $x<1$ & more"))
'Bounds for <math display="inline"><mrow><mi>x</mi><mo>&lt;</mo><mn>1</mn></mrow></math> &amp; more'
>>> to_plain("Bounds for $x<1$ and $\\\\alpha$-stable laws")
'Bounds for x<1 and α-stable laws'
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from xml.etree.ElementTree import Element

from latex2mathml.converter import Converter
from latex2mathml.exceptions import NoAvailableTokensError
from markupsafe import Markup, escape

_MATH = re.compile(
    r"\$\$(?P<block>.+?)\$\$"
    r"|(?<!\\)\$(?P<inline>[^\s$](?:[^$]*?[^\s\\$])?)\$"
    r"|\\\((?P<paren>.+?)\\\)"
    r"|\\\[(?P<bracket>.+?)\\\]",
    re.DOTALL,
)
# fmt: off
_TAGS = frozenset((
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup",
    "munder", "mover", "munderover", "mfrac", "msqrt", "mroot", "mstyle", "mtable", "mtr",
    "mtd", "mpadded", "mphantom", "menclose", "merror", "mmultiscripts", "mprescripts", "none",
))
_ATTRIBUTES = frozenset((
    "display", "mathvariant", "stretchy", "fence", "separator", "lspace", "rspace", "accent",
    "accentunder", "columnalign", "rowspacing", "columnspacing", "linethickness", "minsize",
    "maxsize", "movablelimits", "form", "width", "height", "depth", "displaystyle",
    "scriptlevel", "notation",
))
# fmt: on
_SAFE_VALUE = re.compile(r"^[\w .%+-]*$")


class _Unreadable(Exception):
    pass


def _spans(text: str) -> list[tuple[str, bool, bool]]:
    """``text`` cut into (piece, is math, is display math)."""
    pieces: list[tuple[str, bool, bool]] = []
    at = 0
    for match in _MATH.finditer(text):
        if match.start() > at:
            pieces.append((text[at : match.start()], False, False))
        block = match.group("block") or match.group("bracket")
        pieces.append((block or match.group("inline") or match.group("paren"), True, bool(block)))
        at = match.end()
    if at < len(text):
        pieces.append((text[at:], False, False))
    return pieces


def _serialize(element: Element) -> str:
    tag = element.tag.rsplit("}", 1)[-1]
    if tag not in _TAGS:
        raise _Unreadable(tag)
    attributes = "".join(
        f' {name}="{html.escape(value)}"'
        for name, value in element.attrib.items()
        if name in _ATTRIBUTES and _SAFE_VALUE.match(value)
    )
    inner = html.escape(html.unescape(element.text or ""), quote=False)
    for child in element:
        inner += _serialize(child)
        inner += html.escape(html.unescape(child.tail or ""), quote=False)
    return f"<{tag}{attributes}>{inner}</{tag}>"


@lru_cache(maxsize=8192)
def _mathml(tex: str, display: bool) -> str | None:
    try:
        converter = Converter(xmlns="", display="block" if display else "inline")
        element = converter.convert_to_element(tex)
        return _serialize(element)
    except (_Unreadable, NoAvailableTokensError, ValueError, KeyError, IndexError, TypeError):
        return None
    except Exception:  # latex2mathml raises its own errors for many malformed inputs
        return None


@lru_cache(maxsize=8192)
def _plain_math(tex: str) -> str:
    mathml = _mathml(tex, False)
    if mathml is None:
        return re.sub(r"\\([a-zA-Z]+)", r"\1", tex)
    return html.unescape(re.sub(r"<[^>]+>", "", mathml))


def to_html(text: str | None) -> Markup:
    """The text escaped, its formulas as MathML."""
    if not text:
        return Markup("")
    if "$" not in text and "\\" not in text:
        return escape(text)
    out = []
    for piece, is_math, display in _spans(text):
        if not is_math:
            out.append(str(escape(piece.replace("\\$", "$"))))
            continue
        mathml = _mathml(piece, display)
        out.append(mathml if mathml is not None else f"<code>{escape(piece)}</code>")
    return Markup("".join(out))


def to_plain(text: str | None) -> str:
    """The text with each formula read out as plain characters (for titles, feeds, meta)."""
    if not text:
        return ""
    if "$" not in text and "\\" not in text:
        return text
    return "".join(
        _plain_math(piece) if is_math else piece.replace("\\$", "$")
        for piece, is_math, _ in _spans(text)
    )
