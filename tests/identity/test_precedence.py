"""The per-field source precedence: each field's winner, in any order of the records."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from scholargraph.graph.identity.precedence import (
    RULES,
    SOURCE_ORDER,
    Candidate,
    Choice,
    choose,
    format_ranks,
    merge_records,
    parse_ranks,
    record_ref,
    stored_candidates,
)
from scholargraph.graph.loaders.rows import category_rows, paper_props
from scholargraph.graph.records import AuthorRecord, Authorship, PaperRecord, Version

CAP = 100


def authors(*names: str, source: str = "arxiv") -> tuple[Authorship, ...]:
    return tuple(
        Authorship(i, n, AuthorRecord(n, source))  # type: ignore[arg-type]
        for i, n in enumerate(names, start=1)
    )


ARXIV = PaperRecord(
    "arxiv",
    "LLaMA: Open and Efficient Foundation Language Models",
    arxiv_id="2302.13971",
    doi="10.48550/arxiv.2302.13971",
    abstract="We introduce LLaMA, a collection of foundation language models.",
    published=date(2023, 2, 27),
    updated=date(2023, 2, 27),
    year=2023,
    versions=(Version(1, date(2023, 2, 27)),),
    primary_category="cs.CL",
    categories=("cs.CL", "cs.LG"),
    comments="work in progress",
    authorships=authors("Hugo Touvron", "Thibaut Lavril", "Gautier Izacard"),
    retrieved=date(2026, 1, 10),
)
S2 = PaperRecord(
    "s2",
    "LLaMA: Open and efficient foundation language models",
    arxiv_id="2302.13971",
    doi="10.48550/arxiv.2302.13971",
    s2_id="57e849d0de13ed5f91d086936296721d4ff75a75",
    s2_corpus_id=257219404,
    mag_id="4322718191",
    abstract=None,
    year=2023,
    citation_count=9000,
    authorships=authors("Hugo Touvron", "Thibaut Lavril", "Gautier Izacard", source="s2"),
    retrieved=date(2026, 3, 1),
)
OPENALEX = PaperRecord(
    "openalex",
    "LLaMA: Open and Efficient Foundation Language Models",
    arxiv_id="2302.13971",
    doi="10.1000/llama.journal",
    openalex_id="W4322718191",
    mag_id="4322718191",
    abstract="We introduce LLaMA a collection of foundation language models",
    published=date(2023, 2, 27),
    year=2023,
    citation_count=8500,
    authorships=authors(
        "Hugo Touvron", "Thibaut Lavril", "Gautier Izacard", "Xavier Martinet", source="openalex"
    ),
    authors_truncated=True,
    retrieved=date(2025, 11, 6),
)
RECORDS = (ARXIV, S2, OPENALEX)


def item(record: PaperRecord) -> tuple[PaperRecord, dict[str, Any], list[Any]]:
    return record, paper_props(record, CAP), list(category_rows(record))


def merged(*records: PaperRecord) -> Choice:
    return merge_records({}, [item(r) for r in records])


def one_at_a_time(*records: PaperRecord) -> tuple[dict[str, Any], dict[str, str]]:
    """Write records one by one as loads do: stored ranks in, the winners' props kept."""
    props: dict[str, Any] = {}
    ranks: dict[str, str] = {}
    for record in records:
        choice = merge_records(ranks, [item(record)])
        props.update(choice.props)
        ranks = choice.ranks
    return props, ranks


def test_every_field_has_a_source_order_and_a_rule() -> None:
    assert RULES.keys() == SOURCE_ORDER.keys()
    assert all(rule.props and rule.prefers for rule in RULES.values())


@pytest.mark.parametrize(
    ("prop", "expected"),
    [
        ("title", ARXIV.title),  # arXiv's, though S2 was retrieved later
        ("abstract", ARXIV.abstract),
        ("arxiv_id", "2302.13971"),
        ("doi", "10.1000/llama.journal"),  # the publisher's, not arXiv's DataCite DOI
        ("s2_id", S2.s2_id),
        ("s2_corpus_id", 257219404),
        ("openalex_id", "W4322718191"),
        ("mag_id", "4322718191"),
        ("published", date(2023, 2, 27)),
        ("year", 2023),
        ("updated", date(2023, 2, 27)),
        ("versions", 1),
        ("primary_category", "cs.CL"),
        ("comments", "work in progress"),
        ("withdrawn", False),
        ("citation_count", 9000),  # the largest count, with its source
        ("citation_source", "s2"),
        ("n_authors", 3),  # arXiv owns the author order
        ("authors_truncated", False),
    ],
)
def test_each_field_takes_its_preferred_source_in_any_order(prop: str, expected: Any) -> None:
    for order in permutations(RECORDS):
        assert merged(*order).props[prop] == expected, order
        assert one_at_a_time(*order)[0][prop] == expected, order


