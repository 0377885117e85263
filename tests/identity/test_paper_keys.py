"""Paper identity rules, pure: which paper a record is, merges, renames, conflicts."""

from __future__ import annotations

from itertools import permutations

import pytest

from scholargraph.graph.identity.papers import (
    PaperPlan,
    StoredPaper,
    best_key,
    paper_ids,
    plan_papers,
)
from scholargraph.graph.loaders.parse.values import optional_arxiv_id, optional_doi
from scholargraph.graph.records import PaperRecord

PREPRINT = PaperRecord(
    "openalex", "LLaMA", arxiv_id="2302.13971", doi="10.48550/arxiv.2302.13971", openalex_id="W1"
)
JOURNAL = PaperRecord("openalex", "LLaMA", doi="10.1000/llama", openalex_id="W2", mag_id="42")
S2 = PaperRecord("s2", "LLaMA", arxiv_id="2302.13971", doi="10.1000/llama", s2_id="a" * 40)
ARXIV = PaperRecord("arxiv", "LLaMA", arxiv_id="2302.13971")


@pytest.mark.parametrize(
    "printed",
    [
        "2302.13971",
        "2302.13971v2",
        "arXiv:2302.13971v1",
        "https://arxiv.org/abs/2302.13971v3",
        "10.48550/arXiv.2302.13971",
    ],
)
def test_every_arxiv_id_form_is_one_id(printed: str) -> None:
    as_id = PaperRecord("s2", "T", arxiv_id=optional_arxiv_id(printed))
    as_doi = PaperRecord("s2", "T", doi=optional_doi(printed))
    found = {paper_ids(r)[0] for r in (as_id, as_doi) if paper_ids(r)}
    assert found == {"arxiv:2302.13971"}


def test_old_style_ids_and_dois_of_any_case() -> None:
    old = PaperRecord("arxiv", "T", arxiv_id=optional_arxiv_id("astro-ph/9901001v2"))
    assert paper_ids(old) == ("arxiv:astro-ph/9901001",)
    upper = PaperRecord("s2", "T", doi=optional_doi("https://doi.org/10.1093/MIND/LIX.236.433"))
    assert paper_ids(upper) == ("doi:10.1093/mind/lix.236.433",)
    everything = PaperRecord(
        "s2", "T", doi="10.1/x", s2_id="b" * 40, openalex_id="W9", mag_id="7", s2_corpus_id=3
    )
    assert paper_ids(everything) == (
        "doi:10.1/x",
        f"s2:{'b' * 40}",
        "openalex:W9",
        "mag:7",
        "corpus:3",
    )


def test_best_key_prefers_arxiv_then_the_first_doi() -> None:
    assert best_key(["openalex:W2", "doi:10.2/b", "doi:10.1/a"]) == "doi:10.1/a"
    assert best_key(["mag:1", "openalex:W2"]) == "openalex:W2"
    assert best_key(["doi:10.1/a", "arxiv:2302.13971"]) == "2302.13971"
    with pytest.raises(ValueError, match="at least one id"):
        best_key([])


def test_a_preprint_and_its_journal_version_in_one_batch_are_one_paper() -> None:
    plan = plan_papers([JOURNAL, PREPRINT, S2], {})
    assert {r.key for r in plan.records} == {"2302.13971"}
    assert set(plan.ids["2302.13971"]) == {
        "arxiv:2302.13971",
        "doi:10.1000/llama",
        "openalex:W1",
        "openalex:W2",
        f"s2:{'a' * 40}",
        "mag:42",
    }
    assert not plan.merges and not plan.renames and not plan.conflicts


def test_records_without_a_shared_id_stay_apart() -> None:
    plan = plan_papers([JOURNAL, PREPRINT], {})
    assert [r.key for r in plan.records] == ["doi:10.1000/llama", "2302.13971"]


def stored(*papers: tuple[str, tuple[str, ...]]) -> dict[str, StoredPaper]:
    found = {}
    for key, ids in papers:
        paper = StoredPaper(key, ids)
        found.update(dict.fromkeys(ids, paper))
    return found


