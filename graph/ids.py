"""Canonical forms of the ids the sources use.

>>> normalize_arxiv_id("arXiv:2301.08658v2")
'2301.08658'
>>> normalize_arxiv_id("https://arxiv.org/abs/math.CO/9901016v1")
'math/9901016'
>>> normalize_arxiv_id("10.48550/arXiv.astro-ph/9901001")
'astro-ph/9901001'
>>> arxiv_version("2301.08658v2")
2
>>> normalize_orcid("https://orcid.org/0000-0002-1825-0097")
'0000-0002-1825-0097'
>>> normalize_doi("https://doi.org/10.48550/ARXIV.2301.08658")
'10.48550/arxiv.2301.08658'
>>> normalize_ror("https://ror.org/03yrm5c26")
'03yrm5c26'
>>> normalize_openalex("https://openalex.org/A5001226970")
'A5001226970'
>>> normalize_mag("2963341956"), normalize_s2_paper("649DEF34F8BE52C8B66281AF98AE884C09AEF38B")
('2963341956', '649def34f8be52c8b66281af98ae884c09aef38b')
"""

from __future__ import annotations

import re
from functools import lru_cache

from scholargraph.graph.errors import BadInput

_NEW = re.compile(r"^(\d{4}\.\d{4,5})(?:v(\d+))?$")
_OLD = re.compile(r"^([a-z][a-z\-]+)(?:\.[A-Za-z\-]{2,})?/(\d{7})(?:v(\d+))?$")
_PREFIXES = (
    "https://arxiv.org/abs/",
    "http://arxiv.org/abs/",
    "https://export.arxiv.org/abs/",
    "http://export.arxiv.org/abs/",
    "https://arxiv.org/pdf/",
    "http://arxiv.org/pdf/",
    "oai:arxiv.org:",
    "arxiv:",
    "10.48550/arxiv.",
    "https://doi.org/10.48550/arxiv.",
)
_ORCID = re.compile(r"^(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dX])$")
_ROR = re.compile(r"^0[a-hj-km-np-tv-z0-9]{6}\d{2}$")
_OPENALEX = re.compile(r"^[WAISCFPTKwaiscfptk]\d+$")
_MAG = re.compile(r"^\d{1,19}$")
_S2_PAPER = re.compile(r"^[0-9a-f]{40}$")


def _strip_prefix(raw: str) -> str:
    text = raw.strip()
    low = text.lower()
    for prefix in _PREFIXES:
        if low.startswith(prefix):
            return text[len(prefix) :]
    return text


@lru_cache(maxsize=1 << 16)
def parse_arxiv_id(raw: str) -> tuple[str, int | None]:
    """Split any arXiv id form into (id without version, version or None)."""
    text = _strip_prefix(raw).removesuffix(".pdf")
    if (m := _NEW.match(text)) and _new_style_ok(m.group(1)):
        return m.group(1), int(m.group(2)) if m.group(2) else None
    if m := _OLD.match(text):
        return f"{m.group(1)}/{m.group(2)}", int(m.group(3)) if m.group(3) else None
    raise BadInput(
        f"{raw!r} is not an arXiv id; expected e.g. 2301.08658, 2301.08658v2 or astro-ph/9901001"
    )


def _new_style_ok(arxiv_id: str) -> bool:
    # Four-digit sequence numbers ran from 0704 to 1412; five digits from 1501 on.
    yymm, number = arxiv_id.split(".")
    month = int(yymm[2:])
    return 1 <= month <= 12 and (len(number) == 5) == (yymm >= "1501")


def normalize_arxiv_id(raw: str) -> str:
    return parse_arxiv_id(raw)[0]


def arxiv_version(raw: str) -> int | None:
    return parse_arxiv_id(raw)[1]


def is_arxiv_id(raw: str) -> bool:
    try:
        parse_arxiv_id(raw)
    except BadInput:
        return False
    return True


def arxiv_doi(arxiv_id: str) -> str:
    """The DataCite DOI arXiv mints for a paper (lower-cased like every stored DOI)."""
    return f"10.48550/arxiv.{normalize_arxiv_id(arxiv_id)}".lower()


@lru_cache(maxsize=1 << 16)
def arxiv_id_from_doi(doi: str) -> str | None:
    low = normalize_doi(doi)
    if low.startswith("10.48550/arxiv."):
        try:
            return normalize_arxiv_id(low[len("10.48550/arxiv.") :])
        except BadInput:
            return None
    return None


def normalize_doi(raw: str) -> str:
    text = raw.strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "doi:"):
        if text.lower().startswith(prefix):
            text = text[len(prefix) :]
    return text.lower()


def normalize_orcid(raw: str) -> str:
    text = raw.strip().rsplit("/", 1)[-1].upper()
    m = _ORCID.match(text)
    if not m:
        raise BadInput(f"{raw!r} is not an ORCID iD; expected 0000-0002-1825-0097")
    orcid = "-".join(m.groups())
    if not orcid_checksum_ok(orcid):
        raise BadInput(f"{raw!r} fails the ORCID MOD 11-2 checksum; check the last character")
    return orcid


def orcid_checksum_ok(orcid: str) -> bool:
    digits = orcid.replace("-", "")
    total = 0
    for ch in digits[:-1]:
        total = (total + int(ch)) * 2
    check = (12 - total % 11) % 11
    return digits[-1] == ("X" if check == 10 else str(check))


def normalize_ror(raw: str) -> str:
    text = raw.strip().rstrip("/").rsplit("/", 1)[-1].lower()
    if not _ROR.match(text):
        raise BadInput(f"{raw!r} is not a ROR id; expected 03yrm5c26 or https://ror.org/03yrm5c26")
    return text


def normalize_openalex(raw: str) -> str:
    text = raw.strip().rstrip("/").rsplit("/", 1)[-1]
    if not _OPENALEX.match(text):
        raise BadInput(f"{raw!r} is not an OpenAlex id; expected e.g. A5001226970")
    return text[0].upper() + text[1:]


def normalize_mag(raw: str) -> str:
    """A Microsoft Academic Graph id, as OpenAlex (``ids.mag``) and S2 (``externalIds.MAG``)
    still give it: digits."""
    text = raw.strip()
    if not _MAG.match(text):
        raise BadInput(f"{raw!r} is not a MAG id; expected digits, e.g. 2963341956")
    return text


def normalize_s2_paper(raw: str) -> str:
    """An S2 paper id: the 40-hex sha, lower-cased."""
    text = raw.strip().rstrip("/").rsplit("/", 1)[-1].lower()
    if not _S2_PAPER.match(text):
        raise BadInput(f"{raw!r} is not an S2 paper id; expected 40 hexadecimal digits")
    return text
