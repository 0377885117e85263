"""What a batch's identity decisions read from the graph, as frozen values.

:func:`graph.identity.resolver.read_snapshot` fills a :class:`Snapshot` before the batch's
transaction; everything after it (:func:`graph.identity.resolver.resolve`,
:func:`graph.identity.plan.plan`) is a pure function of the records and the snapshot.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from scholargraph.graph.identity.names import (
    ParsedName,
    block_key,
    last_key,
    parse_name,
    variant_block_keys,
)
from scholargraph.graph.identity.scoring import Mention


@dataclass(frozen=True, slots=True)
class Holder:
    """A researcher holding an author slot of a paper, as the graph has it."""

    researcher: int
    position: int
    names: tuple[ParsedName, ...]  # the researcher's name, then every source's printed name
    orcid: str | None
    pinned: bool
    source: str  # the source whose author order the slot follows
    sources: tuple[str, ...]
    method: str
    confidence: float
    has_ids: bool
    # per source, from its mention
    methods: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    written: frozenset[str] = frozenset()  # the edge's mentions, source ids and affiliations
    rank: int | None = None
    kind: str | None = None
    raw_name: str = ""  # the name as the order's source printed it at this position
    institutions: bool = False  # the edge names institutions (its slot's AFFILIATED edges)

    def holds(self, mention: str, ids: Iterable[str], affiliations: Iterable[str]) -> bool:
        """Whether the edge already carries this mention with these ids and affiliations."""
        return mention in self.written and all(
            x in self.written
            for x in (*(f"id:{i}" for i in ids), *(f"at:{a}" for a in affiliations))
        )

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Holder:
        printed = [row["name"], row.get("raw_name") or row["name"]]
        methods: dict[str, str] = {}
        for mention in row.get("mentions") or ():
            source, method, raw = _mention_parts(mention)
            methods[source] = method
            printed.append(raw)
        return cls(
            researcher=row["researcher"],
            position=row["position"],
            names=tuple(parse_name(n) for n in dict.fromkeys(printed)),
            orcid=row["orcid"],
            pinned=row["pinned"],
            source=row["source"],
            sources=tuple(row.get("sources") or (row["source"],)),
            method=row["method"],
            confidence=row["confidence"] or 1.0,
            has_ids=row["has_ids"],
            methods=methods,
            written=frozenset(
                (
                    *(row.get("mentions") or ()),
                    *(f"id:{i}" for i in row.get("source_ids") or ()),
                    *(f"at:{a}" for a in row.get("affiliations") or ()),
                )
            ),
            rank=row.get("rank"),
            kind=row.get("kind"),
            raw_name=row.get("raw_name") or row["name"],
            institutions=bool(row.get("institutions")),
        )


def mention_text(source: str, method: str, raw_name: str) -> str:
    """How one source's mention of a slot is kept on its edge."""
    return f"{source}:{method}:{raw_name}"


def _mention_parts(text: str) -> tuple[str, str, str]:
    source, method, raw = text.split(":", 2)
    return source, method, raw


@lru_cache(maxsize=1 << 16)
def surname_keys(name: ParsedName) -> frozenset[str]:
    """A name's compact surname and its variants (particles dropped, umlauts, the first part
    of a hyphenated name): two printings of one slot share one."""
    variants = (key.rsplit(" ", 1)[-1] for key in variant_block_keys(name))
    return frozenset({last_key(name), *variants}) - {""}


@dataclass(frozen=True, slots=True)
class PaperHolders:
    """The holders of one paper's slots, indexed by position and by name block."""

    holders: tuple[Holder, ...]
    by_position: Mapping[int, tuple[Holder, ...]]
    by_block: Mapping[str, tuple[Holder, ...]]
    by_researcher: Mapping[int, Holder]

    @classmethod
    def of(cls, holders: Iterable[Holder]) -> PaperHolders:
        listed = tuple(sorted(holders, key=lambda h: (h.position, h.researcher)))
        by_position: dict[int, list[Holder]] = defaultdict(list)
        by_block: dict[str, list[Holder]] = defaultdict(list)
        for holder in listed:
            by_position[holder.position].append(holder)
            for key in dict.fromkeys(k for name in holder.names for k in _held_blocks(name)):
                by_block[key].append(holder)
        return cls(
            listed,
            {k: tuple(v) for k, v in by_position.items()},
            {k: tuple(v) for k, v in by_block.items()},
            {holder.researcher: holder for holder in reversed(listed)},
        )

    def near(self, name: ParsedName, position: int) -> Iterator[Holder]:
        """Holders at the position, then holders elsewhere whose name can be this one's (the
        same compact surname, and the same first initial or none)."""
        seen: set[int] = set()
        for holder in self.by_position.get(position, ()):
            seen.add(id(holder))
            yield holder
        for key in _blocks_of(name):
            for holder in self.by_block.get(key, ()):
                if id(holder) not in seen:
                    seen.add(id(holder))
                    yield holder


def _held_blocks(name: ParsedName) -> tuple[str, str]:
    """A holder's name block (its surname alone when it has no given name), and its surname
    marked as any initial's."""
    return block_key(name), f"*{last_key(name)}"


def _blocks_of(name: ParsedName) -> tuple[str, ...]:
    """The holders' blocks a name can be found in: its own and the surname alone, or, with no
    given name, any initial's."""
    surname = last_key(name)
    return (block_key(name), surname) if name.first_initial else (f"*{surname}",)


EMPTY_PAPER = PaperHolders((), {}, {}, {})


@dataclass(frozen=True, slots=True)
class Candidate:
    """A researcher of a name block, with the ids that decide who may join them."""

    id: int
    block: str
    orcid: str | None
    has_s2: bool
    has_openalex: bool


@dataclass(frozen=True, slots=True)
class ResearcherState:
    """What a machine merge must respect about a researcher."""

    id: int
    orcid: str | None
    merged_into: int | None
    distinct_from: frozenset[int]


@dataclass(frozen=True, slots=True)
class SharedPaper:
    """A paper two researchers both hold a slot on."""

    paper: str
    positions: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Snapshot:
    identifiers: Mapping[str, int] = field(default_factory=dict)  # key → researcher
    papers: Mapping[str, PaperHolders] = field(default_factory=dict)
    blocks: Mapping[str, tuple[Candidate, ...]] = field(default_factory=dict)
    features: Mapping[int, Mention] = field(default_factory=dict)  # mention ids "r<id>"
    states: Mapping[int, ResearcherState] = field(default_factory=dict)
    shared: Mapping[tuple[int, int], tuple[SharedPaper, ...]] = field(default_factory=dict)
    # The pairs (lower id first) whose shared papers were read; None: every pair's (a
    # snapshot made whole, not read from the graph).
    shared_read: frozenset[tuple[int, int]] | None = None

    def knows_shared(self, a: Sequence[int], b: Sequence[int]) -> bool:
        """Whether the papers each of ``a`` shares with each of ``b`` were read."""
        if self.shared_read is None:
            return True
        return all((min(x, y), max(x, y)) in self.shared_read for x in a for y in b)

    def holders(self, paper: str) -> PaperHolders:
        return self.papers.get(paper, EMPTY_PAPER)

    def shared_papers(self, a: int, b: int) -> tuple[SharedPaper, ...]:
        if (a, b) in self.shared:
            return self.shared[(a, b)]
        return tuple(
            SharedPaper(s.paper, (s.positions[1], s.positions[0]))
            for s in self.shared.get((b, a), ())
        )
