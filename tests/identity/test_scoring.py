import math
from dataclasses import replace

import pytest

from scholargraph.graph.identity.cluster import Profile, link_log_odds
from scholargraph.graph.identity.names import parse_name
from scholargraph.graph.identity.scoring import Mention, ScoringContext, affiliation_tokens, score


def mention(mention_id: str, name: str = "Lei Zhang", **fields: object) -> Mention:
    return Mention(mention_id, parse_name(name), **fields)  # type: ignore[arg-type]


def test_affiliation_tokens_expand_abbreviations() -> None:
    long = affiliation_tokens("Beijing University of Posts and Telecommunications")
    short = affiliation_tokens("Beijing Univ. of Posts & Telecommun.")
    assert long == short
    assert affiliation_tokens("Universität Stuttgart") == affiliation_tokens("Univ. Stuttgart")
    assert affiliation_tokens("") == ()


def test_same_orcid_is_the_same_person_whatever_else() -> None:
    a = mention("a", "Jun Li", orcid="0000-0002-1825-0097", affiliations=("MIT",))
    b = mention("b", "Jian Li", orcid="0000-0002-1825-0097", affiliations=("Tsinghua",))
    result = score(a, b)
    assert result.probability == pytest.approx(1.0)
    assert result.rule == "orcid"
    assert result.evidence[0].text == "same ORCID 0000-0002-1825-0097"


def test_different_orcids_are_never_the_same_person() -> None:
    shared = {"affiliations": ("University of Sheffield",), "coauthors": frozenset({"j smith"})}
    a = mention("a", orcid="0000-0002-1825-0097", s2_author_id="1", **shared)
    b = mention("b", orcid="0000-0001-5109-3700", s2_author_id="1", **shared)
    result = score(a, b)
    assert result.probability == pytest.approx(0.0)
    assert not result.same
    assert "different ORCIDs" in result.evidence[0].text


@pytest.mark.parametrize("field", ["s2_author_id", "openalex_author_id"])
def test_same_source_author_id_is_the_same_person(field: str) -> None:
    a = mention("a", affiliations=("Microsoft",), **{field: "A5001226970"})
    b = mention("b", affiliations=("Peking University",), **{field: "A5001226970"})
    result = score(a, b)
    assert result.same
    assert result.rule == field


def test_conflicting_first_names_never_match() -> None:
    a = mention("a", "Jun Li", affiliations=("MIT",), coauthors=frozenset({"a b"}))
    b = mention("b", "Jian Li", affiliations=("MIT",), coauthors=frozenset({"a b"}))
    result = score(a, b)
    assert result.probability == 0.0
    assert result.evidence[0].text == "first names conflict: 'jun' vs 'jian'"
    middle = score(mention("a", "John A. Smith"), mention("b", "John B. Smith"))
    assert middle.probability == 0.0
    assert "middle names conflict" in middle.evidence[0].text


def test_log_odds_is_the_sum_of_evidence_and_probability_its_sigmoid() -> None:
    a = mention(
        "a",
        affiliations=("Microsoft Research Asia",),
        categories=frozenset({"cs.CV"}),
        coauthors=frozenset({"h shum", "j sun"}),
        year=2010,
        email="lz@example.org",
    )
    b = mention(
        "b",
        affiliations=("Microsoft Research",),
        categories=frozenset({"cs.CV", "cs.LG"}),
        coauthors=frozenset({"h shum", "k he"}),
        year=2016,
        email="lz@example.org",
    )
    result = score(a, b)
    assert result.log_odds == pytest.approx(sum(e.weight for e in result.evidence))
    assert result.probability == pytest.approx(1 / (1 + math.exp(-result.log_odds)))
    features = [e.feature for e in result.evidence]
    assert features == ["name", "affiliation", "coauthors", "categories", "year_gap", "email"]
    texts = {e.feature: e.text for e in result.evidence}
    assert texts["coauthors"] == "1 shared coauthor"
    assert texts["year_gap"] == "papers 6 years apart"
    assert texts["email"] == "same email"
    assert texts["affiliation"].startswith("affiliation tokens overlap 0.")


def test_each_kind_of_evidence_moves_the_score_the_right_way() -> None:
    base = mention(
        "a",
        affiliations=("Hong Kong Polytechnic University",),
        coauthors=frozenset({"d zhang", "w zuo"}),
    )
    other = mention(
        "b",
        affiliations=("Hong Kong Polytechnic University",),
        coauthors=frozenset({"d zhang", "w zuo"}),
    )
    both = score(base, other).log_odds
    moved = score(base, replace(other, affiliations=("McMaster University",))).log_odds
    strangers = score(base, replace(other, coauthors=frozenset({"x y"}))).log_odds
    one_shared = score(base, replace(other, coauthors=frozenset({"d zhang"}))).log_odds
    assert moved < both
    assert strangers < one_shared < both
    no_info = score(mention("a"), mention("b"))
    assert [e.feature for e in no_info.evidence] == ["name"]


