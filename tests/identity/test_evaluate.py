import json
from pathlib import Path

import pytest

from scholargraph.graph.errors import BadInput
from scholargraph.graph.identity.evaluate import compare_clusterings, compare_s2and, evaluate_s2and
from scholargraph.graph.identity.s2and import read_cluster_seeds, read_signatures, to_mentions

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
S2AND = SHARED / "author-disambiguation" / "s2and"
MEASURES = [
    "b3_precision",
    "b3_recall",
    "b3_f1",
    "pairwise_precision",
    "pairwise_recall",
    "pairwise_f1",
]


def test_measures_computed_by_hand() -> None:
    gold = [("1", "2", "3"), ("4", "5"), ("6",)]
    predicted = [("1", "2"), ("3", "4", "5"), ("6",)]
    result = compare_clusterings(predicted, gold)
    # B³ precision per element: 1, 1, 1/3, 2/3, 2/3, 1; recall: 2/3, 2/3, 1/3, 1, 1, 1
    assert result["b3_precision"] == pytest.approx(14 / 3 / 6)
    assert result["b3_recall"] == pytest.approx(14 / 3 / 6)
    assert result["b3_f1"] == pytest.approx(14 / 3 / 6)
    # predicted pairs 12 34 35 45, gold pairs 12 13 23 45: two in common
    assert result["pairwise_precision"] == pytest.approx(0.5)
    assert result["pairwise_recall"] == pytest.approx(0.5)
    assert result["pairwise_f1"] == pytest.approx(0.5)
    assert (result["elements"], result["gold_clusters"], result["predicted_clusters"]) == (6, 3, 3)


def test_perfect_and_missing_predictions() -> None:
    gold = [("a", "b"), ("c",)]
    assert compare_clusterings(gold, gold)["b3_f1"] == pytest.approx(1.0)
    nothing = compare_clusterings([], gold)  # every gold element left on its own
    assert nothing["b3_precision"] == pytest.approx(1.0)
    assert nothing["b3_recall"] == pytest.approx(2 / 3)
    assert nothing["pairwise_precision"] == pytest.approx(1.0)
    assert nothing["pairwise_recall"] == pytest.approx(0.0)


def author(first: str, last: str, position: int, affiliation: str) -> dict[str, object]:
    return {
        "first": first,
        "middle": None,
        "last": last,
        "suffix": None,
        "position": position,
        "email": None,
        "affiliations": [affiliation] if affiliation else [],
        "block": f"{first[0].lower()} {last.lower()}",
        "given_block": f"{first[0].lower()} {last.lower()}",
    }


@pytest.fixture
def tiny_s2and(tmp_path: Path) -> dict[str, Path]:
    """Two people called Jun Li (Alberta with coauthor Mei Chen; Tsinghua) and one Jian Li."""
    rows = [
        ("s1", 101, "Jun", "University of Alberta"),
        ("s2", 102, "Jun", "University of Alberta"),
        ("s3", 103, "Jun", ""),
        ("s4", 104, "Jun", "Tsinghua University"),
        ("s5", 105, "Jun", "Tsinghua University"),
        ("s6", 106, "Jian", "Tsinghua University"),
    ]
    signatures = {
        sid: {"signature_id": sid, "paper_id": paper, "author_info": author(first, "Li", 1, aff)}
        for sid, paper, first, aff in rows
    }
    papers = {
        str(paper): {
            "paper_id": paper,
            "title": f"Paper {paper}",
            "year": 2010 + paper % 3,
            "fields_of_study": ["Computer Science"],
            "authors": [
                {"position": 0, "author_name": "Mei Chen" if paper <= 103 else coauthor},
                {"position": 1, "author_name": f"{first} Li"},
            ],
        }
        for (_, paper, first, _), coauthor in zip(
            rows, ["", "", "", "Wen Gao", "Hui Xiong", "Yan Liu"], strict=True
        )
    }
    clusters = {
        "alberta": {"cluster_id": "alberta", "signature_ids": ["s1", "s2", "s3"]},
        "tsinghua": {"cluster_id": "tsinghua", "signature_ids": ["s4", "s5"]},
        "jian": {"cluster_id": "jian", "signature_ids": ["s6"]},
    }
    seeds = {"s4": {"s5": "disallow"}, "s1": {"s3": "require"}}
    paths = {}
    for name, data in [
        ("signatures", signatures),
        ("clusters", clusters),
        ("papers", papers),
        ("cluster_seeds", seeds),
    ]:
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(data), encoding="utf-8")
    return paths


