from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from scholargraph.graph import ids, taxonomy
from scholargraph.graph.demo import names, text
from scholargraph.graph.demo.fields import FIELDS, category_in_year
from scholargraph.graph.demo.minting import (
    Mint,
    mix,
    orcid_check_character,
    ror_id_from_number,
    unit,
)
from scholargraph.graph.demo.sampling import Table

_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"


@pytest.mark.parametrize("ror_id", ["03yrm5c26", "00f54p054", "042nb2s44", "013meh722"])
def test_ror_checksum_matches_real_ror_ids(ror_id: str) -> None:
    number = 0
    for ch in ror_id[1:7]:
        number = number * 32 + _CROCKFORD.index(ch)
    assert ror_id_from_number(number) == ror_id


@pytest.mark.parametrize(
    ("orcid", "check"), [("0000-0002-1825-0097", "7"), ("0000-0002-1694-233X", "X")]
)
def test_orcid_check_character(orcid: str, check: str) -> None:
    assert orcid_check_character(orcid.replace("-", "")[:-1]) == check


def test_minted_ids_are_unique_and_valid() -> None:
    mint = Mint(Random(1))
    orcids = [mint.orcid() for _ in range(2000)]
    assert len(set(orcids)) == len(orcids)
    for orcid in orcids:
        assert ids.normalize_orcid(orcid) == orcid
        assert orcid.startswith(("0000-0001-", "0000-0002-", "0000-0003-", "0009-000"))
    rors = [mint.ror() for _ in range(2000)]
    assert len(set(rors)) == len(rors)
    assert all(ids.normalize_ror(ror) == ror for ror in rors)
    authors = [mint.openalex("A") for _ in range(500)]
    assert all(ids.normalize_openalex(a) == a and len(a) == 11 for a in authors)
    assert all(mint.s2_author().isdigit() for _ in range(100))


def test_mix_is_a_pure_function_of_its_inputs() -> None:
    assert mix(1, 2, 3) == mix(1, 2, 3)
    assert mix(1, 2, 3) != mix(1, 2, 4)
    draws = [unit(7, i) for i in range(10_000)]
    assert all(0.0 <= draw < 1.0 for draw in draws)
    assert 0.45 < sum(draws) / len(draws) < 0.55


def test_printed_variants_of_a_name() -> None:
    name = names.PersonName("Ming-Wei", "Chang")
    assert names.printed(name, names.FULL) == ("Ming-Wei", "Chang", "")
    assert names.printed(name, names.INITIALS) == ("M.-W.", "Chang", "")
    assert names.printed(name, names.JOINED) == ("Mingwei", "Chang", "")
    assert names.JOINED in names.applicable_variants(name)
    assert names.ASCII not in names.applicable_variants(name)

    accented = names.PersonName("Jürgen", "Schmidhuber", middle="A.")
    assert names.printed(accented, names.ASCII) == ("Jurgen A.", "Schmidhuber", "")
    assert names.printed(accented, names.NO_MIDDLE) == ("Jürgen", "Schmidhuber", "")
    assert names.printed(accented, names.INITIALS) == ("J. A.", "Schmidhuber", "")


def test_ascii_folding_and_alphabetical_keys() -> None:
    assert names.ascii_fold("Łukasz Wiśniewski") == "Lukasz Wisniewski"
    assert names.ascii_fold("Søren Åberg") == "Soren Aberg"
    assert names.ascii_fold("Yılmaz") == "Yilmaz"
    assert names.sort_key("van der Berg") == "berg"
    assert names.sort_key("Öberg") == "oberg"
    assert names.initials("Hans Peter") == "H. P."


@pytest.mark.parametrize(
    ("code", "year", "expected"),
    [
        ("math.AG", 1995, "alg-geom"),
        ("math.AG", 2001, "math.AG"),
        ("cs.CL", 1996, "cmp-lg"),
        ("nlin.CD", 1997, "chao-dyn"),
        ("math.QA", 1993, None),  # q-alg opened in late 1994
        ("astro-ph.CO", 2005, "astro-ph"),
        ("astro-ph.CO", 2012, "astro-ph.CO"),
        ("cond-mat.str-el", 1994, "cond-mat"),
        ("cond-mat.supr-con", 1993, "cond-mat"),
        ("cond-mat.supr-con", 1995, "supr-con"),
        ("econ.EM", 2010, None),
        ("eess.SP", 2019, "eess.SP"),
        ("hep-th", 1992, "hep-th"),
    ],
)
def test_category_in_year(code: str, year: int, expected: str | None) -> None:
    assert category_in_year(code, year) == expected


def test_every_field_uses_known_categories_and_can_always_publish() -> None:
    for field in FIELDS:
        for code, weight in (*field.primaries, *field.cross_lists):
            assert taxonomy.is_known(code), (field.key, code)
            assert weight > 0
        for year in range(field.first_year, 2026):
            available = [category_in_year(code, year) for code, _ in field.primaries]
            assert any(available), (field.key, year)
            assert all(code is None or taxonomy.is_known(code) for code in available)


def test_wrap_keeps_every_word_within_the_width() -> None:
    sentence = " ".join(f"word{i}" for i in range(60))
    wrapped = text.wrap(sentence, width=30, indent="  ")
    lines = wrapped.split("\n")
    assert len(lines) > 1
    assert all(len(line) <= 32 for line in lines)
    assert " ".join(wrapped.split()) == sentence


def test_titles_and_abstracts_exist_for_every_field() -> None:
    rng = Random(3)
    for field in FIELDS:
        assert text.title(rng, field.key)
        assert text.abstract(rng, field.key).endswith(".")


def test_table_draws_in_proportion_to_weights() -> None:
    table = Table((("a", 1.0), ("b", 3.0)))
    draws = Counter(table.picks(Random(4), 8000))
    assert 0.7 < draws["b"] / 8000 < 0.8
    assert table.picks(Random(4), 50) == table.picks(Random(4), 50)
