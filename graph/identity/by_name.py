"""Rule 4 of :mod:`graph.identity.resolver`: slots no id or aligned slot placed are scored
against the researchers of their name block, and against each other.

A source's own author ids are trusted within that source: a mention never joins a researcher
who already has a *different* id of the same scheme (nor a different ORCID); it may join one
the source has not identified yet. Existing researchers are never merged with each other
here, and when two of them fit a mention about equally well it makes a new record (joining
the wrong one of two namesakes is the worse error; a later aligned slot merges it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations

from scholargraph.graph.identity.cluster import Constraints, blocks_of, cluster_blocks
from scholargraph.graph.identity.mentions import Slot, new_group_of, slot_mention, slot_order
from scholargraph.graph.identity.names import block_key
from scholargraph.graph.identity.rules import Resolution
from scholargraph.graph.identity.scoring import Mention, ScoringContext, score
from scholargraph.graph.identity.snapshot import Candidate, Snapshot

AMBIGUITY_MARGIN = 0.25
# The tag every existing researcher of a batch's blocks carries (cluster.Constraints.tags).
HELD = "held"


def pending_mentions(slots: Sequence[Slot]) -> dict[str, Mention]:
    return {f"m{i}": slot_mention(f"m{i}", slot) for i, slot in enumerate(slots)}


def block_filters(mentions: Mapping[str, Mention]) -> list[dict[str, object]]:
    """Per block, the id schemes every new mention in it carries: a researcher holding an id
    of such a scheme can be eligible for none of them (see :func:`eligible`), so the query
    leaves them out instead of sending them back."""
    schemes: dict[str, set[str]] = {}
    for mention in mentions.values():
        own = {
            s
            for s, v in (("s2", mention.s2_author_id), ("openalex", mention.openalex_author_id))
            if v
        }
        block = block_key(mention.name)
        schemes[block] = schemes[block] & own if block in schemes else own
    return [
        {"key": block, "no_s2": "s2" in common, "no_openalex": "openalex" in common}
        for block, common in sorted(schemes.items())
    ]


def eligible(mention: Mention, candidate: Candidate) -> bool:
    if mention.orcid and candidate.orcid and mention.orcid != candidate.orcid:
        return False
    if mention.s2_author_id and candidate.has_s2:
        return False  # the same id would have matched by rule 2
    return not (mention.openalex_author_id and candidate.has_openalex)


def by_names(pending: Sequence[Slot], snapshot: Snapshot) -> list[Resolution]:
    """Resolutions of the pending slots, in their order."""
    if not pending:
        return []
    mentions = pending_mentions(pending)
    distinct: list[tuple[str, str]] = []
    candidates: dict[str, Mention] = {}
    for key, mention in mentions.items():
        for candidate in snapshot.blocks.get(block_key(mention.name), ()):
            other = f"r{candidate.id}"
            if not eligible(mention, candidate):
                distinct.append((key, other))
            elif candidate.id in snapshot.features:
                candidates[other] = snapshot.features[candidate.id]
    everyone = [*candidates.values(), *mentions.values()]
    blocks = blocks_of(everyone)
    distinct += _kept_apart(blocks, mentions)
    rivals = _group_by_block(candidates)
    context = ScoringContext.build(everyone)
    # Two existing researchers are never one: each carries one tag, which keeps apart any
    # two groups holding one each, without listing every pair of a block's researchers.
    held = [(key, (HELD,)) for key in candidates]
    constraints = Constraints.of(distinct=distinct, tags=held)
    clusters = cluster_blocks(blocks, constraints=constraints, context=context)
    index = {key: i for i, key in enumerate(mentions)}
    resolved: list[Resolution] = [Resolution(slot) for slot in pending]
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
            res = resolved[index[key]]
            if target is not None:
                probability = score(mentions[key], candidates[target], context).probability
                resolved[index[key]] = replace(
                    res,
                    researcher=int(target[1:]),
                    method="name_score",
                    confidence=round(probability, 4),
                )
            else:
                resolved[index[key]] = replace(res, new_group=_group_key(pending, news))
    return resolved


def _kept_apart(
    blocks: Mapping[str, list[Mention]], mentions: Mapping[str, Mention]
) -> list[tuple[str, str]]:
    """Pairs of new mentions clustering must keep apart, in the blocks it clusters (variant
    spellings joined, as ``Mary T. Smith`` and ``M. Smith-Jones``): two a source tells apart
    (:func:`_apart`), one paper's two authors included. (Two existing researchers are kept
    apart by their tag, :data:`HELD`.)"""
    pairs: list[tuple[str, str]] = []
    for group in blocks.values():
        news = [m.mention_id for m in group if m.mention_id in mentions]
        pairs += [(a, b) for a, b in combinations(news, 2) if _apart(mentions[a], mentions[b])]
    return pairs


def _group_key(pending: Sequence[Slot], news: list[str]) -> str:
    """A new researcher's group, named by its first slot (stable whatever the batch holds)."""
    first = min((pending[int(k[1:])] for k in news), key=slot_order)
    return new_group_of(first)


def _ambiguous(
    news: list[Mention],
    target: str,
    rivals: dict[str, list[str]],
    candidates: dict[str, Mention],
    context: ScoringContext,
) -> bool:
    """Whether another existing researcher of the block fits the new mentions about as well."""
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


def _group_by_block(candidates: dict[str, Mention]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for key, mention in candidates.items():
        groups[block_key(mention.name)].append(key)
    return groups


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
