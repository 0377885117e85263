import random
import string
import time

import pytest

from scholargraph.graph.identity.cluster import (
    ClusterConfig,
    Constraints,
    assign_mention,
    blocks_of,
    cluster_mentions,
)
from scholargraph.graph.identity.names import parse_name
from scholargraph.graph.identity.scoring import Mention, ScoringContext


def mention(mention_id: str, name: str = "Lei Zhang", **fields: object) -> Mention:
    return Mention(mention_id, parse_name(name), **fields)  # type: ignore[arg-type]


def synthetic_block(size: int, people: int, seed: int) -> tuple[list[Mention], dict[str, int]]:
    """Namesakes with their own affiliations and coauthors; returns mentions and true person."""
    rng = random.Random(seed)

    def word() -> str:
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(8))

    profiles = [
        (
            rng.choice(["wei", "wei", "wei", "wen", "weiwei"]),
            [f"University of {word().title()}" for _ in range(2)],
            [f"{word()[0]} {word()}" for _ in range(6)],
            rng.randint(1990, 2015),
        )
        for _ in range(people)
    ]
    mentions, truth = [], {}
    for index in range(size):
        person = rng.randrange(people)
        first, affiliations, coauthors, start = profiles[person]
        mentions.append(
            Mention(
                f"m{index:05d}",
                parse_name(f"{'W.' if rng.random() < 0.1 else first} Wang"),
                affiliations=(rng.choice(affiliations),) if rng.random() < 0.7 else (),
                coauthors=frozenset(rng.sample(coauthors, 2)),
                year=start + rng.randint(0, 8),
            )
        )
        truth[f"m{index:05d}"] = person
    return mentions, truth


def assert_partition(clusters: list[tuple[str, ...]], mentions: list[Mention]) -> None:
    seen = [m for cluster in clusters for m in cluster]
    assert sorted(seen) == sorted(m.mention_id for m in mentions)
    assert all(clusters)


