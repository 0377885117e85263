"""The demo corpus, written as source files and loaded through the bulk-file loaders."""

from __future__ import annotations

from pathlib import Path

from scholargraph.graph.db import Database
from scholargraph.graph.demo import generate
from scholargraph.graph.loaders.files import file_chunks, input_fingerprint
from scholargraph.graph.loaders.pipeline import Loader, LoadSummary, Progress

# Institutions first (so papers find them), then the sources with author ids, then arXiv,
# whose name-only authors align with them by paper and position.
LOAD_ORDER = ("ror", "openalex", "s2", "arxiv")


def write_demo_files(folder: Path, *, papers: int, seed: int) -> Path:
    target = folder / f"demo-{papers}-{seed}"
    if not (target / "truth.json").exists():
        generate(papers, seed).write(target)
    return target


async def load_demo(
    db: Database,
    folder: Path,
    *,
    coauthor_cap: int = 100,
    progress: Progress | None = None,
    report: Path | None = None,
    embed: bool = True,
) -> dict[str, LoadSummary]:
    summaries: dict[str, LoadSummary] = {}
    for source in LOAD_ORDER:
        # Papers before author profiles, so profiles find the researchers papers made.
        paths = sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))
        if not paths:
            continue
        loader = Loader(
            db,
            coauthor_cap=coauthor_cap,
            report=report,
            checkpoint=folder / f".checkpoint-{source}.json",
            input=input_fingerprint(paths),
            progress=progress,
            embed=embed,
        )
        summaries[source] = await loader.run(file_chunks(paths))
    return summaries
