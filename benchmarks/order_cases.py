"""Small hard cases for the load order: a handful of papers by a few people whose names the
three sources print differently, with the ways real sources disagree drawn at random.

Each case is the papers of one seed as OpenAlex, S2 and arXiv would give them: the same
papers and positions, each source printing one of its person's forms of the name at each
slot; S2 and OpenAlex give author ids, arXiv none. What a case may hold, each drawn per seed:

* ``split``: a source gives one person two ids, either on any of their slots;
* ``shared``: S2 gives two namesakes (two ``Jun Li``) one id;
* ``apart``: one person printed as names no variant joins (``Jun Li`` and ``Jun Lee``),
  so one slot may print two such names in two sources;
* a source leaving a paper out.

The demo corpus keeps each person's printings within one name's variants; these cases go
past that, to the disagreements the write plan must still decide alike in any order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from scholargraph.graph.records import AuthorRecord, Authorship, Batch, PaperRecord, Source

# Each person: the forms the sources print. The two "Jun Li" and the two "Wei Zhang" are
# namesakes; the last form of the first is one no variant spelling joins to the others.
PEOPLE: tuple[tuple[str, ...], ...] = (
    ("Jun Li", "J. Li", "Jun Lee"),
    ("Jun Li", "J. Li"),
    ("Maria García-López", "Maria García López", "M. Garcia-Lopez"),
    ("Jean de Lefebvre", "J.-L. Lefebvre", "Jean Lefebvre"),
    ("Wei Zhang", "Zhang Wei", "W. Zhang"),
    ("Wei Zhang", "W. Zhang"),
)
COAUTHORS = ("Anna Berg", "Tom Hale", "Lena Ott", "Raj Patel", "Kofi Mensah")
KINDS = ("split", "shared", "apart")
SOURCES: tuple[Source, ...] = ("openalex", "s2", "arxiv")


@dataclass(frozen=True, slots=True)
class Case:
    seed: int
    kinds: frozenset[str]
    batches: dict[Source, Batch]


def case(seed: int, kinds: frozenset[str] = frozenset(KINDS)) -> Case:
    """The case of ``seed``, drawing only from ``kinds`` (see the module)."""
    rnd = random.Random(seed)
    ids = {source: _ids(rnd, source, seed, "split" in kinds) for source in ("s2", "openalex")}
    shared = "shared" in kinds and rnd.random() < 0.3
    if shared:
        ids["s2"][1] = ids["s2"][0][:1]
    split = any(len(held) > 1 for by_person in ids.values() for held in by_person.values())
    forms = [p if "apart" in kinds or i != 0 else p[:2] for i, p in enumerate(PEOPLE)]
    papers: dict[Source, list[PaperRecord]] = {source: [] for source in SOURCES}
    apart = False
    for number in range(rnd.randint(5, 9)):
        people = rnd.sample(range(len(PEOPLE)), rnd.randint(1, 2))
        others = rnd.sample(COAUTHORS, rnd.randint(0, 2))
        key = f"2{seed % 10}{number % 9 + 1:02d}.{seed % 1000:03d}{number:02d}"
        year = rnd.randint(2015, 2024)
        for source in SOURCES:
            if source != "arxiv" and rnd.random() < 0.25:
                continue
            authors = [
                _author(rnd.choice(forms[person]), source, rnd, ids, person) for person in people
            ]
            apart |= any(a.name == "Jun Lee" for a in authors)
            authors += [AuthorRecord(name=name, source=source) for name in others]
            papers[source].append(_paper(key, source, year, authors))
    held = {k for k, on in (("split", split), ("shared", shared), ("apart", apart)) if on}
    return Case(seed, frozenset(held), {s: Batch(papers=papers[s]) for s in SOURCES})


def _ids(rnd: random.Random, source: str, seed: int, split: bool) -> dict[int, list[str]]:
    prefix = "A" if source == "openalex" else ""
    return {
        person: [
            f"{prefix}{seed}{person}{n}" for n in (1, 2)[: 2 if split and rnd.random() < 0.3 else 1]
        ]
        for person in range(len(PEOPLE))
    }


def _author(
    name: str, source: Source, rnd: random.Random, ids: dict[str, dict[int, list[str]]], person: int
) -> AuthorRecord:
    if source == "arxiv":
        return AuthorRecord(name=name, source=source)
    given = (rnd.choice(ids[source][person]),)
    if source == "s2":
        return AuthorRecord(name=name, source=source, s2_ids=given)
    return AuthorRecord(name=name, source=source, openalex_ids=given)


def _paper(key: str, source: Source, year: int, authors: list[AuthorRecord]) -> PaperRecord:
    return PaperRecord(
        source=source,
        title=f"Paper {key}",
        arxiv_id=key,
        published=date(year, 1, 15),
        year=year,
        primary_category="cs.DL",
        categories=("cs.DL",),
        authorships=tuple(
            Authorship(position=i, raw_name=a.name, author=a)
            for i, a in enumerate(authors, start=1)
        ),
        retrieved=date(2026, 1, 1),
    )
