"""Institutions: found by ROR id or OpenAlex id, given a public integer id when first seen."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scholargraph.graph.db import Database, Tx
from scholargraph.graph.loaders.rows import slugify
from scholargraph.graph.records import InstitutionRecord, InstitutionRef
from scholargraph.graph.sequences import INSTITUTION_IDS_START
from scholargraph.queries import identity as iq
from scholargraph.queries import writer as wq


def _keys(ror_id: str | None, openalex_id: str | None) -> list[str]:
    return [
        k
        for k in (f"ror:{ror_id}" if ror_id else "", f"oa:{openalex_id}" if openalex_id else "")
        if k
    ]


@dataclass(slots=True)
class InstitutionIds:
    by_key: dict[str, int] = field(default_factory=dict)

    def resolve(self, ref: InstitutionRef) -> int | None:
        for key in _keys(ref.ror_id, ref.openalex_id):
            if key in self.by_key:
                return self.by_key[key]
        return None

    def resolve_all(self, refs: Iterable[InstitutionRef]) -> list[int]:
        found = (self.resolve(ref) for ref in refs)
        return sorted({i for i in found if i is not None})


class InstitutionIndex:
    """Looks institutions up before a batch's transaction and writes the new ones in it."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._pending: list[InstitutionRecord] = []
        self._known = InstitutionIds()

    async def prepare(self, refs: Iterable[InstitutionRef | InstitutionRecord]) -> None:
        records: dict[tuple[str | None, str | None], InstitutionRecord] = {}
        for ref in refs:
            if not (ref.ror_id or ref.openalex_id):
                continue
            record = ref if isinstance(ref, InstitutionRecord) else _record_of(ref)
            records.setdefault((record.ror_id, record.openalex_id), record)
        self._pending = list(records.values())
        rows = await self.db.run(
            iq.LOOKUP_INSTITUTIONS,
            {"refs": [{"ror_id": k[0], "openalex_id": k[1]} for k in records]},
        )
        self._known = InstitutionIds()
        for row in rows:
            for key in _keys(row["ror_id"], row["openalex_id"]):
                self._known.by_key[key] = row["id"]

    async def write(self, tx: Tx, *, authoritative: bool = False) -> InstitutionIds:
        """Write what :meth:`prepare` saw, inside the batch's transaction; return every id."""
        ids = InstitutionIds(dict(self._known.by_key))
        new = [rec for rec in self._pending if ids.resolve(_ref_of(rec)) is None]
        unique_new: list[InstitutionRecord] = []
        for rec in new:
            if ids.resolve(_ref_of(rec)) is None:
                unique_new.append(rec)
                for key in _keys(rec.ror_id, rec.openalex_id):
                    ids.by_key[key] = -1
        if unique_new:
            rows = await tx.run(
                iq.NEXT_IDS,
                {"name": "institution", "count": len(unique_new), "start": INSTITUTION_IDS_START},
            )
            first: int = rows[0]["first"]
            for offset, rec in enumerate(unique_new):
                for key in _keys(rec.ror_id, rec.openalex_id):
                    ids.by_key[key] = first + offset
        rows_out: list[dict[str, Any]] = []
        for rec in self._pending:
            institution = ids.resolve(_ref_of(rec))
            if institution is not None and (authoritative or rec in unique_new):
                rows_out.append(_row(institution, rec, authoritative))
        await tx.run(wq.UPSERT_INSTITUTIONS, {"rows": rows_out})
        if authoritative:
            rors = sorted({rec.ror_id for rec in self._pending if rec.ror_id})
            parents = [
                {"child": rec.ror_id, "parents": list(rec.parent_ids)}
                for rec in self._pending
                if rec.ror_id and rec.parent_ids
            ]
            await tx.run(wq.LINK_INSTITUTION_PARENTS, {"rows": parents})
            await tx.run(wq.LINK_WAITING_CHILDREN, {"rors": rors})
        return ids


def _record_of(ref: InstitutionRef) -> InstitutionRecord:
    return InstitutionRecord(
        name=ref.name or ref.ror_id or ref.openalex_id or "unnamed institution",
        source="openalex",
        ror_id=ref.ror_id,
        openalex_id=ref.openalex_id,
        country_code=ref.country_code,
    )


def _ref_of(rec: InstitutionRecord) -> InstitutionRef:
    return InstitutionRef(ror_id=rec.ror_id, openalex_id=rec.openalex_id)


def _row(institution: int, rec: InstitutionRecord, authoritative: bool) -> dict[str, Any]:
    return {
        "id": institution,
        "slug": slugify(rec.name),
        "name": rec.name,
        "authoritative": authoritative,
        "ror_id": rec.ror_id,
        "openalex_id": rec.openalex_id,
        "country_code": rec.country_code,
        "city": rec.city,
        "status": rec.status,
        "established": rec.established,
        "types": list(rec.types),
        "acronyms": list(rec.acronyms),
        "aliases": list(dict.fromkeys((*rec.labels, *rec.aliases))),
    }
