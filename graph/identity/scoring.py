"""Same person or not: an interpretable log-odds model over two author mentions.

The score of a pair is a prior plus log-likelihood ratios::

    log-odds(same) = name prior + middle names + affiliation + coauthors + categories
                     + year gap + email + topic

Every weight but the topic's comes from two rates, P(observation | same person) and
P(observation | two namesakes), set by reasoning and never fitted to a benchmark:

* **name prior** — the chance that two mentions of one full name in one block are one person,
  estimated from the corpus being clustered (:meth:`ScoringContext.build`): a person mostly
  keeps one affiliation, so the more a name's mentions agree on affiliations, the fewer people
  share it (method of moments, shrunk toward the corpus's median name when a name has few
  affiliation pairs). An initial matches a full name with that name's share of the block's
  names with that initial; a nickname variant costs 0.7.
* **middle names** — a namesake has the same middle initial about one time in ten: +1.5
  (+2.0 for the same full middle name). Conflicting middle names never merge.
* **affiliation** — cosine of TF-IDF vectors of normalised affiliation tokens. One person shows
  the same affiliation on about 60% of paper pairs, namesakes on about 3%: identical
  affiliations give ln(0.6/0.03) ≈ +3.0, disjoint ones ln(0.4/0.97) ≈ −0.9, linear between.
* **coauthors** — each shared coauthor +2.5 (namesakes share one about 1% of the time, one
  person on about 40% of paper pairs); none shared −0.5.
* **categories** — identical categories +0.8, disjoint −1.0 (one field, broadly).
* **year gap** — −0.002·gap²: mild, careers are long (20 years apart costs 0.8).
* **email** — the same address +5.0, different addresses −1.0 (they change with jobs).
* **topic** — when both carry a topic vector (a stored researcher's mean paper vector), the
  one weight fitted rather than reasoned: a logistic regression on the demo corpus (10,000
  papers, seed 7) of same person (a person's papers split in two halves, 7,607 pairs) against
  namesakes (40,000 pairs of people in one name block), given the category evidence,
  gives 12.6 per unit of cosine; it is neutral at 0.57, where the two rates cross. Capped at
  ±2.0: synthetic topics are one per field, purer than real ones, and the category evidence
  already says part of it.

Hard rules come first: the same ORCID, S2 author id or OpenAlex author id means the same
person; two different ORCIDs never do; incompatible given names (``jun``/``jian``) never do.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from scholargraph.graph.identity.names import ParsedName, ascii_fold, block_key, compare_given
from scholargraph.graph.identity.variants import DEFAULT_VARIANTS, NameVariants

SAME_AFFILIATION_IF_SAME_PERSON = 0.6
SAME_AFFILIATION_IF_NAMESAKES = 0.03
AFFILIATION_SAME = math.log(SAME_AFFILIATION_IF_SAME_PERSON / SAME_AFFILIATION_IF_NAMESAKES)
AFFILIATION_DISJOINT = math.log(
    (1 - SAME_AFFILIATION_IF_SAME_PERSON) / (1 - SAME_AFFILIATION_IF_NAMESAKES)
)
AFFILIATION_SLOPE = AFFILIATION_SAME - AFFILIATION_DISJOINT
COAUTHORS_NONE = -0.5
COAUTHOR_EACH = 2.5
CATEGORIES_DISJOINT = -1.0
CATEGORIES_SLOPE = 1.8
YEAR_GAP_SQUARED = -0.002
EMAIL_SAME = 5.0
EMAIL_DIFFERENT = -1.0
MIDDLE_AGREE_FULL = 2.0
MIDDLE_AGREE_INITIAL = 1.5
VARIANT_PENALTY = -0.7
TOPIC_SLOPE = 12.6
TOPIC_NEUTRAL = 0.57
TOPIC_CAP = 2.0
DEFAULT_NAME_PRIOR = 0.4  # a little below even odds: over-merging is the worse error
PRIOR_PSEUDO_PAIRS = 10.0  # how many affiliation pairs the default prior is worth
PRIOR_RANGE = (0.02, 0.98)
CERTAIN = 50.0  # the log-odds a hard rule stands for

_WORD = re.compile(r"[a-z]+")
_STEM = 6  # "sciences"/"science"/"sci." all become "scienc"
# Function words, and words that say what kind of place an affiliation is but not which one:
# in a small corpus their IDF is unreliable and "University of X" would match "Y University".
_AFFILIATION_STOPWORDS = frozenset(
    {"of", "the", "and", "at", "for", "in", "on", "de", "la", "le", "der", "die", "das", "und",
     "fur", "di", "del", "des", "du", "et", "y", "e", "da", "do", "dos", "an",
     "university", "institute", "college", "school", "department", "faculty", "division"}
)  # fmt: skip
_ABBREVIATIONS = {
    "univ": "university", "universitat": "university", "universite": "university",
    "universidad": "university", "universita": "university", "universiteit": "university",
    "inst": "institute", "institut": "institute", "instituto": "institute",
    "istituto": "institute", "technol": "technology", "tech": "technology",
    "sci": "science", "acad": "academy", "natl": "national", "nat": "national",
    "lab": "laboratory", "labs": "laboratory", "dept": "department", "dep": "department",
    "telecommun": "telecommunications", "comput": "computer", "eng": "engineering",
    "engn": "engineering", "res": "research", "ctr": "center", "centre": "center",
    "coll": "college", "intl": "international", "libr": "library", "autom": "automation",
    "educ": "education", "minist": "ministry", "phys": "physics", "chem": "chemistry",
    "math": "mathematics", "elect": "electrical", "electron": "electronics",
    "syst": "systems", "inf": "information", "inform": "information", "appl": "applied",
    "med": "medicine", "hosp": "hospital", "assoc": "association", "corp": "corporation",
    "sch": "school", "fac": "faculty", "polytech": "polytechnic",
}  # fmt: skip


_VECTOR_CACHE_SIZE = 1 << 16  # vectors a context keeps before it starts again


@lru_cache(maxsize=1 << 16)  # affiliation strings repeat across a load's mentions
def affiliation_tokens(text: str) -> tuple[str, ...]:
    """Normalised affiliation tokens: folded, abbreviations expanded, stems of six letters.

    >>> affiliation_tokens("Beijing Univ. of Posts & Telecommun.")
    ('beijin', 'posts', 'teleco')
    """
    words = _WORD.findall(ascii_fold(text))
    expanded = (_ABBREVIATIONS.get(w, w) for w in words if len(w) > 1)
    stems = (w[:_STEM] for w in expanded if w not in _AFFILIATION_STOPWORDS)
    return tuple(dict.fromkeys(stems))


@dataclass(frozen=True, slots=True)
class Mention:
    """One author slot on one paper, with whatever the sources tell about that author.

    ``coauthors`` holds name keys of the other authors (see :func:`coauthor_key`);
    ``position`` is 1-based; ``affiliations`` are raw strings, ``ror_ids`` bare ROR keys.
    """

    mention_id: str
    name: ParsedName
    paper_id: str = ""
    position: int | None = None
    n_authors: int | None = None
    affiliations: tuple[str, ...] = ()
    ror_ids: tuple[str, ...] = ()
    coauthors: frozenset[str] = frozenset()
    categories: frozenset[str] = frozenset()
    year: int | None = None
    email: str | None = None
    orcid: str | None = None
    s2_author_id: str | None = None
    openalex_author_id: str | None = None
    topic: tuple[float, ...] | None = None  # unit-length topic vector (graph.semantic)

    @property
    def given_tokens(self) -> tuple[str, ...]:
        return tuple(p for p in (self.name.first, *self.name.middles) if p)

    @property
    def other_coauthors(self) -> frozenset[str]:
        """Coauthor keys without the author's own key (a source may list the author too)."""
        return self.coauthors - {coauthor_key(self.name)}


