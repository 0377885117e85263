"""Which source's value a paper shows, field by field.

Sources disagree: arXiv has the author's own title, abstract and categories; OpenAlex and S2
have the publisher's DOI and citation counts; each has its own ids. A paper's fields are
decided one by one by :func:`choose`, the one rule: each candidate value carries a *rank*,
and the highest rank wins. A rank is a string that compares as the rule of its field says
(see :data:`RULES`, and the table in ``docs/identity.md``): first what the field prefers
(a publisher's DOI over arXiv's DataCite one, the larger citation count, the earlier date),
then the source (:data:`SOURCE_ORDER`), then the newer retrieval of the same source, then the
record's own id, so that two candidates never tie unless they are the same record.

The paper keeps the rank of each field's winner (``field_ranks``), so a later record
replaces a value only if it outranks the stored one: the result is the best candidate of all
records ever written, whatever order they came in.

>>> arxiv = Candidate("title", {"title": "BERT: Pre-training"}, "3|2019-05-24|arxiv:1810.04805")
>>> s2 = Candidate("title", {"title": "Bert"}, "1|2026-01-01|s2:df2b0e26")
>>> choose({}, [s2, arxiv]).props
{'title': 'BERT: Pre-training'}
>>> choose({"title": arxiv.rank}, [s2]).props
{}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from scholargraph.graph.ids import arxiv_id_from_doi
from scholargraph.graph.records import PaperRecord

# Per field, the sources whose value it prefers, best first; a source not named ranks last.
SOURCE_ORDER: dict[str, tuple[str, ...]] = {
    "title": ("arxiv", "openalex", "s2"),
    "abstract": ("arxiv", "s2", "openalex"),
    "arxiv_id": ("arxiv", "s2", "openalex"),
    "doi": ("openalex", "s2", "arxiv"),
    "s2_id": ("s2",),
    "s2_corpus_id": ("s2",),
    "openalex_id": ("openalex",),
    "mag_id": ("openalex", "s2"),
    "published": ("arxiv",),
    "year": ("arxiv",),
    "updated": ("arxiv",),
    "versions": ("arxiv",),
    "categories": ("arxiv",),
    "journal_ref": ("arxiv",),
    "comments": ("arxiv",),
    "withdrawn": ("arxiv",),
    "citations": ("openalex", "s2"),
    "authors": ("arxiv", "s2", "openalex"),
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One source record's value of one field (the properties it sets) and its rank."""

    field: str
    props: Mapping[str, Any]
    rank: str


