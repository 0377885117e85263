from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import networkx as nx
import pytest

from scholargraph.graph.analysis import (
    coauthor_graph_from_authorships,
    coauthor_graph_from_edges,
    ego,
)
from scholargraph.graph.errors import BadInput, NotFound


def random_authorships(seed: int, papers: int = 60, people: int = 25) -> list[dict[str, object]]:
    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    for p in range(papers):
        authors = rng.sample(range(1, people + 1), rng.choice([1, 2, 2, 3, 3, 4, 6]))
        year = rng.randint(2010, 2024)
        rows += [
            {"paper": f"p{p}", "year": year, "n_authors": len(authors), "researcher": r}
            for r in authors
        ]
    return rows


def papers_of(rows: list[dict[str, object]]) -> dict[object, tuple[object, set[object]]]:
    papers: dict[object, tuple[object, set[object]]] = {}
    for row in rows:
        papers.setdefault(row["paper"], (row["year"], set()))[1].add(row["researcher"])
    return papers


# --- from COAUTHOR edge rows -------------------------------------------------------------


def test_edge_rows_give_weighted_graph_with_renamed_node_attributes() -> None:
    graph = coauthor_graph_from_edges(
        [{"a": 1, "b": 2, "joint_papers": 4, "first_year": 2018, "last_year": 2023}],
        [
            {"id": 1, "name": "Shenggan Cheng", "slug": "1-shenggan-cheng", "paper_count": 9},
            {"id": 2, "name": "Yang You", "citation_count": 1200, "h_index": None},
            {"id": 3, "name": "Loner"},
        ],
    )
    assert sorted(graph.nodes) == [1, 2, 3]
    assert graph.nodes[1] == {"name": "Shenggan Cheng", "slug": "1-shenggan-cheng", "papers": 9}
    assert graph.nodes[2] == {"name": "Yang You", "citations": 1200}
    assert graph.edges[1, 2] == {
        "joint_papers": 4,
        "first_year": 2018,
        "last_year": 2023,
        "weight": 4,
    }
    assert graph.degree(3) == 0


def test_edge_rows_given_in_both_directions_are_not_counted_twice() -> None:
    row = {"a": 1, "b": 2, "joint_papers": 3, "first_year": 2019, "last_year": 2020}
    graph = coauthor_graph_from_edges([row, {**row, "a": 2, "b": 1}, {**row, "b": 1}])
    assert graph.number_of_edges() == 1
    assert graph.edges[1, 2]["joint_papers"] == 3


@pytest.mark.parametrize(
    ("window", "kept"),
    [
        ((2016, 2017), {(1, 2)}),
        ((2021, None), {(2, 3)}),
        ((None, 2014), set()),
        ((2019, 2019), {(1, 2), (2, 3)}),
    ],
)
def test_edge_year_window_keeps_edges_whose_span_overlaps(
    window: tuple[int | None, int | None], kept: set[tuple[int, int]]
) -> None:
    rows = [
        {"a": 1, "b": 2, "joint_papers": 2, "first_year": 2015, "last_year": 2019},
        {"a": 2, "b": 3, "joint_papers": 5, "first_year": 2019, "last_year": 2024},
        {"a": 3, "b": 4, "joint_papers": 1, "first_year": None, "last_year": None},
    ]
    graph = coauthor_graph_from_edges(rows, years=window)
    assert {tuple(sorted(e)) for e in graph.edges} == kept


def test_edge_min_weight_and_bad_rows() -> None:
    rows = [{"a": 1, "b": 2, "joint_papers": 1}, {"a": 2, "b": 3, "joint_papers": 2}]
    assert list(coauthor_graph_from_edges(rows, min_weight=2).edges) == [(2, 3)]
    with pytest.raises(BadInput, match="'b'"):
        coauthor_graph_from_edges([{"a": 1, "joint_papers": 1}])
    with pytest.raises(BadInput, match="'id'"):
        coauthor_graph_from_edges([], [{"name": "no id"}])


# --- from authorship rows -----------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_joint_papers_count_shared_papers(seed: int) -> None:
    rows = random_authorships(seed)
    graph = coauthor_graph_from_authorships(rows, max_authors=None)
    shared: Counter[tuple[object, object]] = Counter()
    for _, authors in papers_of(rows).values():
        shared.update(combinations(sorted(authors), 2))  # type: ignore[type-var]
    assert {tuple(sorted(e)): d["joint_papers"] for *e, d in graph.edges(data=True)} == dict(shared)
    assert all(d["weight"] == d["joint_papers"] for *_, d in graph.edges(data=True))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fractional_weights_give_each_author_one_per_multi_author_paper(seed: int) -> None:
    rows = random_authorships(seed)
    graph = coauthor_graph_from_authorships(rows, weighting="fractional", max_authors=None)
    multi = Counter(
        r for _, authors in papers_of(rows).values() if len(authors) > 1 for r in authors
    )
    for researcher, papers in multi.items():
        assert graph.degree(researcher, weight="weight") == pytest.approx(papers)


def test_fractional_uses_the_full_author_count() -> None:
    rows = [
        {"paper": "x", "year": 2020, "n_authors": 4, "researcher": 1},
        {"paper": "x", "year": 2020, "n_authors": 4, "researcher": 2},
    ]
    graph = coauthor_graph_from_authorships(rows, weighting="fractional")
    assert graph.edges[1, 2]["weight"] == pytest.approx(1 / 3)


