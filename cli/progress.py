"""A rich progress display and the summary table every load prints."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from scholargraph.graph.loaders.pipeline import LoadSummary


@contextmanager
def load_progress(label: str, total: int | None = None) -> Iterator[tuple[Progress, object]]:
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
    )
    with progress:
        task = progress.add_task(label, total=total, rate="-")
        yield progress, task


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
