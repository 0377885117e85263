"""The recorded ``.abs`` records (../shared/data) loaded directly and as arXiv's metadata
snapshot make the same papers with the same authors.

Where the two may differ, and do:

* names: arXiv's split (``authors_parsed``) puts a space after every dot of the forenames,
  so "A.N. Gorban" in the ``.abs`` is "A. N. Gorban" from the snapshot (the loader takes
  out only the space it puts before a hyphen: "C.-P. Yuan" stays);
* so who is who can differ: the snapshot's "J. P. Hague" parses as initials and a surname
  where the ``.abs``'s "J.P.Hague" reads as one surname, and his four papers join one
  researcher from the snapshot, four from the ``.abs`` files;
* the snapshot has no version sizes and no withdrawal flag (the comments tell, and on these
  records they tell the same);
* an ``.abs`` file that holds no record (``math-ph/0509037``) has no line in a snapshot;
* affiliations: the split here hands on those the ``.abs`` reading found; arXiv's own may
  place them otherwise (the loader keeps whatever ``authors_parsed`` lists after the suffix).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scholargraph.graph.db import Database
from scholargraph.graph.loaders.files import file_chunks
from scholargraph.graph.loaders.parse.arxiv_abs import parse_abs_file
from scholargraph.graph.loaders.pipeline import Loader
from scholargraph.graph.stats import graph_stats
from scholargraph.queries import Query
from scholargraph.queries.admin import CLEAR_DATA
from tests.loaders.snapshot_from_abs import abs_text, snapshot_line

pytestmark = pytest.mark.shared

PAPERS = Query(
    "test.snapshot_recorded_papers",
    """
    MATCH (p:Paper)
    RETURN collect({key: p.key, arxiv_id: p.arxiv_id, title: p.title, doi: p.doi,
                    abstract: p.abstract, published: toString(p.published),
                    updated: toString(p.updated), year: p.year, versions: p.versions,
                    primary: p.primary_category, journal_ref: p.journal_ref,
                    comments: p.comments, withdrawn: p.withdrawn,
                    truncated: p.authors_truncated, n_authors: p.n_authors,
                    categories: COLLECT { MATCH (p)-[:IN_CATEGORY]->(c:Category)
                                          RETURN c.code ORDER BY c.code }}) AS rows
    """,
)
SLOTS = Query(
    "test.snapshot_recorded_slots",
    """
    MATCH (r:Researcher)-[a:AUTHORED]->(p:Paper)
    RETURN collect({paper: p.key, position: a.position, raw_name: a.raw_name,
                    affiliations: a.affiliations, researcher: r.id}) AS rows
    """,
)
_DOT_THEN_LETTER = re.compile(r"\.(?=[^\s-])")


def _spaced(name: str) -> str:
    """A name as arXiv's split prints it: a space after every dot but before a hyphen."""
    return _DOT_THEN_LETTER.sub(". ", name)


async def _load(db: Database, paths: list[Path]) -> dict[str, Any]:
    summary = await Loader(db).run(file_chunks(paths, source="arxiv"))
    papers = {row["key"]: row for row in await db.run_rows(PAPERS)}
    authors: dict[str, list[tuple[int, str, list[str]]]] = {}
    researchers: dict[int, set[tuple[str, int]]] = {}
    for slot in await db.run_rows(SLOTS):
        entry = (slot["position"], slot["raw_name"], slot["affiliations"] or [])
        authors.setdefault(slot["paper"], []).append(entry)
        researchers.setdefault(slot["researcher"], set()).add((slot["paper"], slot["position"]))
    return {
        "summary": summary,
        "papers": papers,
        "authors": {key: sorted(slots) for key, slots in authors.items()},
        "researchers": list(researchers.values()),
        "stats": await graph_stats(db),
    }


def _write_snapshot(abs_paths: list[Path], target: Path) -> int:
    lines = 0
    with target.open("w", encoding="utf-8") as out:
        for path in abs_paths:
            if not parse_abs_file(path).papers:
                continue  # no record, so no line
            out.write(json.dumps(snapshot_line(abs_text(path.read_bytes()))) + "\n")
            lines += 1
    return lines


async def test_the_abs_records_as_a_snapshot_load_the_same_papers_and_authors(
    db: Database, shared_data: Path, tmp_path: Path
) -> None:
    folder = shared_data / "arxiv" / "arxiv-browse" / "abs_files" / "ftp"
    abs_paths = sorted(folder.rglob("*.abs"))
    snapshot = tmp_path / "arxiv-metadata-oai-snapshot.json"
    lines = _write_snapshot(abs_paths, snapshot)
    assert lines == len(abs_paths) - 1 == 1131

    direct = await _load(db, abs_paths)
    await db.run(CLEAR_DATA, timeout_s=600)
    from_snapshot = await _load(db, [snapshot])

    assert direct["summary"].rejected == 1  # the empty .abs file
    assert from_snapshot["summary"].rejected == 0
    # cs/0006007.abs holds cs/0006008 again: the second copy changes nothing, either way
    for load in (direct, from_snapshot):
        assert (load["summary"].papers.created, load["summary"].papers.unchanged) == (1130, 1)
    assert from_snapshot["papers"] == direct["papers"]
    assert from_snapshot["papers"]["0704.0001"]["categories"] == ["hep-ph"]
    assert from_snapshot["papers"]["hep-th/9108002"]["versions"] >= 1

    assert set(from_snapshot["authors"]) == set(direct["authors"])
    respaced = 0
    for key, slots in direct["authors"].items():
        expected = [(position, _spaced(name), affs) for position, name, affs in slots]
        assert from_snapshot["authors"][key] == expected, key
        respaced += expected != slots
    assert respaced == 145  # papers with a name such as "A.N. Gorban"

    stats, snapshot_stats = direct["stats"], from_snapshot["stats"]
    assert snapshot_stats["nodes"]["Paper"] == stats["nodes"]["Paper"] == 1130
    for kind in ("AUTHORED", "IN_CATEGORY"):
        assert snapshot_stats["relationships"][kind] == stats["relationships"][kind]
    # Who is who: the same researchers either way. The .abs's "J.P.Hague" and the snapshot's
    # "J. P. Hague" both read as initials and a surname, so his four papers are one person.
    assert sorted(map(sorted, from_snapshot["researchers"])) == sorted(
        map(sorted, direct["researchers"])
    )
    hague = {("0704.0030", 1), ("0704.0241", 1), ("0704.0365", 1), ("0704.0633", 1)}
    assert hague in direct["researchers"]
