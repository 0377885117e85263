"""The rematch pass: the affiliation strings slots keep, matched against the ROR
institutions the store holds now, so that ROR loaded after the papers links them as ROR
loaded before would have (see :mod:`graph.institutions.linking`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import cast

from scholargraph.graph.db import Database, Tx
from scholargraph.graph.identity.plan import PendingStrings
from scholargraph.graph.institutions.linking import AffiliationLinker, split_raw_key
from scholargraph.graph.loaders.institutions import InstitutionIds
from scholargraph.graph.loaders.writer import matched_rows
from scholargraph.queries import identity as iq
from scholargraph.queries import writer as wq
from scholargraph.queries.affiliation_strings import (
    PRUNE_STRING_EDGES,
    SLOT_STRINGS,
    SlotStringsRow,
)

RESEARCHERS_PER_PAGE = 2000


def pending_of(rows: Sequence[SlotStringsRow]) -> list[PendingStrings]:
    """Each stored slot's strings, one entry per source that printed them."""
    pending: list[PendingStrings] = []
    for row in rows:
        by_source: dict[str, list[str]] = {}
        for key in row["raw"]:
            source, text = split_raw_key(key)
            by_source.setdefault(source, []).append(text)
        pending.extend(
            PendingStrings(row["researcher"], tuple(texts), source, row["year"])
            for source, texts in sorted(by_source.items())
        )
    return pending


async def rematch(
    db: Database,
    linker: AffiliationLinker | None = None,
    *,
    blocks: set[str] | None = None,
    per_page: int = RESEARCHERS_PER_PAGE,
) -> int:
    """Match every stored slot string again (of researchers of the name blocks ``blocks``,
    or all), writing an ``AFFILIATED`` edge for each one linked (an edge already there is
    kept, its years and strings widened), after removing the edges only strings gave whose
    slots moved to another researcher; returns the number of strings linked."""
    linker = linker or AffiliationLinker(db)
    names = None if blocks is None else sorted(blocks)
    await db.run(PRUNE_STRING_EDGES, {"blocks": names})
    if not len(await linker.index()):
        return 0
    after, linked = -1, 0
    while True:
        page = await db.run_rows(SLOT_STRINGS, {"after": after, "limit": per_page, "blocks": names})
        rows = cast("list[SlotStringsRow]", page)
        if not rows:
            return linked
        after = max(row["researcher"] for row in rows)
        pending = pending_of(rows)
        matched = await linker.match(t for p in pending for t in p.strings)
        if not matched:
            continue
        rors = sorted({m.ror_id for m in matched.values()})
        found = await db.run(
            iq.LOOKUP_INSTITUTIONS, {"refs": [{"ror_id": r, "openalex_id": None} for r in rors]}
        )
        ids = InstitutionIds({f"ror:{row['ror_id']}": row["id"] for row in found})
        out = matched_rows(pending, matched, ids, lambda rid: rid)
        linked += len(out)
        await db.unit(_writes(out))


def _writes(rows: list[wq.AffiliationRow]) -> Callable[[Tx], Awaitable[None]]:
    async def work(tx: Tx) -> None:
        await tx.run(wq.UPSERT_AFFILIATIONS, {"rows": rows})

    return work
