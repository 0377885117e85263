"""Which researcher each author slot of a batch of papers belongs to — against the graph.

The rules, in order (each authorship records which one decided it):

1. a curator pinned the slot → it stays as it is;
2. same ORCID iD, then same S2 author id, then same OpenAlex author id → that researcher;
3. cross-source alignment: the same paper already has an author at that position (or, when
   sources number authors differently, anywhere on the paper) with a compatible name → the
   same researcher, and the new source's ids join it;
4. otherwise the mention is scored against the researchers of its name block (and against the
   other new mentions of the batch) with :func:`graph.identity.cluster_mentions`; existing
   researchers are never merged with each other here — that is a recorded curation event.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from scholargraph.graph.db import Database, Row
from scholargraph.graph.identity.cluster import Constraints, cluster_mentions
from scholargraph.graph.identity.names import (
    ParsedName,
    block_key,
    compare_names,
    last_key,
    parse_name,
)
from scholargraph.graph.identity.scoring import Mention, ScoringContext, score
from scholargraph.graph.records import AuthorRecord, InstitutionRef, Source
from scholargraph.queries import identity as q

CANDIDATES_PER_BLOCK = 60


@dataclass(frozen=True, slots=True)
class Slot:
    """One author slot of one paper, with the evidence the scoring uses."""

    paper: str
    position: int
    n_authors: int
    raw_name: str
    author: AuthorRecord
    source: Source
    year: int | None = None
    categories: tuple[str, ...] = ()
    affiliations: tuple[str, ...] = ()
    ror_ids: tuple[str, ...] = ()
    coauthors: frozenset[str] = frozenset()
    institutions: tuple[InstitutionRef, ...] = ()

    @property
    def id_keys(self) -> list[tuple[str, str]]:
        """``(method, identifier key)`` in the order they decide."""
        keys: list[tuple[str, str]] = []
        if self.author.orcid:
            keys.append(("orcid", f"orcid:{self.author.orcid}"))
        keys += [("s2_id", f"s2:{x}") for x in self.author.s2_ids]
        keys += [("openalex_id", f"openalex:{x}") for x in self.author.openalex_ids]
        return keys


@dataclass(slots=True)
class Resolution:
    slot: Slot
    researcher: int | None = None  # None: a new researcher, grouped by ``new_group``
    new_group: str | None = None
    method: str = "new"
    confidence: float = 1.0
    keep: bool = False  # a pinned slot: write nothing
    replaces: list[int] = field(default_factory=list)  # name-only duplicates whose edge goes
    same_as: list[int] = field(default_factory=list)  # researchers with ids: merge candidates
    edge_exists: bool = False  # the researcher already has an AUTHORED edge to the paper
    stored_keys: frozenset[str] = frozenset()  # the slot's identifier keys already in the graph


@dataclass(frozen=True, slots=True)
class _Holder:
    researcher: int
    position: int
    name: ParsedName
    orcid: str | None
    pinned: bool
    source: str
    method: str
    confidence: float
    has_ids: bool


def names_compatible(a: ParsedName, b: ParsedName) -> bool:
    return last_key(a) == last_key(b) and compare_names(a, b).compatible


class Resolver:
    """Resolves the author slots of a batch; reads the graph, writes nothing."""

    def __init__(self, db: Database, *, candidates_per_block: int = CANDIDATES_PER_BLOCK) -> None:
        self.db = db
        self.candidates_per_block = candidates_per_block
        self._printed: dict[tuple[str, str, int], str] = {}

    async def resolve(self, slots: Sequence[Slot]) -> list[Resolution]:
        resolutions = [Resolution(slot) for slot in slots]
        self._printed = {(s.paper, s.source, s.position): s.raw_name for s in slots}
        by_key = await self._identifiers(slots)
        holders = await self._holders({s.paper for s in slots})
        pending: list[Resolution] = []
        for res in resolutions:
            res.stored_keys = frozenset(key for _, key in res.slot.id_keys if key in by_key)
            if not self._by_rules(res, by_key, holders):
                pending.append(res)
        await self._by_names(pending)
        _one_slot_per_researcher(resolutions)
        edges = {(paper, h.researcher) for paper, hs in holders.items() for h in hs}
        for res in resolutions:
            res.edge_exists = (res.slot.paper, res.researcher) in edges
        return resolutions

    async def _identifiers(self, slots: Iterable[Slot]) -> dict[str, int]:
        keys = sorted({key for s in slots for _, key in s.id_keys})
        if not keys:
            return {}
        rows = await self.db.run_rows(q.LOOKUP_IDENTIFIERS, {"keys": keys})
        return {row["key"]: row["researcher"] for row in rows}

    async def _holders(self, papers: set[str]) -> dict[str, list[_Holder]]:
        rows = await self.db.run_rows(q.LOOKUP_SLOTS, {"papers": sorted(papers)})
        holders: dict[str, list[_Holder]] = defaultdict(list)
        for row in rows:
            holders[row["paper"]].append(
                _Holder(
                    researcher=row["researcher"],
                    position=row["position"],
                    name=parse_name(row["name"]),
                    orcid=row["orcid"],
                    pinned=row["pinned"],
                    source=row["source"],
                    method=row["method"],
                    confidence=row["confidence"] or 1.0,
                    has_ids=row["has_ids"],
                )
            )
        return holders

    def _by_rules(
        self, res: Resolution, by_key: dict[str, int], holders: dict[str, list[_Holder]]
    ) -> bool:
        slot = res.slot
        name = parse_name(slot.raw_name)
        on_paper = holders.get(slot.paper, [])
        at_position = [h for h in on_paper if h.position == slot.position]
        if any(h.pinned for h in at_position):
            res.keep = True
            return True
        for method, key in slot.id_keys:
            if key in by_key:
                res.researcher, res.method, res.confidence = by_key[key], method, 1.0
                for h in at_position:
                    if h.researcher != res.researcher and names_compatible(h.name, name):
                        (res.same_as if h.has_ids else res.replaces).append(h.researcher)
                return True
        same_name = [
            h
            for h in sorted(on_paper, key=lambda h: h.position != slot.position)
            if names_compatible(h.name, name)
            and not (slot.author.orcid and h.orcid and h.orcid != slot.author.orcid)
            # a holder at another position belongs to whoever this record prints there
            and (h.position == slot.position or not self._claimed(slot, h, name))
        ]
        if same_name:
            holder = same_name[0]
            res.researcher = holder.researcher
            if holder.source == slot.source:
                res.method, res.confidence = holder.method, holder.confidence
            else:
                res.method, res.confidence = "cross_source", 1.0
            return True
        return False

    def _claimed(self, slot: Slot, holder: _Holder, name: ParsedName) -> bool:
        """Whether the record prints a compatible name at the holder's own position."""
        other = self._printed.get((slot.paper, slot.source, holder.position))
        return other is not None and names_compatible(parse_name(other), holder.name)

    async def _by_names(self, pending: list[Resolution]) -> None:
        """Rule 4. A source's own author ids are trusted within that source: a mention never
        joins a researcher who already has a *different* id of the same scheme (nor a
        different ORCID); it may join one the source has not yet identified."""
        if not pending:
            return
        mentions = {f"m{i}": _mention(f"m{i}", r.slot) for i, r in enumerate(pending)}
        block_of = {key: block_key(m.name) for key, m in mentions.items()}
        rows = await self.db.run_rows(
            q.CANDIDATE_IDS_BY_BLOCK,
            {"blocks": _block_filters(mentions, block_of), "per_block": self.candidates_per_block},
        )
        in_block: dict[str, list[Row]] = defaultdict(list)
        for row in rows:
            in_block[row["block"]].append(row)
        distinct: list[tuple[str, str]] = []
        needed: set[int] = set()
        for key, mention in mentions.items():
            for row in in_block.get(block_of[key], ()):
                if _eligible(mention, row):
                    needed.add(row["id"])
                else:
                    distinct.append((key, f"r{row['id']}"))
        by_block: dict[str, list[str]] = defaultdict(list)
        for key in mentions:
            by_block[block_of[key]].append(key)
        for keys in by_block.values():
            distinct += [
                (a, b) for a, b in combinations(keys, 2) if _apart(mentions[a], mentions[b])
            ]
        features = (
            await self.db.run(q.CANDIDATE_FEATURES, {"ids": sorted(needed)}) if needed else []
        )
        candidates = {f"r{row['id']}": _candidate(row) for row in features}
        for keys in _group_by_block(candidates).values():
            distinct += list(combinations(keys, 2))
        everyone = [*candidates.values(), *mentions.values()]
        context = ScoringContext.build(everyone)
        clusters = cluster_mentions(
            everyone, constraints=Constraints.of(distinct=distinct), context=context
        )
        index = {key: i for i, key in enumerate(mentions)}
        rivals = _group_by_block(candidates)
        for cluster in clusters:
            existing = [k for k in cluster if k in candidates]
            news = [k for k in cluster if k in mentions]
            target = existing[0] if existing else None
            if (
                target is not None
                and news
                and _ambiguous([mentions[k] for k in news], target, rivals, candidates, context)
            ):
                target = None  # two researchers fit: a new record now, aligned later
            for key in news:
                res = pending[index[key]]
                if target is not None:
                    res.researcher = int(target[1:])
                    res.method = "name_score"
                    res.confidence = round(
                        score(mentions[key], candidates[target], context).probability, 4
                    )
                else:
                    res.new_group = news[0]
                    res.method, res.confidence = "new", 1.0


