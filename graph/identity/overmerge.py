"""An id a source gave to two people: found where the sources disagree and the evidence
sides with the one that keeps them apart.

OpenAlex sometimes gives one author id to two people of one name, where S2 keeps them apart;
S2 sometimes splits one person in two, where OpenAlex joins them. The convergence pass
(:mod:`graph.identity.converge`) ties slots that share an id into one unit; a unit holding
two ids of one scheme is where two sources disagree. Its slots fall into **parts**, tied by
every id but the **bridges** (the ids whose slots carry two ids of another scheme), and the
slots that carry nothing but bridges are **loose**. The parts, each tied together, and the
loose slots are clustered by their own evidence (names, coauthors, categories,
affiliations, years: :func:`graph.identity.cluster.cluster_block`): parts the evidence joins
are one person a source split; parts it keeps apart (a chance below :data:`SPLIT_BELOW` of
being one: a source said they are, so the bar is high) are two people a source merged, and
the unit splits along them. A bridge then stays with the part that carries it on most slots
(ties: the first slot); the other parts keep only their own ids.

All of it is a function of the ids the sources gave and the slots' evidence, so the split is
the same in any load order; the pass records it as a machine move a curator can undo, and a
researcher a curator has decided on is never split.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scholargraph.graph.identity.cluster import ClusterConfig, Constraints, cluster_block
from scholargraph.graph.identity.scoring import Mention, ScoringContext

Keys = Mapping[str, frozenset[str]]  # slot id → the ids its sources gave it
# A source said "one person": parts stay one unless the evidence gives them less than this
# chance of being one. On the 2,000-paper demo corpus (seed 3), of 20 pairs of parts that
# two sources disagree on, the one over-merge scores 0.001 and the 19 people S2 split score
# 0.12 or more: a bar at 0.02 splits the one and none of the others.
SPLIT_BELOW = ClusterConfig(threshold=0.02)


def scheme(key: str) -> str:
    return key.split(":", 1)[0]


def contested(keys: Keys) -> bool:
    """Whether the slots hold two ids of one scheme (two sources disagree)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for own in keys.values():
        for key in own:
            seen[scheme(key)].add(key)
    return any(len(ids) > 1 for ids in seen.values())


def bridges(keys: Keys) -> frozenset[str]:
    """The ids whose slots carry two ids of another scheme."""
    carried: dict[str, set[str]] = defaultdict(set)
    for own in keys.values():
        for key in own:
            carried[key] |= own - {key}
    found = set()
    for key, others in carried.items():
        per_scheme = Counter(scheme(k) for k in others if scheme(k) != scheme(key))
        if any(n > 1 for n in per_scheme.values()):
            found.add(key)
    return frozenset(found)


def parts(keys: Keys, cut: frozenset[str]) -> tuple[list[list[str]], list[str]]:
    """The slots tied by every id but ``cut``, and the loose slots that carry only ``cut``."""
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for slot_id, own in sorted(keys.items()):
        for key in sorted(own - cut):
            a, b = sorted((find(f"slot:{slot_id}"), find(f"id:{key}")))
            parent[b] = a
    grouped: dict[str, list[str]] = defaultdict(list)
    loose: list[str] = []
    for slot_id, own in sorted(keys.items()):
        if own - cut:
            grouped[find(f"slot:{slot_id}")].append(slot_id)
        else:
            loose.append(slot_id)
    return sorted(grouped.values()), loose


@dataclass(frozen=True, slots=True)
class Split:
    """A contested unit's slots as the people they are, and the ids each keeps."""

    groups: tuple[tuple[str, ...], ...]
    keys: Mapping[str, frozenset[str]]  # slot id → the ids it keeps


def split(keys: Keys, mentions: Sequence[Mention], context: ScoringContext) -> Split | None:
    """The people a contested unit's slots are, or None when they are one (or it is not
    contested). ``mentions`` are the unit's slots as mentions (ids as ``keys``)."""
    if not contested(keys):
        return None
    cut = bridges(keys)
    tied, _ = parts(keys, cut)
    if len(tied) < 2:
        return None
    same = [(group[0], other) for group in tied for other in group[1:]]
    clusters = cluster_block(mentions, context, Constraints.of(same=same), SPLIT_BELOW)
    if len(clusters) < 2:
        return None
    return Split(tuple(clusters), _keys_kept(keys, clusters, cut))


def _keys_kept(
    keys: Keys, clusters: Sequence[tuple[str, ...]], cut: frozenset[str]
) -> dict[str, frozenset[str]]:
    """Each bridge stays with the cluster that carries it on most slots (ties: the first)."""
    owner: dict[str, int] = {}
    for key in cut:
        counts = [sum(key in keys[s] for s in cluster) for cluster in clusters]
        owner[key] = max(range(len(clusters)), key=lambda i: (counts[i], -i))
    kept: dict[str, frozenset[str]] = {}
    for index, cluster in enumerate(clusters):
        for slot_id in cluster:
            kept[slot_id] = frozenset(k for k in keys[slot_id] if owner.get(k, index) == index)
    return kept
