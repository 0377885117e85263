from __future__ import annotations

import pytest

from scholargraph.graph.errors import BadInput
from scholargraph.graph.ids import (
    arxiv_doi,
    arxiv_id_from_doi,
    normalize_arxiv_id,
    normalize_openalex,
    normalize_orcid,
    normalize_ror,
    orcid_checksum_ok,
    parse_arxiv_id,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2301.08658", ("2301.08658", None)),
        ("2301.08658v12", ("2301.08658", 12)),
        ("0704.0001", ("0704.0001", None)),
        ("arXiv:1501.00001v1", ("1501.00001", 1)),
        ("http://arxiv.org/abs/hep-th/9901001v3", ("hep-th/9901001", 3)),
        ("math.CO/9901016", ("math/9901016", None)),
        ("oai:arXiv.org:astro-ph/0601001", ("astro-ph/0601001", None)),
        ("10.48550/arXiv.2301.08658", ("2301.08658", None)),
        ("https://arxiv.org/pdf/2301.08658v2.pdf", ("2301.08658", 2)),
    ],
)
def test_every_arxiv_id_form(raw: str, expected: tuple[str, int | None]) -> None:
    assert parse_arxiv_id(raw) == expected


@pytest.mark.parametrize("raw", ["", "abc", "2301.8658", "12345.6789", "hep-th/99010"])
def test_bad_arxiv_ids_are_rejected_with_an_example(raw: str) -> None:
    with pytest.raises(BadInput, match=r"expected e\.g\."):
        normalize_arxiv_id(raw)


def test_arxiv_dois_round_trip() -> None:
    assert arxiv_doi("2301.08658v2") == "10.48550/arxiv.2301.08658"
    assert arxiv_id_from_doi("https://doi.org/10.48550/arXiv.astro-ph/9901001") == (
        "astro-ph/9901001"
    )
    assert arxiv_id_from_doi("10.1103/PhysRevD.1.1") is None


def test_orcid_checksum() -> None:
    assert orcid_checksum_ok("0000-0002-1694-233X")
    assert normalize_orcid("https://orcid.org/0000-0002-1825-0097") == "0000-0002-1825-0097"
    with pytest.raises(BadInput, match="checksum"):
        normalize_orcid("0000-0002-1825-0098")


def test_ror_and_openalex() -> None:
    assert normalize_ror("https://ror.org/03yrm5c26/") == "03yrm5c26"
    assert normalize_openalex("a5001226970") == "A5001226970"
    with pytest.raises(BadInput):
        normalize_ror("not-a-ror")
    with pytest.raises(BadInput):
        normalize_openalex("X12")