@dataclass(frozen=True, slots=True)
class Choice:
    """What a paper's stored fields become: the properties to set (fields whose winner
    changed), every field's winning rank, and the categories when they changed."""

    props: dict[str, Any] = field(default_factory=dict)
    ranks: dict[str, str] = field(default_factory=dict)
    categories: list[dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """A field: the properties it sets, and which value it prefers (for the docs)."""

    props: tuple[str, ...]
    prefers: str


def _publisher_doi(record: PaperRecord, props: Mapping[str, Any]) -> str:
    doi = record.doi
    return "1" if doi and arxiv_id_from_doi(doi) is None else "0"


def _earlier(value: object) -> str:
    """A date or year turned so that the earlier one ranks higher."""
    if isinstance(value, date):
        return f"{99991231 - int(value.strftime('%Y%m%d')):08d}"
    return f"{9999 - int(str(value)):04d}"


def _later(value: object) -> str:
    return value.strftime("%Y%m%d") if isinstance(value, date) else "00000000"


def _count(width: int) -> Callable[[object], str]:
    return lambda value: f"{int(str(value)):0{width}d}"


def _versions(record: PaperRecord) -> str:
    return f"{max((v.version for v in record.versions), default=0):03d}"


RULES: dict[str, Rule] = {
    "title": Rule(("title",), "arXiv's; an empty title is no candidate"),
    "abstract": Rule(("abstract",), "arXiv's, then S2's (OpenAlex's is rebuilt from single words)"),
    "arxiv_id": Rule(("arxiv_id",), "any source's (two arXiv ids are two papers)"),
    "doi": Rule(
        ("doi",),
        "a publisher's DOI over arXiv's DataCite one, then OpenAlex's, S2's, arXiv's own",
    ),
    "s2_id": Rule(("s2_id",), "S2's, the newest retrieval"),
    "s2_corpus_id": Rule(("s2_corpus_id",), "S2's, the newest retrieval"),
    "openalex_id": Rule(
        ("openalex_id",),
        "the work with a publisher's DOI (the journal version), then the newest",
    ),
    "mag_id": Rule(("mag_id",), "OpenAlex's, then S2's"),
    "published": Rule(("published",), "arXiv's first version, else the earliest date"),
    "year": Rule(("year",), "arXiv's, else the earliest year"),
    "updated": Rule(("updated",), "arXiv's latest version date"),
    "versions": Rule(("versions",), "arXiv's, the most versions"),
    "categories": Rule(
        ("primary_category", "categories"),
        "arXiv's, the newest record (its categories replace the old ones)",
    ),
    "journal_ref": Rule(("journal_ref",), "arXiv's, the newest record"),
    "comments": Rule(("comments",), "arXiv's, the newest record"),
    "withdrawn": Rule(("withdrawn",), "arXiv's newest version"),
    "citations": Rule(
        ("citation_count", "citation_source"), "the largest count, with the source that gave it"
    ),
    "authors": Rule(
        ("n_authors", "hyperauthored", "alphabetical", "authors_truncated"),
        "the source that owns the author order; within one, a full list over a cut one, "
        "then the longest",
    ),
}

# The part of a rank that comes after the source: dates and counts, as the field prefers.
_AFTER_SOURCE: dict[str, Callable[[PaperRecord, Mapping[str, Any]], str]] = {
    "published": lambda r, p: _earlier(p["published"]),
    "year": lambda r, p: _earlier(p["year"]),
    "updated": lambda r, p: _later(p["updated"]),
    "versions": lambda r, p: _count(3)(p["versions"]),
    "withdrawn": lambda r, p: _versions(r),
    "authors": lambda r, p: ("0" if p["authors_truncated"] else "1") + _count(6)(p["n_authors"]),
}
# The part before the source: what outranks any source.
_BEFORE_SOURCE: dict[str, Callable[[PaperRecord, Mapping[str, Any]], str]] = {
    "doi": _publisher_doi,
    "openalex_id": _publisher_doi,
    "citations": lambda r, p: _count(9)(p["citation_count"]),
}


def record_ref(record: PaperRecord) -> str:
    """The record's own id in its source (``openalex:W2963341956``, ``s2:<sha>``): two
    records of one paper from one source are told apart by it."""
    own = {
        "arxiv": record.arxiv_id,
        "s2": record.s2_id or (f"corpus{record.s2_corpus_id}" if record.s2_corpus_id else None),
        "openalex": record.openalex_id,
    }.get(record.source)
    return f"{record.source}:{own or record.key}"


def _source_ranks() -> dict[str, dict[str, str]]:
    return {
        name: {source: str(len(order) - i) for i, source in enumerate(order)}
        for name, order in SOURCE_ORDER.items()
    }


_SOURCE_RANK = _source_ranks()


def _rank(name: str, record: PaperRecord, values: Mapping[str, Any], tail: str) -> str:
    before = _BEFORE_SOURCE.get(name)
    after = _AFTER_SOURCE.get(name)
    source = _SOURCE_RANK[name].get(record.source, "0")
    if before is not None:
        source = f"{before(record, values)}|{source}"
    if after is not None:
        source = f"{source}|{after(record, values)}"
    return f"{source}|{tail}"


def _tail(record: PaperRecord) -> str:
    """The end of every rank of a record: its retrieval date, then its own id."""
    when = record.retrieved.isoformat() if record.retrieved else "0000-00-00"
    return f"{when}|{record_ref(record)}"


def rank_of(field_name: str, record: PaperRecord, props: Mapping[str, Any]) -> str:
    """The rank of a record's value of one field (``props`` holds the record's values)."""
    return _rank(field_name, record, props, _tail(record))


def candidates(
    record: PaperRecord, props: Mapping[str, Any], categories: Sequence[Mapping[str, Any]]
) -> list[Candidate]:
    """A record's candidates, one per field it has a value for. ``props`` are the record's
    paper properties, ``categories`` its category rows (``{"code", "primary"}``)."""
    values = {
        "mag_id": record.mag_id,
        **props,
        "categories": list(categories),
        "citation_source": record.source,
    }
    tail = _tail(record)
    found = []
    for name, rule in RULES.items():
        main = "categories" if name == "categories" else rule.props[0]
        value = values.get(main)
        if value is None or value in ("", []) or (name == "authors" and not value):
            continue
        chosen = {prop: values.get(prop) for prop in rule.props}
        found.append(Candidate(name, chosen, _rank(name, record, values, tail)))
    return found


def stored_candidates(
    props: Mapping[str, Any], ranks: Mapping[str, str], categories: Sequence[Mapping[str, Any]]
) -> list[Candidate]:
    """The winners a stored paper holds, as candidates (to merge two papers' fields)."""
    values = {**props, "categories": list(categories)}
    return [
        Candidate(name, {prop: values.get(prop) for prop in RULES[name].props}, rank)
        for name, rank in ranks.items()
        if name in RULES
    ]


def choose(stored: Mapping[str, str], offered: Iterable[Candidate]) -> Choice:
    """The one rule: per field, the highest-ranked candidate wins, unless the stored winner
    (``stored``: field → its rank) ranks higher. An equal rank is the same record again,
    whose value is written again."""
    best: dict[str, Candidate] = {}
    for candidate in offered:
        current = best.get(candidate.field)
        if current is None or candidate.rank > current.rank:
            best[candidate.field] = candidate
    choice = Choice(ranks=dict(stored))
    categories = None
    for name, candidate in sorted(best.items()):
        if candidate.rank < stored.get(name, ""):
            continue
        choice.ranks[name] = candidate.rank
        for prop, value in candidate.props.items():
            if prop == "categories":
                categories = list(value)
            else:
                choice.props[prop] = value
    return Choice(choice.props, choice.ranks, categories)


def merge_records(
    stored: Mapping[str, str],
    records: Iterable[tuple[PaperRecord, Mapping[str, Any], Sequence[Mapping[str, Any]]]],
) -> Choice:
    """:func:`choose` over every candidate of some records of one paper: ``(record, its
    paper properties, its category rows)``."""
    return choose(stored, (c for r, p, cats in records for c in candidates(r, p, cats)))


def parse_ranks(stored: Sequence[str] | None) -> dict[str, str]:
    """The ``field=rank`` strings a paper stores, as a mapping."""
    return dict(item.split("=", 1) for item in stored or ())


def format_ranks(ranks: Mapping[str, str]) -> list[str]:
    return [f"{name}={rank}" for name, rank in sorted(ranks.items())]


def deletion_rank(arxiv_id: str, when: date) -> str:
    """The rank of ``withdrawn`` when arXiv's OAI-PMH marks a record deleted (on ``when``):
    above any version's, since a deletion comes after the last of them."""
    return f"{_SOURCE_RANK['withdrawn']['arxiv']}|999|{when.isoformat()}|arxiv:{arxiv_id}"
