"""Pure parsers: raw source payloads → :mod:`graph.records` values.

No I/O happens here except in :mod:`~graph.loaders.parse.files` (and the modules it reads
with: :mod:`~graph.loaders.parse.raw`, ``json_files``, ``files_xml``), which reads bulk
files from disk, setting aside only what damage touches. Functions that read one record
raise :class:`~graph.errors.RecordRejected` when it is unusable; functions that read a page
or a file return a :class:`~graph.records.Batch` whose ``rejected`` list says what was set
aside and why, so one bad record never costs the rest.
"""

from scholargraph.graph.loaders.parse.arxiv_abs import parse_abs, parse_abs_file
from scholargraph.graph.loaders.parse.arxiv_atom import AtomPage, parse_atom_feed
from scholargraph.graph.loaders.parse.arxiv_oai import OaiError, OaiPage, parse_oai_page
from scholargraph.graph.loaders.parse.arxiv_snapshot import (
    parse_snapshot_line,
    parse_snapshot_record,
)
from scholargraph.graph.loaders.parse.authors import AuthorList, ParsedAuthor, split_authors
from scholargraph.graph.loaders.parse.files import (
    BULK_FORMATS,
    SOURCE_FORMATS,
    BulkFormat,
    SkippedFile,
    detect_format,
    iter_bulk_files,
    sniff_format,
)
from scholargraph.graph.loaders.parse.openalex import (
    OpenAlexPage,
    parse_openalex_author,
    parse_openalex_entity,
    parse_openalex_institution,
    parse_openalex_payload,
    parse_openalex_work,
)
from scholargraph.graph.loaders.parse.orcid import (
    OrcidWorkIds,
    orcid_payload,
    orcid_work_ids,
    parse_orcid_employments,
    parse_orcid_person,
    parse_orcid_record,
)
from scholargraph.graph.loaders.parse.ror import (
    chosen_organization,
    parse_ror_payload,
    parse_ror_record,
)
from scholargraph.graph.loaders.parse.s2 import (
    S2Page,
    parse_s2_author,
    parse_s2_dataset_line,
    parse_s2_paper,
    parse_s2_payload,
    parse_s2orc_metadata,
)
from scholargraph.graph.loaders.parse.text import (
    clean_name,
    clean_title,
    decode_tex,
    normalize_text,
    parse_date,
)

__all__ = [
    "BULK_FORMATS",
    "SOURCE_FORMATS",
    "AtomPage",
    "AuthorList",
    "BulkFormat",
    "OaiError",
    "OaiPage",
    "OpenAlexPage",
    "OrcidWorkIds",
    "ParsedAuthor",
    "S2Page",
    "SkippedFile",
    "chosen_organization",
    "clean_name",
    "clean_title",
    "decode_tex",
    "detect_format",
    "iter_bulk_files",
    "normalize_text",
    "orcid_payload",
    "orcid_work_ids",
    "parse_abs",
    "parse_abs_file",
    "parse_atom_feed",
    "parse_date",
    "parse_oai_page",
    "parse_openalex_author",
    "parse_openalex_entity",
    "parse_openalex_institution",
    "parse_openalex_payload",
    "parse_openalex_work",
    "parse_orcid_employments",
    "parse_orcid_person",
    "parse_orcid_record",
    "parse_ror_payload",
    "parse_ror_record",
    "parse_s2_author",
    "parse_s2_dataset_line",
    "parse_s2_paper",
    "parse_s2_payload",
    "parse_s2orc_metadata",
    "parse_snapshot_line",
    "parse_snapshot_record",
    "sniff_format",
    "split_authors",
]
