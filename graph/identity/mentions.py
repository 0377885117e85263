"""Author slots and the two ways a :class:`Mention` is made: from a slot a source prints, and
from what the graph stores of a researcher.

Both the loader (scoring a new slot against the researchers of its name block) and the
same-name records curators see score stored researchers through :func:`stored_mention`, so a
score means the same thing wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from scholargraph.graph.identity.names import parse_name, printed_block_key
from scholargraph.graph.identity.precedence import SOURCE_ORDER
from scholargraph.graph.identity.scoring import Mention
from scholargraph.graph.records import AuthorRecord, InstitutionRef, PaperRecord, Source

# Which source's author list sets a slot's position, raw name and kind when several list the
# paper: the ``authors`` row of the paper precedence (arXiv's, the authors' own submission,
# first), then any other source.
AUTHOR_ORDER: tuple[str, ...] = tuple(dict.fromkeys((*SOURCE_ORDER["authors"], *get_args(Source))))
ORDER_RANK: dict[str, int] = {source: rank for rank, source in enumerate(AUTHOR_ORDER)}


def identifier_keys(author: AuthorRecord) -> list[tuple[str, str]]:
    """``(method, identifier key)`` of an author, in the order they decide."""
    keys: list[tuple[str, str]] = []
    if author.orcid:
        keys.append(("orcid", f"orcid:{author.orcid}"))
    keys += [("s2_id", f"s2:{x}") for x in author.s2_ids]
    keys += [("openalex_id", f"openalex:{x}") for x in author.openalex_ids]
    return keys


@dataclass(frozen=True, slots=True)
class Slot:
    """One author slot of one paper as one source prints it, with the evidence scoring uses.

    ``coauthors`` holds the name keys of the other authors, and is empty on papers with more
    authors than the coauthor cap (a name among thousands tells nothing about a person).
    """

    paper: str
    position: int
    n_authors: int
    raw_name: str
    author: AuthorRecord
    source: Source
    year: int | None = None
    categories: tuple[str, ...] = ()
    affiliations: tuple[str, ...] = ()
    ror_ids: tuple[str, ...] = ()
    coauthors: frozenset[str] = frozenset()
    institutions: tuple[InstitutionRef, ...] = ()
    id_keys: tuple[tuple[str, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "id_keys", tuple(identifier_keys(self.author)))


def n_authors(paper: PaperRecord) -> int:
    """Authors on the paper: the highest printed position (sources drop unnamed slots)."""
    return max((a.position for a in paper.authorships), default=0)


def slots_of(paper: PaperRecord, *, hyperauthored: bool = False) -> tuple[Slot, ...]:
    """The paper's author slots as its source prints them; a hyperauthored paper's slots
    carry no coauthors."""
    n = n_authors(paper)
    keys = [] if hyperauthored else [printed_block_key(a.raw_name) for a in paper.authorships]
    year = paper.year or (paper.published.year if paper.published else None)
    slots = []
    for index, authorship in enumerate(paper.authorships):
        names = tuple(i.name for i in authorship.institutions if i.name)
        own = keys[index] if keys else None
        slots.append(
            Slot(
                paper=paper.key,
                position=authorship.position,
                n_authors=n,
                raw_name=authorship.raw_name,
                author=authorship.author,
                source=paper.source,
                year=year,
                categories=paper.categories,
                affiliations=tuple(dict.fromkeys((*authorship.raw_affiliations, *names))),
                ror_ids=tuple(i.ror_id for i in authorship.institutions if i.ror_id),
                coauthors=frozenset(k for k in keys if k != own),
                institutions=authorship.institutions,
            )
        )
    return tuple(slots)


def slot_order(slot: Slot) -> tuple[str, str, int]:
    return (slot.paper, slot.source, slot.position)


def new_group_of(slot: Slot) -> str:
    """The group of a researcher created for this slot (and whichever slots join it)."""
    return f"new:{slot.paper}:{slot.source}:{slot.position}"


def slot_mention(key: str, slot: Slot) -> Mention:
    return Mention(
        mention_id=key,
        name=parse_name(slot.raw_name),
        paper_id=slot.paper,
        position=slot.position,
        n_authors=slot.n_authors,
        affiliations=slot.affiliations,
        ror_ids=slot.ror_ids,
        coauthors=slot.coauthors,
        categories=frozenset(slot.categories),
        year=slot.year,
        orcid=slot.author.orcid,
        s2_author_id=slot.author.s2_ids[0] if slot.author.s2_ids else None,
        openalex_author_id=slot.author.openalex_ids[0] if slot.author.openalex_ids else None,
    )


def stored_mention(row: Mapping[str, Any], shared_with: Mapping[str, Any] | None = None) -> Mention:
    """A researcher in the graph as one mention carrying everything stored of them.

    ``row`` holds the researcher's stored features: ``id``, ``name``, ``affiliation_names``,
    ``ror_ids``, ``coauthor_keys``, ``category_codes``, ``year_min``/``year_max`` (the mention's
    year is the middle of the two: the score's year gap is then at most half a career),
    ``orcid``, ``s2_ids`` and ``openalex_ids``, and ``topic`` when read. The mention carries
    one S2 and one OpenAlex author id: the first stored, or with ``shared_with`` (another
    researcher's row) one the two share, so a shared id scores as the same person and the
    others say nothing.
    """
    s2_ids, openalex_ids = list(row.get("s2_ids") or ()), list(row.get("openalex_ids") or ())
    if shared_with is not None:
        s2_ids = sorted(set(s2_ids) & set(shared_with.get("s2_ids") or ()))
        openalex_ids = sorted(set(openalex_ids) & set(shared_with.get("openalex_ids") or ()))
    years = [y for y in (row.get("year_min"), row.get("year_max")) if y is not None]
    return Mention(
        mention_id=str(row["id"]),
        name=parse_name(row["name"]),
        affiliations=tuple(row.get("affiliation_names") or ()),
        ror_ids=tuple(row.get("ror_ids") or ()),
        coauthors=frozenset(row.get("coauthor_keys") or ()),
        categories=frozenset(row.get("category_codes") or ()),
        year=round(sum(years) / len(years)) if years else None,
        orcid=row.get("orcid"),
        s2_author_id=s2_ids[0] if s2_ids else None,
        openalex_author_id=openalex_ids[0] if openalex_ids else None,
        topic=tuple(row["topic"]) if row.get("topic") else None,
    )
