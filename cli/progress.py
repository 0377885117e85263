"""A rich progress display and the summary table every load prints.

The bar counts records of the input as they are written (papers, author profiles,
institutions, rejections: an author's affiliations are part of its record), against a total
counted before the load when the input tells it cheaply (see
:func:`~graph.loaders.parse.files.count_bulk_records`); a live load has no total.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from scholargraph.graph.loaders.pipeline import LoadSummary
from scholargraph.graph.records import Batch

Chunks = AsyncIterator[tuple[str, Batch]]


def input_records(batch: Batch) -> int:
    return len(batch.papers) + len(batch.authors) + len(batch.institutions) + len(batch.rejected)


class LoadBar:
    def __init__(self, progress: Progress, task: TaskID) -> None:
        self.progress = progress
        self.task = task

    async def watch(self, chunks: Chunks) -> Chunks:
        """``chunks`` unchanged; each one counts once the loader asks for the next, that is
        once it is written (or found done by the checkpoint)."""
        async for name, batch in chunks:
            yield name, batch
            self.progress.update(self.task, advance=input_records(batch))
            task = next(t for t in self.progress.tasks if t.id == self.task)
            rate = task.completed / task.elapsed if task.elapsed else 0.0
            self.progress.update(self.task, rate=f"{rate:,.0f}")


@contextmanager
def load_progress(
    label: str, total: int | None = None, *, quiet: bool = False
) -> Iterator[LoadBar]:
    """A bar on stderr (none under ``quiet``), with the time left once ``total`` is known."""
    progress = Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} records/s"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
        disable=quiet,
    )
    with progress:
        task = progress.add_task(label, total=total, rate="-")
        yield LoadBar(progress, task)


def summary_table(title: str, summaries: dict[str, LoadSummary]) -> Table:
    """One column per source, one row per figure: readable on a narrow terminal."""
    table = Table(title=title)
    table.add_column("")
    for source in summaries:
        table.add_column(source, justify="right")
    rows: dict[str, Callable[[LoadSummary], int]] = {
        "records read": lambda s: s.records,
        "papers created": lambda s: s.papers.created,
        "papers updated": lambda s: s.papers.updated,
        "papers unchanged": lambda s: s.papers.unchanged,
        "papers merged": lambda s: s.papers.paper_merges,
        "papers without a title yet": lambda s: s.papers.untitled,
        "researchers created": lambda s: s.papers.researchers_created + s.authors_created,
        "author profiles updated": lambda s: s.authors_updated,
        "institutions written": lambda s: s.institutions,
        "affiliations written": lambda s: s.affiliations,
        "rejected": lambda s: s.rejected,
    }
    for label, get in rows.items():
        table.add_row(label, *(f"{get(s):,}" for s in summaries.values()))
    table.add_row("seconds", *(f"{s.seconds:.1f}" for s in summaries.values()))
    return table
