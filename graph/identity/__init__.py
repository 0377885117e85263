"""Author identity: which mentions of a name on papers are one person.

Mentions in, clusters out: :func:`parse_name` and :func:`name_from_parts` normalise names,
:func:`score` says how likely two :class:`Mention` s are one person and why,
:func:`cluster_mentions` partitions mentions into people, :func:`assign_mention` places one
more, and :func:`evaluate_s2and` measures all this on an S2AND benchmark.
"""

from scholargraph.graph.identity.cluster import (
    Assignment,
    ClusterConfig,
    Constraints,
    assign_mention,
    blocks_of,
    cluster_block,
    cluster_mentions,
)
from scholargraph.graph.identity.evaluate import (
    compare_clusterings,
    compare_s2and,
    evaluate_s2and,
    one_cluster_per_block,
    same_first_and_middle_initial,
)
from scholargraph.graph.identity.names import (
    NameComparison,
    ParsedName,
    block_key,
    compare_given,
    compare_names,
    name_from_parts,
    normalize_part,
    parse_name,
    swapped,
    variant_block_keys,
)
from scholargraph.graph.identity.s2and import (
    read_cluster_seeds,
    read_clusters,
    read_papers,
    read_signatures,
    to_mentions,
)
from scholargraph.graph.identity.scoring import (
    Evidence,
    Mention,
    PairScore,
    ScoringContext,
    affiliation_tokens,
    coauthor_key,
    score,
)
from scholargraph.graph.identity.variants import DEFAULT_VARIANTS, NameVariants, load_variant_pairs

__all__ = [
    "DEFAULT_VARIANTS",
    "Assignment",
    "ClusterConfig",
    "Constraints",
    "Evidence",
    "Mention",
    "NameComparison",
    "NameVariants",
    "PairScore",
    "ParsedName",
    "ScoringContext",
    "affiliation_tokens",
    "assign_mention",
    "block_key",
    "blocks_of",
    "cluster_block",
    "cluster_mentions",
    "coauthor_key",
    "compare_clusterings",
    "compare_given",
    "compare_names",
    "compare_s2and",
    "evaluate_s2and",
    "load_variant_pairs",
    "name_from_parts",
    "normalize_part",
    "one_cluster_per_block",
    "parse_name",
    "read_cluster_seeds",
    "read_clusters",
    "read_papers",
    "read_signatures",
    "same_first_and_middle_initial",
    "score",
    "swapped",
    "to_mentions",
    "variant_block_keys",
]
