"""The hand-written OAI-PMH pages are what arXiv serves: their ``arXiv`` metadata is valid
against arXiv's own schema (``shared``: the XSD is in the recorded data), and their envelope
is read as OAI-PMH by the product's parser."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from lxml import etree

from scholargraph.graph.loaders.parse import parse_oai_page
from tests.sync.sources import DELETED, FIXTURES, TOKEN, fixture

PAGES = ("oai-cs-page1.xml", "oai-cs-page2.xml")
OAI = "{http://www.openarchives.org/OAI/2.0/}"


@pytest.mark.shared
@pytest.mark.parametrize("name", PAGES)
def test_the_metadata_of_each_record_is_valid_arxiv_format(shared_data: Path, name: str) -> None:
    xsd = shared_data / "arxiv" / "arxiv-oaipmh-testdb" / "schema" / "arXiv.xsd"
    schema = etree.XMLSchema(etree.parse(str(xsd)))
    root = etree.parse(str(FIXTURES / name)).getroot()
    payloads = [next(iter(m)) for m in root.iter(f"{OAI}metadata")]
    assert payloads
    for payload in payloads:
        assert schema.validate(payload), schema.error_log


def test_the_pages_read_as_one_list_with_a_deletion() -> None:
    first, second = (parse_oai_page(fixture(name)) for name in PAGES)
    assert (first.resumption_token, first.datestamp) == (TOKEN, date(2026, 11, 29))
    assert (second.resumption_token, second.datestamp) == (None, date(2026, 11, 30))
    assert second.deleted == (DELETED,)
    assert [p.arxiv_id for p in first.batch.papers + second.batch.papers] == [
        "2411.00001",
        "2411.00002",
        "2411.00003",
    ]
    answers = ("oai-norecordsmatch.xml", "oai-badresumptiontoken.xml")
    errors = [parse_oai_page(fixture(name)).error for name in answers]
    assert [e.code if e else None for e in errors] == ["noRecordsMatch", "badResumptionToken"]
