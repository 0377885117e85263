"""Loads link the raw affiliation strings of author slots to ROR institutions.

The rules, all here:

* A slot's strings are matched only when its source gave the slot no institution id (arXiv
  and Semantic Scholar never do; an OpenAlex authorship with institutions is linked by
  their ids). Those strings are kept on the slot's ``AUTHORED`` edge as
  ``raw_affiliations``, ``"<source>:<string>"``, so that a later ROR load can match them.
* A string the matcher does not abstain on (see :mod:`graph.institutions.matcher`) becomes
  an ``AFFILIATED`` edge of the slot's source, over the paper's year, with the matcher's
  ``method`` and ``score`` and the string in ``raw``. An institution a source gave by id has
  method ``id`` and score 1.0. An edge reached both ways keeps the highest score (on a tie,
  the first method in alphabetical order), so the order rows arrive in does not matter.
* The index is the ROR institutions in the store, read once per load and again after the
  load writes institutions; each distinct string is matched once per index.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scholargraph.graph.db import Database
from scholargraph.graph.institutions.index import AffiliationIndex
from scholargraph.graph.institutions.matcher import Match, match_affiliation
from scholargraph.graph.institutions.sources import index_from_graph

ID_METHOD = "id"
ID_SCORE = 1.0


def unlinked_strings(affiliations: Iterable[str], has_institution_ids: bool) -> tuple[str, ...]:
    """The strings of a slot the matcher reads: all of them when its source gave no
    institution id, else none."""
    return () if has_institution_ids else tuple(sorted(set(affiliations)))


def raw_keys(source: str, strings: Iterable[str]) -> list[str]:
    """What the ``AUTHORED`` edge keeps of a source's unlinked strings."""
    return sorted({f"{source}:{s}" for s in strings})


def split_raw_key(key: str) -> tuple[str, str]:
    """``"<source>:<string>"`` → (source, string)."""
    source, _, text = key.partition(":")
    return source, text


@dataclass(frozen=True, slots=True)
class StringMatch:
    """A string matched to a ROR institution."""

    text: str
    ror_id: str
    method: str
    score: float


class AffiliationLinker:
    """The matcher over the store's ROR institutions, with each string's answer cached."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._index: AffiliationIndex | None = None
        self._answers: dict[str, StringMatch | None] = {}

    def stale(self) -> None:
        """The store's institutions changed: read them again before the next match."""
        self._index = None
        self._answers.clear()

    async def index(self) -> AffiliationIndex:
        if self._index is None:
            self._index = await index_from_graph(self.db)
        return self._index

    async def match(self, texts: Iterable[str]) -> dict[str, StringMatch]:
        """The strings of ``texts`` that name an institution, each with its match."""
        wanted = set(texts)
        if not wanted:
            return {}
        index = await self.index()
        if not len(index):
            return {}
        for text in wanted - self._answers.keys():
            self._answers[text] = _decided(match_affiliation(index, text))
        return {t: m for t in wanted if (m := self._answers[t]) is not None}


def _decided(match: Match) -> StringMatch | None:
    if match.ror_id is None:
        return None
    return StringMatch(match.text, match.ror_id, match.method, round(match.score, 3))
