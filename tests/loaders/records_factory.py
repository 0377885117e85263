"""Small hand-made records for writer tests."""

from __future__ import annotations

from datetime import date

from scholargraph.graph.records import AuthorRecord, Authorship, InstitutionRef, PaperRecord, Source


def author(
    name: str,
    source: Source = "arxiv",
    *,
    orcid: str | None = None,
    s2: str | None = None,
    openalex: str | None = None,
) -> AuthorRecord:
    return AuthorRecord(
        name=name,
        source=source,
        orcid=orcid,
        s2_ids=(s2,) if s2 else (),
        openalex_ids=(openalex,) if openalex else (),
    )


def paper(
    arxiv_id: str,
    names: list[str | AuthorRecord],
    *,
    source: Source = "arxiv",
    title: str = "A paper",
    year: int = 2020,
    categories: tuple[str, ...] = ("cs.DC",),
    institutions: dict[int, InstitutionRef] | None = None,
    citations: int | None = None,
) -> PaperRecord:
    authorships = []
    for position, entry in enumerate(names, start=1):
        record = entry if isinstance(entry, AuthorRecord) else author(entry, source)
        insts = (institutions or {}).get(position)
        authorships.append(
            Authorship(
                position=position,
                raw_name=record.name,
                author=record,
                institutions=(insts,) if insts else (),
            )
        )
    return PaperRecord(
        source=source,
        title=title,
        arxiv_id=arxiv_id,
        published=date(year, 1, 15),
        year=year,
        primary_category=categories[0],
        categories=categories,
        citation_count=citations,
        authorships=tuple(authorships),
        retrieved=date(2026, 1, 1),
    )
