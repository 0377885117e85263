"""The index: what it keeps of a ROR record, and the look-ups built from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from scholargraph.graph.errors import BadInput
from scholargraph.graph.institutions import (
    AffiliationIndex,
    IndexedInstitution,
    build_index,
    index_from_files,
)
from scholargraph.graph.institutions.index import variants
from scholargraph.graph.institutions.normalise import name_key
from scholargraph.graph.loaders.parse.ror import parse_ror_record
from tests.institutions import records as r


def test_a_record_keeps_what_the_graph_stores() -> None:
    record = parse_ror_record(r.RECORDS[0])
    kept = IndexedInstitution.of_record(record)
    assert kept == IndexedInstitution(
        ror_id=r.TOKYO,
        name="University of Tokyo",
        aliases=("東京大学", "Todai"),  # labels then aliases, in one list
        acronyms=("UTokyo",),
        country_code="JP",
        city="Tokyo",
        status="active",
        types=("education",),
        parents=(),
    )


def test_names_acronyms_children_and_withdrawn(index: AffiliationIndex) -> None:
    assert len(index) == len(r.RECORDS)
    assert {e.ror_id for e in index.by_key[name_key("Institute of Physics")]} == {
        r.PHYSICS_BEIJING,
        r.PHYSICS_WARSAW,
    }
    assert index.by_acronym["PA"] == (r.PHENOMICS,)
    assert index.children[r.CAS] == (r.PHYSICS_BEIJING,)
    assert index.ancestors(r.TEXAS_AUSTIN) == {r.TEXAS_SYSTEM}
    assert index.related(r.TEXAS_SYSTEM, r.TEXAS_AUSTIN)
    assert not index.related(r.CAS, r.TEXAS_AUSTIN)
    assert name_key("Withdrawn Institute of Testing") not in index.by_key
    # a company's name without the country ROR adds to it
    assert [e.value for e in index.by_key["shell"]] == ["Shell"]


def test_the_display_name_is_the_entry_of_a_key(index: AffiliationIndex) -> None:
    entry, *others = index.by_key[name_key("University of Texas")]
    assert (entry.ror_id, entry.kind) == (r.TEXAS_SYSTEM, "alias")
    # "The University of Texas at Austin" without its city, after the names
    assert [(e.ror_id, e.kind) for e in others] == [(r.TEXAS_AUSTIN, "citiless")]
    (entry,) = index.by_key[name_key("Leipzig University")]
    assert entry.kind == "name"


def test_variants_move_university_and_never_shadow_a_real_name(
    index: AffiliationIndex,
) -> None:
    assert variants("university _ leipzig") == {"leipzig university"}
    assert variants("polytechnic university _ marche") == {"marche polytechnic university"}
    assert variants("leipzig university") == {"university _ leipzig"}
    # "Washington University" is the reordered University of Washington only where no
    # institution has that name; WashU's name is longer, and this is it without its city
    assert {(e.ror_id, e.kind) for e in index.by_key["washington university"]} == {
        (r.UW, "reordered"),
        (r.WASHU, "citiless"),
    }
    assert index.by_key["university _ washington"][0].ror_id == r.UW


def test_family_names_count_the_institutions_they_begin() -> None:
    many = build_index(
        IndexedInstitution(f"0iit{n}aa{n}{n}", f"Indian Institute of Technology {city}")
        for n, city in enumerate(("Delhi", "Madras", "Bombay"))
    )
    family = name_key("Indian Institute of Technology")
    assert family not in many.family_sizes  # no institution is named only that
    with_alias = build_index(
        [
            *many.institutions.values(),
            IndexedInstitution("0iit9bh99", "IIT BHU", aliases=("Indian Institute of Technology",)),
        ]
    )
    assert with_alias.family_sizes[family] == 3


def test_indexes_are_equal_when_they_hold_the_same_institutions(
    index: AffiliationIndex, tmp_path: Path
) -> None:
    again = index_from_files([r.write_records(tmp_path / "again")])
    assert again == index
    assert build_index(list(index.institutions.values())[1:]) != index


def test_files_without_records_are_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing here\n")
    with pytest.raises(BadInput, match="no ROR records"):
        index_from_files([tmp_path])
