"""Group author mentions into people: blocking, then average-linkage clustering per block.

Within a block, clustering runs in three steps, all with the scores of
:mod:`graph.identity.scoring` and one threshold (a probability, 0.5 by default):

1. **Must-links** — the same ORCID, S2 author id or OpenAlex author id, and curator merges,
   join mentions first, unless that would join two ORCIDs or a curator "distinct" pair.
2. **Average linkage** — the two groups with the highest mean pair log-odds merge, while it
   is at least the threshold's log-odds and no cross pair is a cannot-link (different ORCIDs,
   incompatible given names, a curator "distinct" pair). Only groups that share an
   affiliation token, coauthor, email or ROR id are compared at first; then groups whose
   names alone could pass the threshold (a rare name) are compared with each other.
3. **Attachment** — a mention with nothing but a name (no affiliation, coauthors or email)
   cannot be told from its namesakes, so it joins the group most likely to have written it:
   the one it links to best if that passes the threshold, else the largest name-compatible
   group when that group holds at least half the block's compatible mentions (a prolific
   author is the likeliest author of one more paper).

Mean log-odds of all cross pairs is computed exactly from per-group sums (:class:`Profile`),
so a merge costs the size of the groups' feature sets, not the product of their sizes.
Output is deterministic: ties break on sorted mention ids and nothing is random.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from scholargraph.graph.identity.disjoint import DisjointSets
from scholargraph.graph.identity.names import block_key, compare_given, swapped, variant_block_keys
from scholargraph.graph.identity.scoring import (
    AFFILIATION_DISJOINT,
    AFFILIATION_SLOPE,
    CATEGORIES_DISJOINT,
    CATEGORIES_SLOPE,
    COAUTHOR_EACH,
    COAUTHORS_NONE,
    EMAIL_DIFFERENT,
    EMAIL_SAME,
    YEAR_GAP_SQUARED,
    Mention,
    ScoringContext,
    category_vector,
    cosine,
    logit,
    sigmoid,
)

_CANDIDATE_TERMS = 2  # the rarest affiliation tokens of a mention that make it a candidate


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    threshold: float = 0.5  # probability that two groups must reach to merge
    attach_share: float = 0.5
    window: int = 32  # in a long candidate list, each mention is compared with the next 32


@dataclass(frozen=True, slots=True)
class Constraints:
    """Curator decisions over mention ids: pairs that are one person, or never are.

    ``tags`` keep whole sets apart without listing their pairs: two groups that carry one
    tag (two units of one id scheme: two S2 author ids are two people) are kept apart, and
    a group holding an ``exclusive`` mention (a curator's researcher) is kept apart from
    every other group that carries a tag."""

    same: frozenset[frozenset[str]] = frozenset()
    distinct: frozenset[frozenset[str]] = frozenset()
    tags: tuple[tuple[str, frozenset[str]], ...] = ()
    exclusive: frozenset[str] = frozenset()
    partners: dict[str, frozenset[str]] = field(default_factory=dict, compare=False)
    tagged: dict[str, frozenset[str]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        # Each mention's "distinct" partners, so a block looks up only its own mentions.
        partners: dict[str, set[str]] = defaultdict(set)
        for pair in self.distinct:
            for mention_id in pair:
                partners[mention_id] |= pair - {mention_id}
        object.__setattr__(self, "partners", {k: frozenset(v) for k, v in partners.items()})
        object.__setattr__(self, "tagged", {k: v for k, v in self.tags if v})

    @classmethod
    def of(
        cls,
        same: Iterable[tuple[str, str]] = (),
        distinct: Iterable[tuple[str, str]] = (),
        *,
        tags: Iterable[tuple[str, Iterable[str]]] = (),
        exclusive: Iterable[str] = (),
    ) -> Constraints:
        return cls(
            frozenset(map(frozenset, same)),
            frozenset(map(frozenset, distinct)),
            tuple(sorted((mention_id, frozenset(t)) for mention_id, t in tags)),
            frozenset(exclusive),
        )

    def apart(self, a: str, b: str) -> bool:
        """Whether mentions ``a`` and ``b`` are never one person."""
        if b in self.partners.get(a, ()):
            return True
        ta, tb = self.tagged.get(a), self.tagged.get(b)
        return bool(ta and tb) and tags_conflict(
            ta or frozenset(), a in self.exclusive, tb or frozenset(), b in self.exclusive
        )


def tags_conflict(ta: frozenset[str], xa: bool, tb: frozenset[str], xb: bool) -> bool:
    """Two tagged groups are kept apart when either is exclusive or they share a tag."""
    return bool(ta and tb) and (xa or xb or not ta.isdisjoint(tb))


@dataclass(slots=True)
class Profile:
    """Sums over a group of mentions from which mean pair log-odds follow exactly."""

    block: str
    members: list[str] = field(default_factory=list)
    forms: Counter[tuple[str, ...]] = field(default_factory=Counter)
    affiliated: int = 0
    affiliation: dict[str, float] = field(default_factory=dict)
    with_coauthors: int = 0
    coauthors: Counter[str] = field(default_factory=Counter)
    with_categories: int = 0
    categories: dict[str, float] = field(default_factory=dict)
    dated: int = 0
    year_sum: float = 0.0
    year_square_sum: float = 0.0
    emails: Counter[str] = field(default_factory=Counter)
    orcids: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, mention: Mention, context: ScoringContext) -> Profile:
        profile = cls(context.block_of(mention), [mention.mention_id])
        profile.forms[mention.given_tokens] = 1
        profile.affiliation = context.affiliation_vector(mention)
        profile.affiliated = int(bool(profile.affiliation))
        profile.coauthors = Counter(mention.other_coauthors)
        profile.with_coauthors = int(bool(profile.coauthors))
        profile.categories = category_vector(mention)
        profile.with_categories = int(bool(profile.categories))
        if mention.year is not None:
            profile.dated, profile.year_sum = 1, float(mention.year)
            profile.year_square_sum = float(mention.year) ** 2
        if mention.email:
            profile.emails[mention.email.strip().lower()] = 1
        if mention.orcid:
            profile.orcids.add(mention.orcid)
        return profile

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def has_evidence(self) -> bool:
        """Whether anything beyond the name can tell this group from its namesakes."""
        return bool(self.affiliated or self.with_coauthors or self.emails)

    def absorb(self, other: Profile) -> None:
        self.members.extend(other.members)
        self.forms.update(other.forms)
        self.affiliated += other.affiliated
        _add(self.affiliation, other.affiliation)
        self.with_coauthors += other.with_coauthors
        self.coauthors.update(other.coauthors)
        self.with_categories += other.with_categories
        _add(self.categories, other.categories)
        self.dated += other.dated
        self.year_sum += other.year_sum
        self.year_square_sum += other.year_square_sum
        self.emails.update(other.emails)
        self.orcids |= other.orcids


def _add(total: dict[str, float], more: dict[str, float]) -> None:
    for key, value in more.items():
        total[key] = total.get(key, 0.0) + value


def _shared(a: Counter[str], b: Counter[str]) -> int:
    if len(a) > len(b):
        a, b = b, a
    return sum(n * b[k] for k, n in a.items() if k in b)


def name_log_odds_mean(a: Profile, b: Profile, context: ScoringContext) -> float | None:
    total = 0.0
    for form_a, count_a in a.forms.items():
        for form_b, count_b in b.forms.items():
            term = context.name_log_odds(a.block, form_a, form_b)
            if term is None:
                return None
            total += count_a * count_b * term
    return total / (a.size * b.size)


def link_log_odds(a: Profile, b: Profile, context: ScoringContext) -> float | None:
    """Mean pair log-odds between two groups (average linkage); None for a cannot-link.

    Every term of :func:`graph.identity.scoring.score` is a sum over pairs of products of
    per-mention quantities, so the sum over all cross pairs is a product of group sums.
    """
    if a.orcids and b.orcids and a.orcids != b.orcids:
        return None
    names = name_log_odds_mean(a, b, context)
    if names is None:
        return None
    total = AFFILIATION_DISJOINT * a.affiliated * b.affiliated
    total += AFFILIATION_SLOPE * cosine(a.affiliation, b.affiliation)
    total += COAUTHORS_NONE * a.with_coauthors * b.with_coauthors
    total += COAUTHOR_EACH * _shared(a.coauthors, b.coauthors)
    total += CATEGORIES_DISJOINT * a.with_categories * b.with_categories
    total += CATEGORIES_SLOPE * cosine(a.categories, b.categories)
    squared_gaps = b.dated * a.year_square_sum + a.dated * b.year_square_sum
    total += YEAR_GAP_SQUARED * (squared_gaps - 2 * a.year_sum * b.year_sum)
    same_email = _shared(a.emails, b.emails)
    with_email = sum(a.emails.values()) * sum(b.emails.values())
    total += EMAIL_SAME * same_email + EMAIL_DIFFERENT * (with_email - same_email)
    return names + total / (a.size * b.size)


def blocks_of(mentions: Iterable[Mention]) -> dict[str, list[Mention]]:
    """Blocks joined wherever a variant spelling of one name is another's block.

    A two-part name printed surname first (``Zhang Ping`` beside many ``Ping Zhang``) is
    turned round when the turned-round name is the more common of the two (see
    :func:`_orient`). Each block is labelled by its most common primary key; mentions are
    sorted by id.
    """
    listed = _orient(sorted(mentions, key=lambda m: m.mention_id))
    sets = DisjointSets()
    primary = {m.mention_id: block_key(m.name) for m in listed}
    for key in sorted(set(primary.values())):
        sets.find(key)
    for mention in listed:
        for variant in variant_block_keys(mention.name):
            if variant in sets:
                sets.union(primary[mention.mention_id], variant)
    grouped: dict[str, list[Mention]] = defaultdict(list)
    for mention in listed:
        grouped[sets.find(primary[mention.mention_id])].append(mention)
    labelled: dict[str, list[Mention]] = {}
    for group in grouped.values():
        counts = Counter(primary[m.mention_id] for m in group)
        label = min(counts, key=lambda k: (-counts[k], k))
        labelled[label] = group
    return dict(sorted(labelled.items()))


def _orient(mentions: list[Mention]) -> list[Mention]:
    """Each two-part name turned round where the turned-round name is printed more often,
    given name and surname alike: ``Richard Jackson`` stays beside ``R. Jackson`` however many
    ``Jean Richard`` and ``J. Richard`` there are."""
    printed = Counter((m.name.first, m.name.last) for m in mentions)
    oriented: list[Mention] = []
    for mention in mentions:
        turned = swapped(mention.name)
        name = mention.name
        if (
            turned is not None
            and printed[(turned.first, turned.last)] > printed[(name.first, name.last)]
        ):
            mention = replace(mention, name=turned)
        oriented.append(mention)
    return oriented


class _Groups:
    """Union-find over one block's mentions that keeps a profile per group."""

    def __init__(
        self,
        mentions: Sequence[Mention],
        context: ScoringContext,
        rules: Constraints,
    ) -> None:
        self.profiles = [Profile.of(m, context) for m in mentions]
        self.parent = list(range(len(mentions)))
        self.version = [0] * len(mentions)
        self.context = context
        self.forbidden: dict[int, set[str]] = defaultdict(set)
        self.tags: dict[int, frozenset[str]] = {}
        self.exclusive: set[int] = set()
        for i, mention in enumerate(mentions):
            if mention.mention_id in rules.partners:
                self.forbidden[i] |= rules.partners[mention.mention_id]
            if mention.mention_id in rules.tagged:
                self.tags[i] = rules.tagged[mention.mention_id]
                if mention.mention_id in rules.exclusive:
                    self.exclusive.add(i)

    def find(self, index: int) -> int:
        while self.parent[index] != index:
            self.parent[index] = self.parent[self.parent[index]]
            index = self.parent[index]
        return index

    def link(self, a: int, b: int) -> float | None:
        if (self.forbidden or self.tags) and self.curator_forbids(a, b):
            return None
        return link_log_odds(self.profiles[a], self.profiles[b], self.context)

    def curator_forbids(self, a: int, b: int) -> bool:
        """Whether groups ``a`` and ``b`` (roots) are kept apart (see :class:`Constraints`)."""
        if a in self.tags and b in self.tags:
            exclusive = self.exclusive
            if tags_conflict(self.tags[a], a in exclusive, self.tags[b], b in exclusive):
                return True
        banned = self.forbidden.get(a)
        if not banned:
            return False
        return any(m in banned for m in self.profiles[b].members)

    def union(self, a: int, b: int) -> int:
        keep, gone = (a, b) if a < b else (b, a)
        self.parent[gone] = keep
        self.profiles[keep].absorb(self.profiles[gone])
        if gone in self.forbidden:
            self.forbidden[keep] |= self.forbidden.pop(gone)
        if gone in self.tags:
            self.tags[keep] = self.tags.get(keep, frozenset()) | self.tags.pop(gone)
        if gone in self.exclusive:
            self.exclusive.discard(gone)
            self.exclusive.add(keep)
        self.version[keep] += 1
        return keep

    def roots(self) -> list[int]:
        return sorted({self.find(i) for i in range(len(self.parent))})


def _all_apart(mentions: Sequence[Mention], constraints: Constraints) -> bool:
    return all(
        constraints.apart(a.mention_id, mentions[j].mention_id)
        for i, a in enumerate(mentions)
        for j in range(i + 1, len(mentions))
    )


def _must_links(mentions: Sequence[Mention], constraints: Constraints) -> Iterator[tuple[int, int]]:
    index = {m.mention_id: i for i, m in enumerate(mentions)}
    for attribute in ("orcid", "s2_author_id", "openalex_author_id"):
        first_seen: dict[str, int] = {}
        for i, mention in enumerate(mentions):
            value = getattr(mention, attribute)
            if value:
                yield first_seen.setdefault(value, i), i
    for pair in sorted(tuple(sorted(p)) for p in constraints.same):
        if len(pair) == 2 and pair[0] in index and pair[1] in index:
            yield index[pair[0]], index[pair[1]]


def _candidate_pairs(
    mentions: Sequence[Mention], context: ScoringContext, window: int
) -> Iterator[tuple[int, int]]:
    postings: dict[str, list[int]] = defaultdict(list)
    for i, mention in enumerate(mentions):
        terms = sorted(context.affiliation_vector(mention).items(), key=lambda kv: (-kv[1], kv[0]))
        keys = [f"a:{t}" for t, _ in terms[:_CANDIDATE_TERMS]]
        keys += [f"c:{c}" for c in mention.other_coauthors]
        if mention.email:
            keys.append(f"e:{mention.email.strip().lower()}")
        for key in keys:
            postings[key].append(i)
    seen: set[tuple[int, int]] = set()
    for key in sorted(postings):
        members = postings[key]
        for position, a in enumerate(members):
            for b in members[position + 1 : position + 1 + window]:
                if (a, b) not in seen:
                    seen.add((a, b))
                    yield a, b


def _agglomerate(groups: _Groups, pairs: Iterable[tuple[int, int]], threshold: float) -> None:
    heap: list[tuple[float, int, int, int, int]] = []
    for a, b in pairs:
        ra, rb = sorted((groups.find(a), groups.find(b)))
        if ra != rb and (value := groups.link(ra, rb)) is not None and value >= threshold:
            heap.append((-value, ra, rb, groups.version[ra], groups.version[rb]))
    heapq.heapify(heap)
    evaluated: set[tuple[int, int, int, int]] = set()
    while heap:
        _, a, b, version_a, version_b = heapq.heappop(heap)
        ra, rb = sorted((groups.find(a), groups.find(b)))
        if ra == rb:
            continue
        state = (ra, rb, groups.version[ra], groups.version[rb])
        if (a, b, version_a, version_b) != state:  # a group changed since: score it again
            if state not in evaluated:
                evaluated.add(state)
                value = groups.link(ra, rb)
                if value is not None and value >= threshold:
                    heapq.heappush(heap, (-value, *state))
            continue
        groups.union(ra, rb)


def _name_dense_pairs(groups: _Groups, threshold: float) -> Iterator[tuple[int, int]]:
    """Pairs of groups with evidence whose names alone pass the threshold (a rare name)."""
    by_form: dict[tuple[str, ...], list[int]] = defaultdict(list)
    mixed: list[int] = []
    for root in groups.roots():
        profile = groups.profiles[root]
        if profile.has_evidence:
            (by_form[next(iter(profile.forms))] if len(profile.forms) == 1 else mixed).append(root)
    forms = sorted(by_form)
    for i, form_a in enumerate(forms):
        for form_b in forms[i:]:
            names = groups.context.name_log_odds(
                groups.profiles[by_form[form_a][0]].block, form_a, form_b
            )
            if names is None or names < threshold:
                continue
            if form_a == form_b:
                members = by_form[form_a]
                yield from ((a, b) for j, a in enumerate(members) for b in members[j + 1 :])
            else:
                yield from ((a, b) for a in by_form[form_a] for b in by_form[form_b])
    single = [r for members in by_form.values() for r in members]
    for i, a in enumerate(mixed):
        for b in [*mixed[i + 1 :], *single]:
            names = name_log_odds_mean(groups.profiles[a], groups.profiles[b], groups.context)
            if names is not None and names >= threshold:
                yield a, b


def _attach_nameonly(groups: _Groups, threshold: float, share: float) -> None:
    roots = groups.roots()
    anchors = [r for r in roots if groups.profiles[r].has_evidence or groups.profiles[r].size > 1]
    candidates = [groups.profiles[a] for a in anchors]
    forms: Counter[tuple[str, ...]] = Counter()
    for root in roots:
        forms.update(groups.profiles[root].forms)
    decided: dict[tuple[object, ...], int | None] = {}
    wanted: list[tuple[float, int, int]] = []  # (-link, root, anchor): the closest first
    for root in roots:
        profile = groups.profiles[root]
        if profile.size > 1 or profile.has_evidence:
            continue
        # name-only mentions with the same name, categories and year decide alike
        signature = (*profile.forms, *sorted(profile.categories), profile.year_sum)
        if signature not in decided:
            decided[signature] = best_group(
                profile, candidates, groups.context, threshold, share, forms
            )
        target = decided[signature]
        if target is not None and not groups.curator_forbids(root, anchors[target]):
            link = link_log_odds(profile, candidates[target], groups.context)
            wanted.append((-(link if link is not None else threshold), root, anchors[target]))
    joining: dict[int, set[str]] = {}  # each target's ORCIDs, with those of its joiners
    joiners: dict[int, list[int]] = defaultdict(list)
    for _, root, anchor in sorted(wanted):
        # Two ORCIDs are two people, and so are two mentions kept apart (two slots of one
        # paper), also when both would attach to one group: the closer one joins it.
        theirs = joining.setdefault(anchor, set(groups.profiles[anchor].orcids))
        orcids = groups.profiles[root].orcids
        if orcids and theirs and orcids != theirs:
            continue
        if any(groups.curator_forbids(root, other) for other in joiners[anchor]):
            continue
        theirs |= orcids
        joiners[anchor].append(root)
    for anchor, joined in joiners.items():
        for root in joined:
            groups.union(groups.find(root), groups.find(anchor))


def best_group(
    profile: Profile,
    candidates: Sequence[Profile],
    context: ScoringContext,
    threshold: float,
    share: float,
    forms: Counter[tuple[str, ...]],
) -> int | None:
    """Index of the group a one-mention profile belongs to, or None for a new person.

    ``forms`` counts the given-name forms of every mention in the block (the profile's
    own included), to find how many mentions the name-only share rule is a share of.
    """
    scored: list[tuple[float, int, int]] = []
    for index, candidate in enumerate(candidates):
        value = link_log_odds(profile, candidate, context)
        if value is not None:
            scored.append((value, candidate.size, -index))
    if not scored:
        return None
    value, _, negative_index = max(scored)
    if value >= threshold:
        return -negative_index
    if profile.has_evidence:
        return None
    (own,) = profile.forms
    compatible = sum(
        n for form, n in forms.items() if compare_given(own, form, context.variants).compatible
    )
    size, _, negative_index = max((size, v, i) for v, size, i in scored)
    return -negative_index if compatible and size / compatible >= share else None


def cluster_block(
    mentions: Sequence[Mention],
    context: ScoringContext,
    constraints: Constraints | None = None,
    config: ClusterConfig | None = None,
) -> list[tuple[str, ...]]:
    """Cluster one block's mentions; returns sorted tuples of mention ids, sorted."""
    cfg = config or ClusterConfig()
    rules = constraints or Constraints()
    ordered = sorted(mentions, key=lambda m: m.mention_id)
    if len(ordered) == 1 or _all_apart(ordered, rules):
        # Nothing to compare, or every pair is forbidden (a "distinct" beats any link).
        return [(m.mention_id,) for m in ordered]
    threshold = logit(cfg.threshold)
    groups = _Groups(ordered, context, rules)
    for a, b in _must_links(ordered, rules):
        ra, rb = groups.find(a), groups.find(b)
        if ra != rb and not groups.curator_forbids(ra, rb):
            orcids_a, orcids_b = groups.profiles[ra].orcids, groups.profiles[rb].orcids
            if not (orcids_a and orcids_b and orcids_a != orcids_b):
                groups.union(ra, rb)
    _agglomerate(groups, _candidate_pairs(ordered, context, cfg.window), threshold)
    _agglomerate(groups, list(_name_dense_pairs(groups, threshold)), threshold)
    _attach_nameonly(groups, threshold, cfg.attach_share)
    clusters = (tuple(sorted(groups.profiles[r].members)) for r in groups.roots())
    return sorted(clusters)


def cluster_mentions(
    mentions: Iterable[Mention],
    *,
    constraints: Constraints | None = None,
    config: ClusterConfig | None = None,
    context: ScoringContext | None = None,
) -> list[tuple[str, ...]]:
    """Partition mentions into people. Pairs are only ever compared inside a block."""
    return cluster_blocks(
        blocks_of(mentions), constraints=constraints, config=config, context=context
    )


def cluster_blocks(
    blocks: dict[str, list[Mention]],
    *,
    constraints: Constraints | None = None,
    config: ClusterConfig | None = None,
    context: ScoringContext | None = None,
) -> list[tuple[str, ...]]:
    """:func:`cluster_mentions` over blocks :func:`blocks_of` already made."""
    block_of = {m.mention_id: label for label, group in blocks.items() for m in group}
    ctx = context or ScoringContext.build(
        (m for group in blocks.values() for m in group), blocks=block_of
    )
    clusters: list[tuple[str, ...]] = []
    for group in blocks.values():
        clusters.extend(cluster_block(group, ctx, constraints, config))
    return sorted(clusters)


@dataclass(frozen=True, slots=True)
class Assignment:
    """Where a new mention goes: an index into the given clusters, or None for a new person."""

    cluster: int | None
    probability: float


def assign_mention(
    mention: Mention,
    clusters: Sequence[Sequence[Mention]],
    *,
    context: ScoringContext | None = None,
    config: ClusterConfig | None = None,
) -> Assignment:
    """Put one new mention into an existing cluster, or say it is a new person.

    Uses the same link and attachment rules as :func:`cluster_block`, so a mention assigned
    here lands where batch clustering would have put it, as long as it would not have changed
    how the others group.
    """
    cfg = config or ClusterConfig()
    existing = [m for cluster in clusters for m in cluster]
    ctx = context or ScoringContext.build([*existing, mention])
    own = Profile.of(mention, ctx)
    profiles: list[Profile] = []
    for cluster in clusters:
        profile = Profile(own.block)
        for member in cluster:
            profile.absorb(Profile.of(member, ctx))
        profiles.append(profile)
    forms = Counter(m.given_tokens for m in [*existing, mention])
    target = best_group(own, profiles, ctx, logit(cfg.threshold), cfg.attach_share, forms)
    if target is None:
        return Assignment(None, 0.0)
    value = link_log_odds(own, profiles[target], ctx)
    return Assignment(target, sigmoid(value) if value is not None else 0.0)