def test_evaluate_a_tiny_s2and_dataset(tiny_s2and: dict[str, Path]) -> None:
    result = evaluate_s2and(tiny_s2and["signatures"], tiny_s2and["clusters"], tiny_s2and["papers"])
    for measure in MEASURES:
        assert result[measure] == pytest.approx(1.0), measure
    assert result["elements"] == 6
    assert result["seconds"] >= 0


def test_baselines_on_a_tiny_s2and_dataset(tiny_s2and: dict[str, Path]) -> None:
    results = compare_s2and(tiny_s2and["signatures"], tiny_s2and["clusters"])
    # one block of six: B³ precision (3·3/6 + 2·2/6 + 1·1/6) / 6
    assert results["block"]["b3_precision"] == pytest.approx((9 + 4 + 1) / 36)
    assert results["block"]["b3_recall"] == pytest.approx(1.0)
    # Jun ×5 and Jian: (3·3/5 + 2·2/5 + 1) / 6
    assert results["first_middle"]["b3_precision"] == pytest.approx((9 / 5 + 4 / 5 + 1) / 6)
    assert results["first_middle"]["pairwise_precision"] == pytest.approx(4 / 10)


def test_cluster_seeds_are_respected(tiny_s2and: dict[str, Path]) -> None:
    seeds = read_cluster_seeds(tiny_s2and["cluster_seeds"])
    assert seeds.same == {frozenset({"s1", "s3"})}
    assert seeds.distinct == {frozenset({"s4", "s5"})}
    result = evaluate_s2and(
        tiny_s2and["signatures"],
        tiny_s2and["clusters"],
        tiny_s2and["papers"],
        seeds_path=tiny_s2and["cluster_seeds"],
    )
    assert result["pairwise_recall"] == pytest.approx(3 / 4)  # the s4–s5 pair is forbidden
    assert result["pairwise_precision"] == pytest.approx(1.0)


def test_coauthors_come_from_papers(tiny_s2and: dict[str, Path]) -> None:
    from scholargraph.graph.identity.s2and import read_papers

    signatures = read_signatures(tiny_s2and["signatures"])
    mentions = to_mentions(signatures, read_papers(tiny_s2and["papers"]))
    first = next(m for m in mentions if m.mention_id == "s1")
    assert first.coauthors == frozenset({"m chen"})
    assert (first.position, first.n_authors, first.year) == (2, 2, 2012)


def test_malformed_input_is_a_bad_input(tmp_path: Path, tiny_s2and: dict[str, Path]) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"x": {"paper_id": 1}}), encoding="utf-8")
    with pytest.raises(BadInput, match="malformed"):
        read_signatures(broken)
    broken.write_text("[]", encoding="utf-8")
    with pytest.raises(BadInput, match="JSON object"):
        read_signatures(broken)
    with pytest.raises(BadInput, match="unknown method"):
        evaluate_s2and(tiny_s2and["signatures"], tiny_s2and["clusters"], method="magic")


@pytest.mark.shared
def test_qian_block_meets_the_quality_target() -> None:
    results = compare_s2and(S2AND / "qian" / "signatures.json", S2AND / "qian" / "clusters.json")
    model = results["model"]
    assert model["elements"] == 3071
    assert model["gold_clusters"] == 574
    assert model["b3_f1"] >= 0.80
    assert model["b3_precision"] >= 0.90
    assert results["block"]["b3_f1"] == pytest.approx(0.69, abs=0.02)
    assert results["first_middle"]["b3_f1"] == pytest.approx(0.72, abs=0.02)
    assert model["pairwise_f1"] > results["first_middle"]["pairwise_f1"]


@pytest.mark.shared
def test_dummy_example_runs_end_to_end() -> None:
    folder = S2AND / "dummy"
    result = evaluate_s2and(
        folder / "signatures.json",
        folder / "clusters.json",
        folder / "papers.json",
        seeds_path=folder / "cluster_seeds.json",
    )
    assert result["elements"] == 5
    assert result["gold_clusters"] == 3
    assert all(0.0 <= result[m] <= 1.0 for m in MEASURES)
    signatures = read_signatures(folder / "signatures.json")
    assert signatures["0"].first == "Dr A'bdul"
    assert to_mentions({"0": signatures["0"]})[0].name.first == "abdul"