def _one_slot_per_researcher(resolutions: list[Resolution]) -> None:
    """Two authors of one paper are two people: if two slots of a record resolved to one
    researcher, the slot that matched less directly becomes a new researcher."""
    seen: dict[tuple[str, str, int], Resolution] = {}
    for res in sorted(resolutions, key=lambda r: (r.method not in _DIRECT, r.slot.position)):
        if res.researcher is None or res.keep:
            continue
        key = (res.slot.paper, res.slot.source, res.researcher)
        if key in seen:
            res.researcher, res.new_group = None, f"dup:{res.slot.paper}:{res.slot.position}"
            res.method, res.confidence, res.same_as, res.replaces = "new", 1.0, [], []
        else:
            seen[key] = res


_DIRECT = {"orcid", "s2_id", "openalex_id", "curator"}


def _ambiguous(
    news: list[Mention],
    target: str,
    rivals: dict[str, list[str]],
    candidates: dict[str, Mention],
    context: ScoringContext,
) -> bool:
    """Whether another existing researcher of the block fits the new mentions about as well.

    Precision before recall: joining the wrong one of two namesakes is the worse error, and a
    new record is merged later when a paper aligns it with one of them.
    """
    chosen = candidates[target]
    others = [k for k in rivals.get(block_key(chosen.name), ()) if k != target]
    if not others:
        return False
    best = max(score(m, chosen, context).probability for m in news)
    for key in others:
        rival = max(score(m, candidates[key], context).probability for m in news)
        if rival >= 0.5 and best - rival < AMBIGUITY_MARGIN:
            return True
    return False


