"""The demo corpus, written as source files and loaded through the bulk-file loaders."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

from scholargraph.graph.db import Database
from scholargraph.graph.demo import generate
from scholargraph.graph.loaders.files import file_chunks, input_fingerprint
from scholargraph.graph.loaders.parse.files import count_bulk_records
from scholargraph.graph.loaders.pipeline import Loader, LoadSummary, Progress
from scholargraph.graph.records import Batch
from scholargraph.graph.semantic.store import TopicsDue

Chunks = AsyncIterator[tuple[str, Batch]]

# Institutions first (so papers find them), then the sources with author ids, then arXiv,
# whose name-only authors align with them by paper and position.
LOAD_ORDER = ("ror", "openalex", "s2", "arxiv")


def source_paths(folder: Path, source: str) -> list[Path]:
    # Papers before author profiles, so profiles find the researchers papers made.
    return sorted((folder / source).glob("*"), key=lambda p: ("authors" in p.name, p.name))


def demo_records(folder: Path) -> int:
    """The records :func:`load_demo` reads from ``folder`` (see
    :func:`~graph.loaders.parse.files.count_bulk_records`)."""
    return sum(count_bulk_records(source_paths(folder, s)) or 0 for s in LOAD_ORDER)


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
    watch: Callable[[Chunks], Chunks] | None = None,
) -> dict[str, LoadSummary]:
    """``watch`` sees each source's chunks on their way to the loader (a progress bar).

    Researchers' topics are computed once, after the last source (counted in its summary),
    not after each. A file in ``folder`` says that some are due: a load stopped before
    computing them is followed by one that computes every topic."""
    summaries: dict[str, LoadSummary] = {}
    due_mark = folder / ".topics-due"
    topics = TopicsDue(blocks=None if due_mark.exists() else set())
    if embed:
        due_mark.touch()
    last = None
    for source in LOAD_ORDER:
        paths = source_paths(folder, source)
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
            topics=topics,
        )
        chunks = file_chunks(paths)
        summaries[source] = last = await loader.run(watch(chunks) if watch else chunks)
    if embed:
        refreshed = await topics.refresh(db)
        if last is not None:
            last.topics_refreshed = refreshed
        due_mark.unlink(missing_ok=True)
    return summaries
