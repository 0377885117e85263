"""Writes author profiles (S2/OpenAlex/ORCID authors), affiliations and institution records."""

from __future__ import annotations

from scholargraph.graph.db import Database, Tx
from scholargraph.graph.identity.mentions import identifier_keys
from scholargraph.graph.identity.names import base_block_key, block_key, parse_name
from scholargraph.graph.institutions.linking import ID_METHOD, ID_SCORE
from scholargraph.graph.loaders.institutions import InstitutionIndex
from scholargraph.graph.loaders.rows import slugify
from scholargraph.graph.records import AffiliationRecord, AuthorRecord, InstitutionRecord, Rejection
from scholargraph.graph.sequences import RESEARCHER_IDS_START
from scholargraph.queries import identity as iq
from scholargraph.queries import writer as wq


def _id_keys(author: AuthorRecord) -> list[str]:
    return [key for _, key in identifier_keys(author)]


async def _lookup(db: Database, authors: list[AuthorRecord]) -> dict[str, int]:
    keys = sorted({k for a in authors for k in _id_keys(a)})
    rows = await db.run_rows(iq.LOOKUP_IDENTIFIERS, {"keys": keys}) if keys else []
    return {row["key"]: row["researcher"] for row in rows}


def _found(author: AuthorRecord, by_key: dict[str, int]) -> int | None:
    return next((by_key[k] for k in _id_keys(author) if k in by_key), None)


async def write_authors(db: Database, authors: list[AuthorRecord]) -> tuple[int, int]:
    """Update researchers from profile records; a profile of someone new creates them.

    Returns (created, updated). Profiles carry the sources' own h-index and counts.
    """
    with_ids = [a for a in authors if _id_keys(a)]
    by_key = await _lookup(db, with_ids)

    async def work(tx: Tx) -> tuple[int, int]:
        ids = dict(by_key)
        unknown: list[AuthorRecord] = []
        for author in with_ids:
            if _found(author, ids) is None:
                unknown.append(author)
                for key in _id_keys(author):
                    ids[key] = -1
        if unknown:
            rows = await tx.run(
                iq.NEXT_IDS,
                {"name": "researcher", "count": len(unknown), "start": RESEARCHER_IDS_START},
            )
            first: int = rows[0]["first"]
            for offset, author in enumerate(unknown):
                for key in _id_keys(author):
                    ids[key] = first + offset
        researchers: list[wq.ResearcherRow] = []
        identifiers: list[wq.IdentifierRow] = []
        for author in with_ids:
            rid = _found(author, ids)
            assert rid is not None
            researchers.append(_researcher_row(rid, author))
            for method, key in identifier_keys(author):
                scheme, value = key.split(":", 1)
                identifiers.append(
                    wq.IdentifierRow(
                        key=key,
                        scheme=scheme,
                        value=value,
                        researcher=rid,
                        method=method,
                        source=author.source,
                    )
                )
        await tx.run(wq.UPSERT_RESEARCHERS, {"rows": researchers})
        await tx.run(wq.UPSERT_IDENTIFIERS, {"rows": identifiers})
        await tx.run(wq.SET_IDENTIFIER_PROFILES, {"rows": [_profile_row(a) for a in with_ids]})
        return len(unknown), len(with_ids) - len(unknown)

    return await db.unit(work)


def _profile_row(author: AuthorRecord) -> wq.ProfileRow:
    """What the profile says, for its own id (of its source's scheme, else its first)."""
    keys = [key for _, key in identifier_keys(author)]
    own = next((k for k in keys if k.startswith(f"{author.source}:")), keys[0])
    return wq.ProfileRow(
        key=own,
        source=author.source,
        names=sorted({author.name, *author.alt_names}),
        h_index=author.h_index,
        affiliations=sorted({i.name for i in author.affiliations if i.name}),
        dblp=sorted(set(author.dblp)),
        keys=sorted(keys),
    )


def profile_blocks(authors: list[AuthorRecord]) -> set[str]:
    """The name blocks of the profiles' names."""
    return {block_key(parse_name(a.name)) for a in authors}


async def profile_holders(db: Database, authors: list[AuthorRecord]) -> set[int]:
    """The researchers holding the profiles' ids: those :func:`write_authors` wrote to,
    wherever they are filed (see :func:`graph.loaders.converge.holder_blocks`)."""
    return set((await _lookup(db, authors)).values())


def _researcher_row(rid: int, author: AuthorRecord) -> wq.ResearcherRow:
    affiliations = [i.name for i in author.affiliations if i.name][:20]
    return wq.ResearcherRow(
        id=rid,
        slug=slugify(author.name),
        name=author.name,
        name_key=block_key(parse_name(author.name)),
        base_key=base_block_key(parse_name(author.name)),
        orcid=author.orcid,
        h_index_s2=author.h_index if author.source == "s2" else None,
        h_index_openalex=author.h_index if author.source == "openalex" else None,
        names=sorted({author.name, *author.alt_names}),
        dblp=list(author.dblp),
        affiliations=affiliations,
        profile_affiliations=affiliations,
        coauthors=[],
        categories=[],
        year_min=None,
        year_max=None,
    )


def _holders(author: AuthorRecord, by_key: dict[str, int]) -> dict[int, list[str]]:
    """Each researcher holding some of the profile's ids, with those ids: a profile whose
    ids two researchers hold (a load's order can leave them apart until the pass after it
    joins them) gives each the affiliation on the ids it holds, so that the edges go with
    the ids wherever they go."""
    held: dict[int, list[str]] = {}
    for key in sorted(_id_keys(author)):
        if key in by_key:
            held.setdefault(by_key[key], []).append(key)
    return held


async def write_affiliations(
    db: Database, records: list[AffiliationRecord]
) -> tuple[int, list[Rejection]]:
    by_key = await _lookup(db, [rec.author for rec in records])
    index = InstitutionIndex(db)
    await index.prepare([rec.institution for rec in records])
    rejected: list[Rejection] = []
    kept: list[tuple[int, list[str], AffiliationRecord]] = []
    for rec in records:
        holders = _holders(rec.author, by_key)
        if not holders:
            rejected.append(
                Rejection(
                    rec.source,
                    rec.author.name,
                    "researcher not in the graph yet; "
                    "load their papers or profile first, then the affiliations",
                )
            )
        elif not (rec.institution.ror_id or rec.institution.openalex_id):
            rejected.append(
                Rejection(rec.source, rec.author.name, "institution has no ROR or OpenAlex id")
            )
        else:
            kept += [(rid, keys, rec) for rid, keys in holders.items()]

    async def work(tx: Tx) -> int:
        ids = await index.write(tx)
        rows: list[wq.AffiliationRow] = []
        for rid, keys, rec in kept:
            institution = ids.resolve(rec.institution)
            if institution is not None:
                rows.append(
                    wq.AffiliationRow(
                        researcher=rid,
                        institution=institution,
                        source=rec.source,
                        first_year=rec.first_year,
                        last_year=rec.last_year,
                        from_papers=False,
                        from_strings=False,
                        profile_keys=keys,
                        method=ID_METHOD,
                        score=ID_SCORE,
                        raw=[],
                    )
                )
        await tx.run(wq.UPSERT_AFFILIATIONS, {"rows": rows})
        return len(rows)

    return await db.unit(work), rejected


async def write_institutions(db: Database, records: list[InstitutionRecord]) -> int:
    index = InstitutionIndex(db)
    await index.prepare(records)

    async def work(tx: Tx) -> int:
        await index.write(tx, authoritative=True)
        return len(records)

    return await db.unit(work)
