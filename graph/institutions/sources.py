"""The matcher's index from the graph or from ROR dump files; both give the same index."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from scholargraph.graph.db import Database
from scholargraph.graph.errors import BadInput
from scholargraph.graph.institutions.index import (
    AffiliationIndex,
    IndexedInstitution,
    build_index,
)
from scholargraph.graph.loaders.parse.files import iter_bulk_files
from scholargraph.queries.read_institutions_index import INSTITUTIONS_INDEX


def _strings(value: object) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


async def index_from_graph(db: Database) -> AffiliationIndex:
    """Every institution with a ROR id in the graph."""
    rows = await db.run_rows(INSTITUTIONS_INDEX)
    return build_index(
        IndexedInstitution(
            ror_id=row["ror_id"],
            name=row["name"],
            aliases=_strings(row["aliases"]),
            acronyms=_strings(row["acronyms"]),
            country_code=row["country_code"],
            city=row["city"],
            status=row["status"],
            types=_strings(row["types"]),
            parents=_strings(row["parents"]),
        )
        for row in rows
    )


def read_ror_files(paths: Iterable[Path]) -> Iterator[IndexedInstitution]:
    """The records of ROR dump files and folders (JSON, JSON Lines, gzipped or not), as the
    graph would keep them; other files in a folder are passed over."""
    for _, batch in iter_bulk_files(list(paths), source="ror"):
        for record in batch.institutions:
            if record.ror_id is not None:
                yield IndexedInstitution.of_record(record)


def index_from_files(paths: Iterable[Path]) -> AffiliationIndex:
    """The index of ROR dump files; a record listed twice counts once, the last copy."""
    wanted = list(paths)
    records = {record.ror_id: record for record in read_ror_files(wanted)}
    if not records:
        shown = ", ".join(str(p) for p in wanted) or "(no paths)"
        raise BadInput(f"no ROR records in {shown}; pass the ROR v2 dump (JSON or JSON Lines)")
    return build_index(records.values())