def coauthor_key(name: ParsedName) -> str:
    """The key a coauthor is matched by: first initial and surname, as in blocking."""
    return block_key(name)


def logit(probability: float) -> float:
    return math.log(probability / (1.0 - probability))


def sigmoid(log_odds: float) -> float:
    if log_odds >= 0:
        return 1.0 / (1.0 + math.exp(-log_odds))
    z = math.exp(log_odds)
    return z / (1.0 + z)


def _clip(p: float) -> float:
    low, high = PRIOR_RANGE
    return min(high, max(low, p))


@dataclass(frozen=True, slots=True)
class NamePrior:
    probability: float
    mentions: int
    affiliation_pairs: int


@dataclass
class ScoringContext:
    """What a score needs to know about the corpus: token weights and per-name priors.

    ``blocks`` maps a mention id to its block when clustering joined blocks (umlaut or
    hyphenated spellings); otherwise a mention's block is :func:`block_key` of its name.
    """

    idf: Mapping[str, float] = field(default_factory=dict)
    priors: Mapping[tuple[str, str], NamePrior] = field(default_factory=dict)
    blocks: Mapping[str, str] = field(default_factory=dict)
    variants: NameVariants = DEFAULT_VARIANTS
    default_prior: float = DEFAULT_NAME_PRIOR
    _name_cache: dict[tuple[str, tuple[str, ...], tuple[str, ...]], float | None] = field(
        default_factory=dict, repr=False, compare=False
    )
    # a vector per set of affiliation strings and ROR ids: a block's profiles and its
    # candidate pairs each weigh every mention, and a pass weighs a slot in each group it is in
    _vector_cache: dict[tuple[tuple[str, ...], tuple[str, ...]], dict[str, float]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @classmethod
    def empty(cls) -> ScoringContext:
        return cls()

    @classmethod
    def build(
        cls,
        mentions: Iterable[Mention],
        *,
        blocks: Mapping[str, str] | None = None,
        variants: NameVariants = DEFAULT_VARIANTS,
    ) -> ScoringContext:
        listed = list(mentions)
        document_frequency: Counter[str] = Counter()
        for mention in listed:
            document_frequency.update(_affiliation_terms(mention))
        n = len(listed)
        idf = {t: math.log((1 + n) / (1 + df)) + 1.0 for t, df in document_frequency.items()}
        context = cls(idf=idf, blocks=dict(blocks or {}), variants=variants)
        by_name: dict[tuple[str, str], list[Mention]] = defaultdict(list)
        for mention in listed:
            if mention.name.has_full_first:
                by_name[(context.block_of(mention), mention.name.first)].append(mention)
        context.priors, context.default_prior = _estimate_priors(by_name)
        return context

    def block_of(self, mention: Mention) -> str:
        return self.blocks.get(mention.mention_id) or block_key(mention.name)

    def affiliation_vector(self, mention: Mention) -> dict[str, float]:
        """Unit TF-IDF vector of a mention's affiliation tokens and ROR ids (a new dict the
        caller may change)."""
        key = (tuple(mention.affiliations), tuple(mention.ror_ids))
        vector = self._vector_cache.get(key)
        if vector is None:
            if len(self._vector_cache) >= _VECTOR_CACHE_SIZE:
                self._vector_cache.clear()
            weights = {t: self.idf.get(t, 1.0) for t in _terms_of(*key)}
            vector = self._vector_cache[key] = _unit(weights)
        return dict(vector)

    def name_prior(self, block: str, first: str) -> float:
        known = self.priors.get((block, first))
        return known.probability if known else self.default_prior

    @cached_property
    def _block_names(self) -> dict[str, Counter[str]]:
        names: dict[str, Counter[str]] = defaultdict(Counter)
        for (block, first), prior in self.priors.items():
            names[block][first] = prior.mentions
        return names

    def _mixture_prior(self, block: str, initial: str) -> float:
        """Chance two mentions with only this initial (or none, ``""``) are one person."""
        names = self._block_names.get(block, Counter())
        counts = {f: n for f, n in names.items() if f.startswith(initial)}
        total = sum(counts.values())
        if not total:
            return self.default_prior
        mixture = sum((n / total) ** 2 * self.name_prior(block, f) for f, n in counts.items())
        return _clip(mixture)

    def initial_share(self, block: str, first: str) -> float:
        """Share of a full first name among the block's full names with its initial."""
        names = self._block_names.get(block, Counter())
        same_initial = sum(n for f, n in names.items() if f[0] == first[0])
        return names[first] / same_initial if names[first] else 0.5

    def name_log_odds(self, block: str, a: tuple[str, ...], b: tuple[str, ...]) -> float | None:
        """Prior log-odds from the given names alone; None when they cannot be one person."""
        key = (block, a, b)
        if key not in self._name_cache:
            self._name_cache[key] = self._name_log_odds(block, a, b)
        return self._name_cache[key]

    def _name_log_odds(self, block: str, a: tuple[str, ...], b: tuple[str, ...]) -> float | None:
        comparison = compare_given(a, b, self.variants)
        if not comparison.compatible:
            return None
        first_a, first_b = (a[0] if a else ""), (b[0] if b else "")
        if comparison.first in ("exact", "variant"):
            base = logit(self.name_prior(block, first_a)) + logit(self.name_prior(block, first_b))
            base /= 2
            if comparison.first == "variant":
                base += VARIANT_PENALTY
        elif comparison.first == "initial" and len(first_a) == len(first_b) == 1:
            base = logit(self._mixture_prior(block, first_a))
        elif comparison.first == "initial":
            full = first_a if len(first_a) > 1 else first_b
            share = max(self.initial_share(block, full), 0.01)
            base = logit(self.name_prior(block, full)) + math.log(share)
        else:  # a given name is missing altogether
            base = logit(self._mixture_prior(block, ""))
        if comparison.middle == "agree_full":
            base += MIDDLE_AGREE_FULL
        elif comparison.middle == "agree_initial":
            base += MIDDLE_AGREE_INITIAL
        return base


def _affiliation_terms(mention: Mention) -> frozenset[str]:
    return _terms_of(tuple(mention.affiliations), tuple(mention.ror_ids))


@lru_cache(maxsize=1 << 16)  # a researcher's affiliations repeat on each of their papers
def _terms_of(affiliations: tuple[str, ...], ror_ids: tuple[str, ...]) -> frozenset[str]:
    terms = {t for text in affiliations for t in affiliation_tokens(text)}
    terms.update(f"ror:{r}" for r in ror_ids)
    return frozenset(terms)


def _affiliation_agreement(group: list[Mention]) -> tuple[float, float]:
    """(pairs agreeing on an affiliation, pairs) among a name's mentions with affiliations."""
    signatures = Counter(frozenset(_affiliation_terms(m)) for m in group)
    signatures.pop(frozenset(), None)
    affiliated = sum(signatures.values())
    return sum(n * (n - 1) / 2 for n in signatures.values()), affiliated * (affiliated - 1) / 2


def _moments(agreeing: float, pairs: float) -> float:
    """Solve P(same affiliation) = p·S + (1 − p)·C for p, the chance of one person."""
    rate = agreeing / pairs
    return _clip(
        (rate - SAME_AFFILIATION_IF_NAMESAKES)
        / (SAME_AFFILIATION_IF_SAME_PERSON - SAME_AFFILIATION_IF_NAMESAKES)
    )


def _estimate_priors(
    groups: Mapping[tuple[str, str], list[Mention]],
) -> tuple[dict[tuple[str, str], NamePrior], float]:
    """Per-name priors by the method of moments, shrunk toward the corpus's typical name.

    A name with few affiliation pairs says little about itself, so its estimate is pulled
    toward the median estimate of the names that have at least :data:`PRIOR_PSEUDO_PAIRS`
    pairs (empirical Bayes); with no such name, toward :data:`DEFAULT_NAME_PRIOR`.
    """
    agreement = {key: _affiliation_agreement(group) for key, group in groups.items()}
    informed = sorted(_moments(a, n) for a, n in agreement.values() if n >= PRIOR_PSEUDO_PAIRS)
    target = informed[(len(informed) - 1) // 2] if informed else DEFAULT_NAME_PRIOR
    priors: dict[tuple[str, str], NamePrior] = {}
    for key, (agreeing, pairs) in agreement.items():
        estimate = _moments(agreeing, pairs) if pairs else target
        shrunk = (pairs * estimate + PRIOR_PSEUDO_PAIRS * target) / (pairs + PRIOR_PSEUDO_PAIRS)
        priors[key] = NamePrior(_clip(shrunk), len(groups[key]), int(pairs))
    return priors, target


def _unit(vector: Mapping[str, float]) -> dict[str, float]:
    norm = math.sqrt(sum(v * v for v in vector.values()))
    return {k: v / norm for k, v in vector.items()} if norm else {}


def category_vector(mention: Mention) -> dict[str, float]:
    return _unit(dict.fromkeys(mention.categories, 1.0))


def cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(k, 0.0) for k, v in a.items())


@dataclass(frozen=True, slots=True)
class Evidence:
    feature: str
    value: float
    weight: float
    text: str


@dataclass(frozen=True, slots=True)
class PairScore:
    probability: float
    log_odds: float
    evidence: tuple[Evidence, ...]
    rule: str | None = None  # the hard rule that decided, if one did

    @property
    def same(self) -> bool:
        return self.probability >= 0.5


def hard_rule(a: Mention, b: Mention) -> Evidence | None:
    """The identifier evidence that settles a pair outright, if any."""
    if a.orcid and b.orcid:
        if a.orcid == b.orcid:
            return Evidence("orcid", 1.0, CERTAIN, f"same ORCID {a.orcid}")
        return Evidence("orcid", 0.0, -CERTAIN, f"different ORCIDs {a.orcid} and {b.orcid}")
    if a.s2_author_id and a.s2_author_id == b.s2_author_id:
        return Evidence("s2_author_id", 1.0, CERTAIN, f"same S2 author {a.s2_author_id}")
    if a.openalex_author_id and a.openalex_author_id == b.openalex_author_id:
        text = f"same OpenAlex author {a.openalex_author_id}"
        return Evidence("openalex_author_id", 1.0, CERTAIN, text)
    return None


def score(a: Mention, b: Mention, context: ScoringContext | None = None) -> PairScore:
    """How likely two mentions name one person, with the evidence item by item.

    Without a ``context`` the name prior is :data:`DEFAULT_NAME_PRIOR` and affiliation tokens
    are unweighted; pass the context built over the corpus for calibrated scores.
    """
    ctx = context or ScoringContext.empty()
    rule = hard_rule(a, b)
    if rule is not None:
        return PairScore(sigmoid(rule.weight), rule.weight, (rule,), rule.feature)
    block = ctx.block_of(a)
    name_weight = ctx.name_log_odds(block, a.given_tokens, b.given_tokens)
    if name_weight is None:
        text = _conflict_text(a.given_tokens, b.given_tokens, ctx.variants)
        return PairScore(0.0, -CERTAIN, (Evidence("name", 0.0, -CERTAIN, text),), "name")
    given_a, given_b = " ".join(a.given_tokens) or "?", " ".join(b.given_tokens) or "?"
    relation = "same given names" if given_a == given_b else "compatible given names"
    prior = sigmoid(name_weight)
    text = f"{relation} {given_a!r} / {given_b!r} in block {block!r}: prior {prior:.2f}"
    evidence = [Evidence("name", prior, name_weight, text), *_feature_evidence(a, b, ctx)]
    log_odds = sum(item.weight for item in evidence)
    return PairScore(sigmoid(log_odds), log_odds, tuple(evidence))


def _conflict_text(a: tuple[str, ...], b: tuple[str, ...], variants: NameVariants) -> str:
    if compare_given(a, b, variants).first == "conflict":
        return f"first names conflict: {a[0]!r} vs {b[0]!r}"
    return f"middle names conflict: {' '.join(a[1:])!r} vs {' '.join(b[1:])!r}"


def _feature_evidence(a: Mention, b: Mention, ctx: ScoringContext) -> list[Evidence]:
    items: list[Evidence] = []
    affiliation_a, affiliation_b = ctx.affiliation_vector(a), ctx.affiliation_vector(b)
    if affiliation_a and affiliation_b:
        similarity = cosine(affiliation_a, affiliation_b)
        weight = AFFILIATION_DISJOINT + AFFILIATION_SLOPE * similarity
        text = f"affiliation tokens overlap {similarity:.2f}"
        items.append(Evidence("affiliation", similarity, weight, text))
    coauthors_a, coauthors_b = a.other_coauthors, b.other_coauthors
    if coauthors_a and coauthors_b:
        shared = len(coauthors_a & coauthors_b)
        noun = "coauthor" if shared == 1 else "coauthors"
        text = f"{shared} shared {noun}" if shared else "no shared coauthors"
        weight = COAUTHORS_NONE + COAUTHOR_EACH * shared
        items.append(Evidence("coauthors", float(shared), weight, text))
    if a.categories and b.categories:
        similarity = cosine(category_vector(a), category_vector(b))
        weight = CATEGORIES_DISJOINT + CATEGORIES_SLOPE * similarity
        items.append(
            Evidence("categories", similarity, weight, f"categories overlap {similarity:.2f}")
        )
    if a.year is not None and b.year is not None:
        gap = abs(a.year - b.year)
        text = f"papers {gap} years apart"
        items.append(Evidence("year_gap", float(gap), YEAR_GAP_SQUARED * gap * gap, text))
    if a.topic and b.topic:
        similarity = sum(x * y for x, y in zip(a.topic, b.topic, strict=False))
        weight = max(-TOPIC_CAP, min(TOPIC_CAP, TOPIC_SLOPE * (similarity - TOPIC_NEUTRAL)))
        items.append(Evidence("topic", similarity, weight, f"topics alike {similarity:.2f}"))
    if a.email and b.email:
        same = a.email.strip().lower() == b.email.strip().lower()
        weight = EMAIL_SAME if same else EMAIL_DIFFERENT
        items.append(
            Evidence("email", float(same), weight, "same email" if same else "different emails")
        )
    return items