def test_name_specificity() -> None:
    full = score(mention("a", "Daniel Brown"), mention("b", "Daniel Brown")).log_odds
    initial = score(mention("a", "D. Brown"), mention("b", "Daniel Brown")).log_odds
    middles = score(mention("a", "Daniel G. Brown"), mention("b", "Daniel G. Brown")).log_odds
    nickname = score(mention("a", "Dan Brown"), mention("b", "Daniel Brown")).log_odds
    assert initial < full < middles
    assert nickname < full


def test_name_prior_follows_how_scattered_a_name_is() -> None:
    one_person = [
        mention(f"p{i}", "Peter Willett", affiliations=("University of Sheffield",))
        for i in range(12)
    ]
    many_people = [
        mention(f"l{i}", "Lei Zhang", affiliations=(f"{place} University",))
        for i, place in enumerate(
            [
                "Tsinghua",
                "Peking",
                "Fudan",
                "Zhejiang",
                "Nanjing",
                "Wuhan",
                "Sichuan",
                "Jilin",
                "Shandong",
                "Xiamen",
            ]
        )
    ]
    context = ScoringContext.build([*one_person, *many_people])
    rare = score(mention("x", "Peter Willett"), mention("y", "Peter Willett"), context)
    common = score(mention("x", "Lei Zhang"), mention("y", "Lei Zhang"), context)
    assert rare.probability > 0.8
    assert common.probability < 0.2
    assert "prior" in rare.evidence[0].text


def test_group_link_is_the_mean_of_pair_scores() -> None:
    people = [
        mention(
            "1",
            "Lei Zhang",
            affiliations=("Microsoft Research Asia",),
            year=2008,
            coauthors=frozenset({"h shum"}),
            categories=frozenset({"cs.CV"}),
        ),
        mention("2", "L. Zhang", affiliations=("Microsoft",), email="l@x.org", year=2012),
        mention("3", "Lei Zhang", coauthors=frozenset({"h shum", "y ma"}), email="l@x.org"),
        mention(
            "4",
            "Lei Zhang",
            affiliations=("Tsinghua University",),
            categories=frozenset({"cs.CV", "cs.LG"}),
            year=2015,
        ),
        mention("5", "Lei Zhang", affiliations=("Microsoft",), coauthors=frozenset({"y ma"})),
    ]
    context = ScoringContext.build(people)
    left, right = people[:2], people[2:]
    pair_mean = sum(score(a, b, context).log_odds for a in left for b in right) / 6
    group_a, group_b = Profile.of(left[0], context), Profile.of(right[0], context)
    group_a.absorb(Profile.of(left[1], context))
    for extra in right[1:]:
        group_b.absorb(Profile.of(extra, context))
    assert link_log_odds(group_a, group_b, context) == pytest.approx(pair_mean)
    single = link_log_odds(Profile.of(people[0], context), Profile.of(people[3], context), context)
    assert single == pytest.approx(score(people[0], people[3], context).log_odds)


def _unit(*xs: float) -> tuple[float, ...]:
    norm = math.sqrt(sum(x * x for x in xs))
    return tuple(x / norm for x in xs)


def test_topic_vectors_are_evidence_capped_and_neutral_near_their_crossing() -> None:
    a = mention("a", topic=_unit(1.0, 0.0))
    alike = score(a, mention("b", topic=_unit(1.0, 0.1)))
    apart = score(a, mention("c", topic=_unit(0.0, 1.0)))
    neutral = score(a, mention("d", topic=_unit(0.57, math.sqrt(1 - 0.57**2))))
    topic = {s: next(e for e in s.evidence if e.feature == "topic") for s in (alike, apart)}
    assert topic[alike].weight == pytest.approx(2.0)  # capped
    assert topic[apart].weight == pytest.approx(-2.0)
    assert next(e for e in neutral.evidence if e.feature == "topic").weight == pytest.approx(
        0.0, abs=1e-6
    )
    assert alike.probability > neutral.probability > apart.probability
    assert "topics alike" in topic[alike].text
    without = score(a, mention("e"))
    assert all(e.feature != "topic" for e in without.evidence)


def test_an_affiliation_vector_is_the_callers_to_change_and_the_same_each_time() -> None:
    a = Mention("a", parse_name("Ann Lee"), affiliations=("Univ. of Oslo",), ror_ids=("01xtthb56",))
    b = Mention("b", parse_name("Ann Lee"), affiliations=["Univ. of Oslo"], ror_ids=["01xtthb56"])  # type: ignore[arg-type]
    context = ScoringContext.build([a, b, Mention("c", parse_name("Bo Lee"))])
    first = context.affiliation_vector(a)
    assert set(first) == {"oslo", "ror:01xtthb56"}
    assert math.isclose(sum(v * v for v in first.values()), 1.0)
    first["oslo"] = 9.0  # a group's profile adds others' vectors into its own
    assert context.affiliation_vector(b) == context.affiliation_vector(a) != first
    assert context.affiliation_vector(Mention("d", parse_name("Ann Lee"))) == {}