def test_the_result_is_the_same_one_record_at_a_time_in_any_order() -> None:
    results = [one_at_a_time(*order) for order in permutations(RECORDS)]
    assert all(result == results[0] for result in results)
    assert results[0][0] == {k: v for k, v in merged(*RECORDS).props.items() if k in results[0][0]}


def test_categories_come_from_arxiv_and_only_when_they_win() -> None:
    assert merged(S2, OPENALEX).categories is None
    assert [c["code"] for c in merged(OPENALEX, ARXIV).categories or []] == ["cs.CL", "cs.LG"]
    stored = merged(ARXIV).ranks
    assert merge_records(stored, [item(S2)]).categories is None


def test_a_field_no_source_gives_is_left_alone() -> None:
    choice = merged(S2)
    assert "abstract" not in choice.props  # S2 sent none: a later OpenAlex abstract lands
    later = merge_records(choice.ranks, [item(OPENALEX)])
    assert later.props["abstract"] == OPENALEX.abstract


def test_an_empty_title_is_no_candidate() -> None:
    untitled = replace(OPENALEX, title="")
    assert "title" not in merged(untitled).props
    assert merged(untitled, S2).props["title"] == S2.title


def test_within_a_source_the_newer_retrieval_wins() -> None:
    newer = replace(ARXIV, title="LLaMA (v2)", retrieved=date(2026, 6, 1))
    assert merged(ARXIV, newer).props["title"] == "LLaMA (v2)"
    assert merged(newer, ARXIV).props["title"] == "LLaMA (v2)"


def test_the_earliest_date_when_arxiv_gives_none() -> None:
    journal = replace(OPENALEX, published=date(2024, 5, 1), year=2024)
    preprint = replace(OPENALEX, published=date(2023, 2, 27), openalex_id="W1", doi=None)
    for order in permutations([journal, preprint]):
        assert merged(*order).props["published"] == date(2023, 2, 27)
        assert merged(*order).props["year"] == 2023
    with_arxiv = replace(ARXIV, published=date(2023, 3, 1))
    assert merged(preprint, with_arxiv).props["published"] == date(2023, 3, 1)


def test_two_works_of_one_source_the_journal_one_gives_the_openalex_id() -> None:
    preprint = replace(OPENALEX, openalex_id="W1", doi="10.48550/arxiv.2302.13971")
    journal = replace(OPENALEX, openalex_id="W2", doi="10.1000/llama.journal")
    for order in permutations([preprint, journal]):
        assert merged(*order).props["openalex_id"] == "W2"
        assert merged(*order).props["doi"] == "10.1000/llama.journal"


def test_stored_winners_compete_as_candidates_when_two_papers_merge() -> None:
    a, b = merged(ARXIV), merged(OPENALEX, S2)
    choice = choose(a.ranks, stored_candidates(b.props, b.ranks, []))
    assert choice.props["citation_count"] == 9000
    assert choice.props["doi"] == "10.1000/llama.journal"
    assert "title" not in choice.props  # arXiv's title stays
    assert set(choice.ranks) == set(a.ranks) | set(b.ranks)
    assert choose(a.ranks, stored_candidates(b.props, b.ranks, [])) == choice


def test_ranks_round_trip_through_their_stored_form() -> None:
    ranks = merged(*RECORDS).ranks
    assert parse_ranks(format_ranks(ranks)) == ranks
    assert parse_ranks(None) == {}


def test_record_refs_tell_one_sources_records_apart() -> None:
    assert record_ref(OPENALEX) == "openalex:W4322718191"
    assert record_ref(S2) == f"s2:{S2.s2_id}"
    assert record_ref(replace(S2, s2_id=None)) == "s2:corpus257219404"
    assert record_ref(ARXIV) == "arxiv:2302.13971"


def test_an_equal_rank_is_the_same_record_written_again() -> None:
    rank = "3|2026-01-01|arxiv:1"
    choice = choose({"title": rank}, [Candidate("title", {"title": "Fixed typo"}, rank)])
    assert choice.props == {"title": "Fixed typo"}


def test_the_docs_table_is_the_rules() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "identity.md").read_text()
    rows = {
        cells[0].strip("` "): cells
        for line in text.splitlines()
        if line.startswith("| `")
        and len(cells := [c.strip() for c in line.strip("|").split("|")]) == 4
    }
    for name, rule in RULES.items():
        _, props, sources, prefers = rows[name]
        assert props == ", ".join(f"`{p}`" for p in rule.props), name
        assert sources == ", ".join(SOURCE_ORDER[name]), name
        assert prefers == rule.prefers, name