def test_a_record_linking_two_papers_merges_them_into_the_arxiv_one() -> None:
    graph = stored(
        ("doi:10.1000/llama", ("doi:10.1000/llama", "openalex:W2")),
        ("2302.13971", ("arxiv:2302.13971", "openalex:W1")),
    )
    plan = plan_papers([S2], graph)
    [merge] = plan.merges
    assert (merge.survivor, merge.merged, merge.by) == (
        "2302.13971",
        "doi:10.1000/llama",
        "doi:10.1000/llama",
    )
    assert merge.ref == f"s2:{'a' * 40}" and "doi:10.1000/llama" in merge.reason
    assert plan.records[0].key == "2302.13971"
    assert not plan.renames


def test_a_paper_known_by_doi_is_renamed_to_the_arxiv_id_a_record_gives() -> None:
    graph = stored(("doi:10.1000/llama", ("doi:10.1000/llama", "openalex:W2")))
    plan = plan_papers([S2], graph)
    assert plan.renames == (("doi:10.1000/llama", "2302.13971"),)
    assert not plan.merges


def test_two_arxiv_ids_are_two_papers_whatever_links_them() -> None:
    graph = stored(("2302.13971", ("arxiv:2302.13971", "doi:10.1000/llama")))
    other = PaperRecord("s2", "Llama 2", arxiv_id="2307.09288", doi="10.1000/llama")
    plan = plan_papers([other], graph)
    assert plan.records[0].key == "2307.09288"
    assert not plan.merges
    [conflict] = plan.conflicts
    assert (conflict.id_key, conflict.held_by) == ("doi:10.1000/llama", "2302.13971")
    assert "two arXiv ids" in conflict.reason
    assert "doi:10.1000/llama" not in plan.ids["2307.09288"]


def test_papers_marked_distinct_are_not_merged_again() -> None:
    a = StoredPaper("2302.13971", ("arxiv:2302.13971",), distinct=("doi:10.1000/llama",))
    b = StoredPaper("doi:10.1000/llama", ("doi:10.1000/llama",), distinct=("2302.13971",))
    graph = {"arxiv:2302.13971": a, "doi:10.1000/llama": b}
    plan = plan_papers([S2], graph)
    assert not plan.merges
    assert plan.records[0].key == "2302.13971"
    assert [c.reason for c in plan.conflicts] == ["a curator marked the papers distinct"]


def apply(store: dict[str, set[str]], plan: PaperPlan) -> None:
    """What the graph does with a plan, in miniature: papers as sets of ids."""
    for merge in plan.merges:
        store[merge.survivor] |= store.pop(merge.merged)
    for old, new in plan.renames:
        store[new] = store.pop(old)
    for key, ids in plan.ids.items():
        store.setdefault(key, set()).update(ids)


def load(store: dict[str, set[str]], records: list[PaperRecord]) -> None:
    graph = {i: StoredPaper(key, tuple(sorted(ids))) for key, ids in store.items() for i in ids}
    apply(store, plan_papers(records, graph))


def test_any_load_order_gives_the_same_papers() -> None:
    other = PaperRecord("openalex", "Other", doi="10.1000/other", openalex_id="W3")
    records = [JOURNAL, PREPRINT, S2, ARXIV, other]
    results = []
    for order in permutations(records):
        one_by_one: dict[str, set[str]] = {}
        for record in order:
            load(one_by_one, [record])
        in_pairs: dict[str, set[str]] = {}
        load(in_pairs, list(order[:2]))
        load(in_pairs, list(order[2:]))
        assert one_by_one == in_pairs, order
        results.append(one_by_one)
    assert all(result == results[0] for result in results)
    assert set(results[0]) == {"2302.13971", "doi:10.1000/other"}


def test_a_record_whose_only_id_another_paper_holds_is_still_a_paper() -> None:
    # a paper that (wrongly) holds a second arXiv id: a record of that id stays apart
    graph = stored(("2302.13971", ("arxiv:2302.13971", "arxiv:2307.09288")))
    plan = plan_papers([PaperRecord("arxiv", "Llama 2", arxiv_id="2307.09288")], graph)
    assert plan.records[0].key == "2307.09288"
    assert plan.ids["2307.09288"] == ()
    assert [c.held_by for c in plan.conflicts] == ["2302.13971"]


def test_a_datacite_doi_of_another_arxiv_id_is_left_out() -> None:
    odd = PaperRecord("s2", "T", arxiv_id="2302.13971", doi="10.48550/arxiv.2307.09288")
    assert paper_ids(odd) == ("arxiv:2302.13971",)
