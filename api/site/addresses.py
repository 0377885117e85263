"""The site's addresses: every entity's canonical path, and the forms that lead to it.

A researcher lives at ``/researchers/<id>-<slug>``, a paper at ``/papers/<arXiv id>-<slug of
its title>`` (old-style ids keep their slash: ``/papers/astro-ph/9901001-dust-in-…``), an
institution at ``/institutions/<id>-<slug>``, a category at ``/categories/<code>``. Any
other form that names the same entity (the bare id, an old slug, a ``vN`` arXiv id, the
DataCite DOI, a ROR id, a name) is answered with a 301 to the canonical path.

>>> paper_slug("ATP: Adaptive Tensor Parallelism for Foundation Models")
'atp-adaptive-tensor-parallelism-for-foundation-models'
>>> split_paper_ref("astro-ph/9901001v2-dust")
('astro-ph/9901001v2', 'dust')
>>> split_paper_ref("10.48550/arXiv.2301.08658")
('10.48550/arXiv.2301.08658', None)
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

from scholargraph.graph.loaders.rows import slugify
from scholargraph.graph.repo.models import Institution, Paper, Researcher

_SLUG_WORDS = 10
_SLUG_CHARS = 80
_TEX = re.compile(r"\$[^$]*\$|\\[a-zA-Z]+")
# An arXiv id (either style, maybe with a version) and what follows it: the slug.
_PAPER_REF = re.compile(
    r"^(?P<id>(?:arxiv:)?(?:\d{4}\.\d{4,5}|[a-z][a-z\-]+(?:\.[A-Za-z\-]{2,})?/\d{7})(?:v\d+)?)"
    r"(?:-(?P<slug>.*))?$",
    re.IGNORECASE,
)


def paper_slug(title: str) -> str:
    """The slug of a title: its first words, without TeX markup."""
    plain = _TEX.sub(lambda m: m.group(0).strip("$\\"), title)
    if not re.search("[A-Za-z0-9]", plain):
        return "paper"
    words = slugify(plain).split("-")[:_SLUG_WORDS]
    slug = "-".join(words)[:_SLUG_CHARS].strip("-")
    return slug or "paper"


def split_paper_ref(ref: str) -> tuple[str, str | None]:
    """An address's paper part as (the id as given, the slug after it or None); anything
    that is not an arXiv id (a DOI) comes back whole."""
    match = _PAPER_REF.match(ref)
    if not match:
        return ref, None
    return match.group("id"), match.group("slug")


def researcher_path(researcher: Researcher) -> str:
    return researcher.path


def paper_path(paper: Paper) -> str:
    if paper.arxiv_id or _PAPER_REF.match(paper.key):
        return f"/papers/{paper.key}-{paper_slug(paper.title)}"
    return f"/papers/{quote(paper.key, safe='/:')}"


def institution_path(institution: Institution) -> str:
    slug = institution.slug
    return f"/institutions/{institution.id}-{slug}" if slug else f"/institutions/{institution.id}"


def category_path(code: str) -> str:
    return f"/categories/{code}"


def with_query(path: str, **params: str | int | None) -> str:
    """``path`` with the given query parameters, leaving out the unset ones."""
    given = {k: v for k, v in params.items() if v is not None and v != ""}
    return f"{path}?{urlencode(given)}" if given else path