def test_authorship_graph_agrees_with_edges_materialised_from_it() -> None:
    rows = random_authorships(7)
    papers = papers_of(rows)
    edge_rows = []
    for a, b in combinations(range(1, 26), 2):
        years = [y for y, authors in papers.values() if {a, b} <= authors]
        if years:
            edge_rows.append(
                {"a": a, "b": b, "joint_papers": len(years), "first_year": min(years),
                 "last_year": max(years)}
            )  # fmt: skip
    from_edges = coauthor_graph_from_edges(edge_rows)
    from_rows = coauthor_graph_from_authorships(rows, max_authors=None)
    assert nx.utils.edges_equal(from_edges.edges(data=True), from_rows.edges(data=True))


def test_year_window_counts_only_papers_inside_it() -> None:
    rows = random_authorships(4)
    graph = coauthor_graph_from_authorships(rows, years=(2015, 2018))
    inside = {k: v for k, v in papers_of(rows).items() if 2015 <= v[0] <= 2018}  # type: ignore[operator]
    counts = Counter(r for _, authors in inside.values() for r in authors)
    assert {n: d["papers"] for n, d in graph.nodes(data=True)} == dict(counts)
    for *_, d in graph.edges(data=True):
        assert 2015 <= d["first_year"] <= d["last_year"] <= 2018
    for _, d in graph.nodes(data=True):
        assert 2015 <= d["mean_year"] <= 2018


def test_papers_over_the_author_cap_add_no_edges_but_still_count() -> None:
    big = [{"paper": "atlas", "year": 2012, "n_authors": 3000, "researcher": r} for r in (1, 2, 3)]
    small = [{"paper": "duo", "year": 2013, "n_authors": 2, "researcher": r} for r in (1, 2)]
    graph = coauthor_graph_from_authorships(big + small, max_authors=100)
    assert list(graph.edges(data="joint_papers")) == [(1, 2, 1)]
    assert graph.nodes[3]["papers"] == 1
    assert graph.nodes[1] == {"papers": 2, "mean_year": 2012.5}
    uncapped = coauthor_graph_from_authorships(big + small, max_authors=None)
    assert uncapped.number_of_edges() == 3


def test_duplicate_author_slots_and_node_rows() -> None:
    rows = [
        {"paper": "x", "year": None, "n_authors": None, "researcher": 1},
        {"paper": "x", "year": None, "n_authors": None, "researcher": 1},
        {"paper": "x", "year": None, "n_authors": None, "researcher": 2},
    ]
    graph = coauthor_graph_from_authorships(
        rows, [{"id": 1, "name": "A", "paper_count": 50}], weighting="fractional"
    )
    assert graph.edges[1, 2] == {"joint_papers": 1, "weight": 1.0}
    assert graph.nodes[1] == {"name": "A", "papers": 1}
    assert coauthor_graph_from_authorships(rows, years=(2000, 2030)).number_of_nodes() == 0
    with pytest.raises(BadInput):
        coauthor_graph_from_authorships(rows, weighting="harmonic")  # type: ignore[arg-type]


def test_min_weight_drops_weak_edges() -> None:
    rows = random_authorships(5)
    full = coauthor_graph_from_authorships(rows)
    strong = coauthor_graph_from_authorships(rows, min_weight=2)
    assert set(strong.nodes) == set(full.nodes)
    assert {tuple(sorted(e)) for e in strong.edges} == {
        tuple(sorted((u, v))) for u, v, w in full.edges(data="weight") if w >= 2
    }


# --- ego networks -------------------------------------------------------------------------


def weighted_random_graph(seed: int) -> nx.Graph:
    graph = nx.gnm_random_graph(80, 200, seed=seed)
    rng = random.Random(seed)
    for u, v in graph.edges:
        graph.edges[u, v]["joint_papers"] = graph.edges[u, v]["weight"] = rng.randint(1, 6)
    return graph


@pytest.mark.parametrize(("seed", "max_nodes"), [(1, 10), (2, 25), (3, 60)])
def test_ego_keeps_a_connected_core_of_strongest_ties(seed: int, max_nodes: int) -> None:
    graph = weighted_random_graph(seed)
    around = ego(graph, 0, depth=3, max_nodes=max_nodes)
    assert len(around) <= max_nodes
    hops = nx.single_source_shortest_path_length(graph, 0, cutoff=3)
    for node, hop in around.nodes(data="hop"):
        assert hop == hops[node]
        if hop:
            assert any(around.nodes[n]["hop"] == hop - 1 for n in around[node])
    first_ring = sorted((graph.edges[0, n]["weight"] for n in graph[0]), reverse=True)
    kept_ring = sorted((around.edges[0, n]["weight"] for n in around[0]), reverse=True)
    assert kept_ring == first_ring[: len(kept_ring)]
    assert around.graph["truncated"] == (len(around) < len(hops))
    assert list(ego(graph, 0, depth=3, max_nodes=max_nodes).edges) == list(around.edges)


def test_ego_breaks_ties_by_id_and_filters_weak_edges() -> None:
    graph = nx.Graph()
    graph.add_edges_from((0, n, {"joint_papers": 1, "weight": 1}) for n in (5, 3, 9, 7))
    graph.add_edge(3, 9, joint_papers=1, weight=1)
    graph.add_edge(0, 4, joint_papers=3, weight=3)
    assert list(ego(graph, 0, max_nodes=3)) == [0, 4, 3]
    strong = ego(graph, 0, min_joint_papers=2)
    assert list(strong.edges) == [(0, 4)]
    assert strong.graph == {"center": 0, "truncated": False}
    assert list(ego(graph, 0, depth=0)) == [0]
    assert ego(graph, 0).has_edge(3, 9)


def test_ego_errors() -> None:
    graph = nx.path_graph(3)
    with pytest.raises(NotFound):
        ego(graph, 99)
    with pytest.raises(BadInput):
        ego(graph, 0, max_nodes=0)
    with pytest.raises(BadInput):
        ego(graph, 0, depth=-1)