AMBIGUITY_MARGIN = 0.25


def _block_filters(
    mentions: dict[str, Mention], block_of: dict[str, str]
) -> list[dict[str, object]]:
    """Per block, the id schemes every new mention in it carries: a researcher holding an id
    of such a scheme can be eligible for none of them (see :func:`_eligible`), so the query
    leaves them out instead of sending them back."""
    schemes: dict[str, set[str]] = {}
    for key, mention in mentions.items():
        own = {
            s
            for s, v in (("s2", mention.s2_author_id), ("openalex", mention.openalex_author_id))
            if v
        }
        block = block_of[key]
        schemes[block] = schemes[block] & own if block in schemes else own
    return [
        {"key": block, "no_s2": "s2" in common, "no_openalex": "openalex" in common}
        for block, common in sorted(schemes.items())
    ]


def _group_by_block(candidates: dict[str, Mention]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for key, mention in candidates.items():
        groups[block_key(mention.name)].append(key)
    return groups


def _eligible(mention: Mention, candidate: Row) -> bool:
    if mention.orcid and candidate["orcid"] and mention.orcid != candidate["orcid"]:
        return False
    if mention.s2_author_id and candidate["s2_ids"]:
        return False  # the same id would have matched by rule 2
    return not (mention.openalex_author_id and candidate["openalex_ids"])


def _apart(a: Mention, b: Mention) -> bool:
    """Two new mentions the same source identifies as different people (or on one paper)."""
    if a.paper_id == b.paper_id:
        return True
    if a.orcid and b.orcid and a.orcid != b.orcid:
        return True
    if a.s2_author_id and b.s2_author_id and a.s2_author_id != b.s2_author_id:
        return True
    return bool(
        a.openalex_author_id
        and b.openalex_author_id
        and a.openalex_author_id != b.openalex_author_id
    )


def _mention(key: str, slot: Slot) -> Mention:
    return Mention(
        mention_id=key,
        name=parse_name(slot.raw_name),
        paper_id=slot.paper,
        position=slot.position,
        n_authors=slot.n_authors,
        affiliations=slot.affiliations,
        ror_ids=slot.ror_ids,
        coauthors=slot.coauthors,
        categories=frozenset(slot.categories),
        year=slot.year,
        orcid=slot.author.orcid,
        s2_author_id=slot.author.s2_ids[0] if slot.author.s2_ids else None,
        openalex_author_id=slot.author.openalex_ids[0] if slot.author.openalex_ids else None,
    )


def _candidate(row: Row) -> Mention:
    """A researcher already in the graph, as one mention carrying everything known of them."""
    return Mention(
        mention_id=f"r{row['id']}",
        name=parse_name(row["name"]),
        affiliations=tuple(row["affiliations"] or ()),
        coauthors=frozenset(row["coauthors"] or ()),
        categories=frozenset(row["categories"] or ()),
        year=row["year_max"],
        orcid=row["orcid"],
        s2_author_id=(row["s2_ids"] or [None])[0],
        openalex_author_id=(row["openalex_ids"] or [None])[0],
    )
