"""Papers as arXiv OAI-PMH ``ListRecords`` pages in the ``arXiv`` metadata format."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from xml.sax.saxutils import escape

from scholargraph.graph import taxonomy
from scholargraph.graph.demo import names, text
from scholargraph.graph.demo.printing import affiliation_text, institution_at
from scholargraph.graph.demo.world import Paper, World

RESPONSE_DATE = "2026-01-15T00:00:00Z"
BASE_URL = "https://oaipmh.arxiv.org/oai"

_PAGE_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ '
    'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n'
    f"<responseDate>{RESPONSE_DATE}</responseDate>\n"
)
_METADATA_HEAD = (
    '<arXiv xmlns="http://arxiv.org/OAI/arXiv/" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://arxiv.org/OAI/arXiv/ http://arxiv.org/OAI/arXiv.xsd">\n'
)


@cache
def _set_spec(category: str) -> str:
    info = taxonomy.lookup(category)
    archive = info.archive
    if not info.active and taxonomy.successor(category):
        archive = taxonomy.lookup(taxonomy.successor(category) or category).archive
    if taxonomy.lookup_archive(archive).group == taxonomy.PHYSICS:
        return f"physics:{archive}"
    return archive


def _element(tag: str, value: str | None) -> str:
    return f"<{tag}>{escape(value)}</{tag}>\n" if value else ""


def _authors(world: World, paper: Paper) -> str:
    parts = ["<authors>"]
    for slot, member in enumerate(paper.authors):
        person = world.people[member]
        forenames, keyname, suffix = names.printed(person.name, paper.variants[slot])
        parts.append(f"<author><keyname>{escape(keyname)}</keyname>")
        if forenames:
            parts.append(f"<forenames>{escape(forenames)}</forenames>")
        if suffix:
            parts.append(f"<suffix>{escape(suffix)}</suffix>")
        if paper.prints_affiliations:
            where = affiliation_text(world, institution_at(world, person, paper), member)
            parts.append(f"<affiliation>{escape(where)}</affiliation>")
        parts.append("</author>")
    if paper.collaboration:  # collaborations appear as an author with only a keyname
        parts.append(f"<author><keyname>{escape(paper.collaboration)}</keyname></author>")
    parts.append("</authors>\n")
    return "".join(parts)


def record(world: World, paper: Paper) -> str:
    sets = dict.fromkeys(_set_spec(category) for category in paper.categories)
    set_specs = "".join(f"<setSpec>{spec}</setSpec>\n" for spec in sets)
    title = text.wrap(world.title(paper), width=70)
    abstract = "  " + text.wrap(world.abstract(paper), width=78, indent="")
    return (
        "<record>\n<header>\n"
        f"<identifier>oai:arXiv.org:{paper.arxiv_id}</identifier>\n"
        f"<datestamp>{paper.datestamp.isoformat()}</datestamp>\n"
        f"{set_specs}</header>\n<metadata>\n{_METADATA_HEAD}"
        f"<id>{paper.arxiv_id}</id>\n"
        f"<created>{paper.created.isoformat()}</created>\n"
        + (f"<updated>{paper.updated.isoformat()}</updated>\n" if paper.updated else "")
        + _authors(world, paper)
        + _element("title", title)
        + f"<categories>{' '.join(paper.categories)}</categories>\n"
        + _element("comments", paper.comments)
        + _element("journal-ref", paper.journal_ref)
        + _element("doi", paper.journal_doi)
        + _element("license", paper.license)
        + f"<abstract>{escape(abstract)}\n</abstract>\n"
        "</arXiv>\n</metadata>\n</record>\n"
    )


def pages(world: World, page_size: int) -> Iterator[str]:
    """``ListRecords`` responses of ``page_size`` records each, chained by resumption tokens."""
    total = len(world.papers)
    request = f'<request verb="ListRecords" metadataPrefix="arXiv">{BASE_URL}</request>\n'
    for cursor in range(0, total, page_size):
        chunk = world.papers[cursor : cursor + page_size]
        body = "".join(record(world, paper) for paper in chunk)
        following = cursor + page_size
        attributes = f'cursor="{cursor}" completeListSize="{total}"'
        if following < total:
            token = (
                f"<resumptionToken {attributes}>demo-{world.seed}|{following}</resumptionToken>\n"
            )
        else:
            token = f"<resumptionToken {attributes}/>\n"
        yield f"{_PAGE_HEAD}{request}<ListRecords>\n{body}{token}</ListRecords>\n</OAI-PMH>\n"