def test_clusters_form_a_partition_and_mostly_keep_people_apart() -> None:
    mentions, truth = synthetic_block(400, 40, seed=1)
    clusters = cluster_mentions(mentions)
    assert_partition(clusters, mentions)
    together = sum(len(c) * (len(c) - 1) // 2 for c in clusters)
    wrong = sum(
        1
        for cluster in clusters
        for i, a in enumerate(cluster)
        for b in cluster[i + 1 :]
        if truth[a] != truth[b]
    )
    assert together > 0
    assert wrong / together < 0.1
    assert len(clusters) < 0.7 * 400


def test_output_is_deterministic_and_independent_of_input_order() -> None:
    mentions, _ = synthetic_block(200, 20, seed=2)
    first = cluster_mentions(mentions)
    shuffled = mentions[:]
    random.Random(5).shuffle(shuffled)
    assert cluster_mentions(shuffled) == first
    assert first == sorted(first)
    assert all(list(c) == sorted(c) for c in first)


def test_different_orcids_never_share_a_cluster() -> None:
    same = {"affiliations": ("University of Sheffield",), "coauthors": frozenset({"j smith"})}
    mentions = [
        mention("a", "Peter Willett", orcid="0000-0002-1825-0097", **same),
        mention("b", "Peter Willett", orcid="0000-0001-5109-3700", **same),
        mention("c", "Peter Willett", **same),
        mention("d", "Peter Willett", **same),
    ]
    clusters = cluster_mentions(mentions)
    assert_partition(clusters, mentions)
    holder = {m: i for i, cluster in enumerate(clusters) for m in cluster}
    assert holder["a"] != holder["b"]
    assert holder["c"] == holder["d"]


def test_must_links_hold_and_curator_distinct_pairs_split() -> None:
    mentions = [
        mention("a", "Lei Zhang", s2_author_id="1", affiliations=("Microsoft",)),
        mention("b", "Lei Zhang", s2_author_id="1", affiliations=("McMaster University",)),
        mention("c", "Lei Zhang", affiliations=("Stony Brook University",)),
        mention("d", "Lei Zhang", affiliations=("George Mason University",)),
        mention("e", "Lei Zhang", affiliations=("Hunan University",)),
        mention("f", "Lei Zhang", affiliations=("Hunan University",)),
    ]
    rules = Constraints.of(same=[("c", "d")], distinct=[("e", "f")])
    clusters = cluster_mentions(mentions, constraints=rules)
    holder = {m: i for i, cluster in enumerate(clusters) for m in cluster}
    assert holder["a"] == holder["b"]
    assert holder["c"] == holder["d"]
    assert holder["e"] != holder["f"]
    assert cluster_mentions(mentions)  # without the rules e and f go together
    assert ("e", "f") in cluster_mentions(mentions)


def test_an_initial_never_bridges_conflicting_names() -> None:
    place = {"affiliations": ("Zhejiang University",), "coauthors": frozenset({"x chen"})}
    mentions = [
        mention("1", "Lei Zhang", **place),
        mention("2", "L. Zhang", **place),
        mention("3", "Lu Zhang", **place),
    ]
    clusters = cluster_mentions(mentions)
    holder = {m: i for i, cluster in enumerate(clusters) for m in cluster}
    assert holder["1"] != holder["3"]
    assert holder["2"] in (holder["1"], holder["3"])


def test_a_name_only_mention_joins_a_dominant_person_but_not_one_of_many() -> None:
    sheffield = [
        mention(f"s{i}", "Peter Willett", affiliations=("University of Sheffield",))
        for i in range(8)
    ]
    bare = mention("x", "Peter Willett")
    clusters = cluster_mentions([*sheffield, bare])
    assert len(clusters) == 1
    spread = [
        mention(f"c{i}", "Lei Zhang", affiliations=(f"{city} University",))
        for i, city in enumerate(["Fudan", "Fudan", "Hunan", "Hunan", "Jilin", "Jilin"])
    ]
    clusters = cluster_mentions([*spread, mention("y", "Lei Zhang")])
    assert ("y",) in clusters


def test_two_name_only_mentions_kept_apart_never_join_one_person_together() -> None:
    """Two printings of one name on one paper (a hyperauthor paper gives no coauthors) are
    two authors: both would join the dominant person on their own, only the closer does."""
    sheffield = [
        mention(f"s{i}", "Peter Willett", affiliations=("University of Sheffield",))
        for i in range(8)
    ]
    full = mention("x", "Peter Willett", paper_id="p")
    initial = mention("y", "P. Willett", paper_id="p")
    assert len(cluster_mentions([*sheffield, full])) == 1
    assert len(cluster_mentions([*sheffield, initial])) == 1
    apart = Constraints.of(distinct=[("x", "y")])
    clusters = cluster_mentions([*sheffield, full, initial], constraints=apart)
    assert ("y",) in clusters and len(clusters) == 2


def test_blocks_join_spellings_and_turn_round_surname_first_names() -> None:
    mentions = [
        mention("1", "Wolfgang Müller"),
        mention("2", "Wolfgang Mueller"),
        mention("7", "Wolfgang Müller"),
        mention("3", "Ping Zhang"),
        mention("4", "Ping Zhang"),
        mention("5", "Zhang Ping"),
        mention("6", "Jun Li"),
    ]
    blocks = blocks_of(mentions)
    assert {label: [m.mention_id for m in group] for label, group in blocks.items()} == {
        "j li": ["6"],
        "p zhang": ["3", "4", "5"],
        "w muller": ["1", "2", "7"],
    }
    turned = next(m for m in blocks["p zhang"] if m.mention_id == "5")
    assert (turned.name.first, turned.name.last) == ("ping", "zhang")


def test_a_name_is_turned_round_only_where_the_turned_name_is_printed_more() -> None:
    """``Jackson Richard`` falls in the block of the many ``Jean Richard``s, but no one there
    is a ``Jackson``: ``Richard Jackson`` stays beside ``Richard T. Jackson``."""
    richards = [
        mention(str(i), name) for i, name in enumerate(["Jean Richard"] * 4 + ["J. Richard"])
    ]
    jacksons = [mention("a", "Richard Jackson"), mention("b", "Richard T. Jackson")]
    blocks = blocks_of([*richards, *jacksons])
    assert [m.mention_id for m in blocks["r jackson"]] == ["a", "b"]


def test_incremental_assignment_agrees_with_batch_clustering() -> None:
    mentions = [
        mention("1", "Jun Sun", affiliations=("National University of Singapore",)),
        mention("2", "Jun Sun", affiliations=("National University of Singapore",)),
        mention("3", "Jun Sun", affiliations=("Yangtze University",)),
        mention("4", "Jun Sun", affiliations=("Yangtze University",)),
        mention("5", "Jun Sun", affiliations=("Jiangnan University",)),
    ]
    newcomer = mention("6", "Jun Sun", affiliations=("Yangtze University",))
    stranger = mention("7", "Jun Sun", affiliations=("University of Auckland",))
    batch = cluster_mentions([*mentions, newcomer])
    with_newcomer = next(c for c in batch if "6" in c)
    by_id = {m.mention_id: m for m in mentions}
    existing = [[by_id[i] for i in c] for c in cluster_mentions(mentions)]
    context = ScoringContext.build([*mentions, newcomer])
    placed = assign_mention(newcomer, existing, context=context)
    assert placed.cluster is not None
    assert {m.mention_id for m in existing[placed.cluster]} == set(with_newcomer) - {"6"}
    assert placed.probability > 0.5
    assert assign_mention(stranger, existing).cluster is None
    batch_stranger = cluster_mentions([*mentions, stranger])
    assert ("7",) in batch_stranger


def test_a_higher_threshold_never_merges_more() -> None:
    mentions, _ = synthetic_block(200, 20, seed=3)
    loose = cluster_mentions(mentions, config=ClusterConfig(threshold=0.3))
    strict = cluster_mentions(mentions, config=ClusterConfig(threshold=0.9))
    assert len(strict) >= len(cluster_mentions(mentions)) >= len(loose)


@pytest.mark.parametrize("size", [3000])
def test_a_large_block_clusters_quickly(size: int) -> None:
    mentions, _ = synthetic_block(size, 300, seed=4)
    assert len(blocks_of(mentions)) == 1
    started = time.perf_counter()
    clusters = cluster_mentions(mentions)
    elapsed = time.perf_counter() - started
    assert_partition(clusters, mentions)
    assert elapsed < 5.0, f"{size} mentions took {elapsed:.1f}s"


def _tagged(mentions: list[Mention], seed: int) -> tuple[list[tuple[str, set[str]]], list[str]]:
    """Every third mention a unit with one or two id schemes, some of them exclusive."""
    rng = random.Random(seed)
    tags: list[tuple[str, set[str]]] = []
    exclusive: list[str] = []
    for m in mentions[::3]:
        schemes = set(rng.sample(["orcid", "s2", "openalex"], rng.choice([1, 1, 2])))
        if rng.random() < 0.1:
            schemes.add(f"fixed:{m.mention_id}")
            exclusive.append(m.mention_id)
        tags.append((m.mention_id, schemes))
    return tags, exclusive


def test_tags_keep_apart_exactly_what_their_pairs_would() -> None:
    for seed in range(4):
        mentions, _ = synthetic_block(150, 12, seed)
        tags, exclusive = _tagged(mentions, seed)
        tagged = dict(tags)
        pairs = [
            (a, b)
            for i, (a, ta) in enumerate(tags)
            for b, tb in tags[i + 1 :]
            if a in exclusive or b in exclusive or ta & tb
        ]
        by_tags = Constraints.of(tags=tags, exclusive=exclusive)
        by_pairs = Constraints.of(distinct=pairs)
        assert pairs and all(by_tags.apart(a, b) and by_tags.apart(b, a) for a, b in pairs)
        ids = [m.mention_id for m in mentions]
        untagged = next(i for i in ids if i not in tagged)
        assert not any(by_tags.apart(untagged, other) for other in ids)
        assert cluster_mentions(mentions, constraints=by_tags) == cluster_mentions(
            mentions, constraints=by_pairs
        )
