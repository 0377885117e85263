"""A deterministic synthetic corpus in the record shapes of arXiv, S2, OpenAlex and ROR.

The same ``(papers, seed)`` always yields byte-identical output. Records are rendered lazily,
page by page, so a 100k-paper corpus never sits in memory as text.

>>> corpus = generate(papers=40, seed=7)
>>> first_page = next(corpus.arxiv_oai_pages(page_size=10))
>>> first_page.count("<record>")
10
>>> all(work["doi"].startswith("https://doi.org/") for work in corpus.openalex_works())
True
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import IO

from scholargraph.graph.demo import arxiv_oai, openalex, ror, s2, truth
from scholargraph.graph.demo.printing import JsonObject
from scholargraph.graph.demo.world import World, simulate
from scholargraph.graph.errors import BadInput

MAX_PAPERS = 1_000_000
OAI_PAGE_SIZE = 1000
LINES_PER_FILE = 20_000


class DemoCorpus:
    """One synthetic world, readable as each source would serve it."""

    def __init__(self, world: World) -> None:
        self._world = world

    @property
    def seed(self) -> int:
        return self._world.seed

    @property
    def paper_count(self) -> int:
        return len(self._world.papers)

    def arxiv_oai_pages(self, page_size: int = OAI_PAGE_SIZE) -> Iterator[str]:
        if page_size < 1:
            raise BadInput(f"page_size must be at least 1, got {page_size}")
        return arxiv_oai.pages(self._world, page_size)

    def s2_papers(self) -> Iterator[JsonObject]:
        return s2.papers(self._world)

    def s2_authors(self) -> Iterator[JsonObject]:
        return s2.authors(self._world)

    def openalex_works(self) -> Iterator[JsonObject]:
        return openalex.works(self._world)

    def openalex_authors(self) -> Iterator[JsonObject]:
        return openalex.authors(self._world)

    def ror_records(self) -> Iterator[JsonObject]:
        return ror.records(self._world)

    def truth(self) -> Iterator[JsonObject]:
        return truth.people(self._world)

    def write(self, folder: str | Path) -> dict[str, int]:
        """Write every source as the bulk-file loaders read it; returns record counts.

        Layout: ``arxiv/oai-NNNNN.xml``, ``s2/papers-NNNNN.jsonl``, ``s2/authors-NNNNN.jsonl``,
        ``openalex/works-NNNNN.jsonl.gz``, ``openalex/authors-NNNNN.jsonl.gz``,
        ``ror/ror-data.jsonl`` and ``truth.json``.
        """
        root = Path(folder)
        for part in ("arxiv", "s2", "openalex", "ror"):
            (root / part).mkdir(parents=True, exist_ok=True)
        pages = 0
        for page in self.arxiv_oai_pages():
            pages += 1
            (root / "arxiv" / f"oai-{pages:05d}.xml").write_text(page, encoding="utf-8")
        return {
            "arxiv_papers": self.paper_count,
            "arxiv_pages": pages,
            "s2_papers": _write_jsonl(root / "s2", "papers", ".jsonl", self.s2_papers()),
            "s2_authors": _write_jsonl(root / "s2", "authors", ".jsonl", self.s2_authors()),
            "openalex_works": _write_jsonl(
                root / "openalex", "works", ".jsonl.gz", self.openalex_works()
            ),
            "openalex_authors": _write_jsonl(
                root / "openalex", "authors", ".jsonl.gz", self.openalex_authors()
            ),
            "ror_records": _write_lines(root / "ror" / "ror-data.jsonl", self.ror_records()),
            "people": _write_truth(root / "truth.json", self.seed, self.paper_count, self.truth()),
        }


def _dumps(record: JsonObject) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _open_text(path: Path) -> IO[str]:
    if path.name.endswith(".gz"):
        # mtime=0 keeps the gzip header, and so the bytes, identical between runs.
        binary = gzip.GzipFile(path, mode="wb", compresslevel=6, mtime=0)
        return io.TextIOWrapper(binary, encoding="utf-8", newline="\n")
    return path.open("w", encoding="utf-8", newline="\n")


def _write_jsonl(folder: Path, stem: str, suffix: str, records: Iterable[JsonObject]) -> int:
    """Split records into files of LINES_PER_FILE lines, like the sources' bulk dumps."""
    iterator = iter(records)
    written = 0
    first = next(iterator, None)
    while first is not None:
        number = written // LINES_PER_FILE + 1
        with _open_text(folder / f"{stem}-{number:05d}{suffix}") as out:
            out.write(_dumps(first) + "\n")
            written += 1
            for record in islice(iterator, LINES_PER_FILE - 1):
                out.write(_dumps(record) + "\n")
                written += 1
        first = next(iterator, None)
    return written


def _write_lines(path: Path, records: Iterable[JsonObject]) -> int:
    written = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for record in records:
            out.write(_dumps(record) + "\n")
            written += 1
    return written


def _write_truth(path: Path, seed: int, papers: int, people: Iterable[JsonObject]) -> int:
    """One JSON document, written a person per line so it streams."""
    written = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(f'{{"seed":{seed},"papers":{papers},"people":[\n')
        for person in people:
            out.write(("," if written else "") + _dumps(person) + "\n")
            written += 1
        out.write("]}\n")
    return written


def generate(papers: int, seed: int) -> DemoCorpus:
    if not 1 <= papers <= MAX_PAPERS:
        raise BadInput(f"papers must be between 1 and {MAX_PAPERS:,}, got {papers}")
    return DemoCorpus(simulate(papers, seed))
