"""arXiv's metadata snapshot (``arxiv-metadata-oai-snapshot.json``, on Kaggle) → papers.

The snapshot is JSON Lines, one paper a line::

    {"id": "0704.0001", "submitter": "Pavel Nadolsky",
     "authors": "C. Bal\\\\'azs, E. L. Berger, P. M. Nadolsky, C.-P. Yuan",
     "title": "Calculation of prompt diphoton production cross sections at Tevatron and\\n  LHC
     energies", "comments": "37 pages, 15 figures", "journal-ref": "Phys.Rev.D76:013009,2007",
     "doi": "10.1103/PhysRevD.76.013009", "report-no": "ANL-HEP-PR-07-12",
     "categories": "hep-ph", "license": null, "abstract": "  A fully differential …",
     "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}, …],
     "update_date": "2008-11-13",
     "authors_parsed": [["Balázs", "C.", ""], …, ["Yuan", "C. -P.", ""]]}

Names come from ``authors_parsed``, arXiv's own split of the author string into
``[keyname, forenames, suffix, affiliation, …]``, printed "forenames keyname suffix" as
for OAI-PMH ``arXiv``. The author string (read as the ``.abs`` format reads it) is used
instead when that split is missing or does not agree with it: another number of authors
(arXiv's split keeps an "et al" as a name), an entry that is not a list of text or has no
key name, or a key name that is not part of the name the string gives at that place. A
line with no author string has its split taken as it is.

arXiv's split puts a space after every dot of the forenames ("J.R.R." → "J. R. R.",
"C.-P." → "C. -P."). The space before a hyphen is taken out again; the others stay, since
the snapshot cannot tell a "J.R.R." from a "J. R. R." typed so.

The snapshot has no version sizes and no withdrawal flag: a withdrawal is read from the
comments, as for OAI-PMH ``arXiv``. ``update_date`` (the metadata's last change),
``submitter``, ``report-no`` and ``license`` are not kept, as they are not from ``.abs``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.identity.names import normalize_part
from scholargraph.graph.loaders.parse.arxiv_fields import (
    authorship_from_parts,
    authorships_from_string,
    identity,
    split_categories,
    version_dates,
    version_number,
    withdrawn_by_comment,
)
from scholargraph.graph.loaders.parse.text import clean_title, parse_date
from scholargraph.graph.loaders.parse.values import (
    JsonObject,
    excerpt,
    get_list,
    objects,
    optional_doi,
    retrieved_or_today,
)
from scholargraph.graph.records import Authorship, Batch, PaperRecord, Rejection, Version

MARKER_KEYS = frozenset({"id", "authors_parsed"})  # a first line with both is the snapshot
_DOT_BEFORE_HYPHEN = re.compile(r"\.\s+-")


def _text(obj: JsonObject, key: str) -> str | None:
    value = obj.get(key)
    return value if isinstance(value, str) else None


def _versions(obj: JsonObject) -> tuple[Version, ...]:
    versions = [
        Version(number, parse_date(_text(entry, "created")))
        for entry in objects(get_list(obj, "versions"))
        if (number := version_number(_text(entry, "version"))) is not None
    ]
    return tuple(sorted(versions, key=lambda v: v.version))


def _parsed_authorships(
    entries: object, from_string: Sequence[Authorship], retrieved: date
) -> tuple[Authorship, ...] | None:
    """The authorships of ``authors_parsed``, or None when it does not agree with the
    authorships ``from_string`` of the author string (when there is one)."""
    if not isinstance(entries, list) or (from_string and len(entries) != len(from_string)):
        return None
    authorships: list[Authorship] = []
    for position, entry in enumerate(entries, start=1):
        if not _is_entry(entry):
            return None
        keyname, forenames, suffix, *affiliations = [*entry, "", ""][: max(3, len(entry))]
        forenames = _DOT_BEFORE_HYPHEN.sub(".-", forenames)
        found = authorship_from_parts(
            position, keyname, forenames, suffix, affiliations, retrieved=retrieved
        )
        key = normalize_part(found.keyname or "") if found is not None else ""
        printed = normalize_part(from_string[position - 1].raw_name) if from_string else key
        if found is None or not key or key not in printed:
            return None
        authorships.append(found)
    return tuple(authorships)


def _is_entry(entry: Any) -> bool:
    return isinstance(entry, list) and bool(entry) and all(isinstance(p, str) for p in entry)


def parse_snapshot_record(obj: JsonObject, *, retrieved: date | None = None) -> PaperRecord:
    """One line of the snapshot. Raises :class:`RecordRejected` when it is not usable."""
    raw_id = obj.get("id")
    if raw_id is not None and not isinstance(raw_id, str):
        raise RecordRejected(f"the id {raw_id!r} is not text", source="arxiv", ref=str(raw_id))
    arxiv_id, title = identity(raw_id, _text(obj, "title"), missing="no id")
    when = retrieved_or_today(retrieved)
    from_string, et_al = authorships_from_string(_text(obj, "authors") or "", retrieved=when)
    parsed = _parsed_authorships(obj.get("authors_parsed"), from_string, when)
    authorships = parsed if parsed is not None else from_string
    if not authorships:
        raise RecordRejected("no authors", source="arxiv", ref=arxiv_id)
    versions = _versions(obj)
    published, updated, year = version_dates(versions)
    primary, categories = split_categories(_text(obj, "categories"))
    comments = clean_title(_text(obj, "comments"), tex=True)
    return PaperRecord(
        source="arxiv",
        title=title,
        arxiv_id=arxiv_id,
        doi=optional_doi(obj.get("doi")),
        abstract=clean_title(_text(obj, "abstract"), tex=True),
        published=published,
        updated=updated,
        year=year,
        versions=versions,
        primary_category=primary,
        categories=categories,
        journal_ref=clean_title(_text(obj, "journal-ref"), tex=True),
        comments=comments,
        withdrawn=withdrawn_by_comment(comments),
        authorships=authorships,
        authors_truncated=et_al,
        retrieved=when,
    )


def parse_snapshot_line(obj: JsonObject, *, retrieved: date | None = None) -> Batch:
    """One line of the snapshot as a batch: its paper, or its rejection with the reason."""
    try:
        return Batch(papers=[parse_snapshot_record(obj, retrieved=retrieved)])
    except RecordRejected as exc:
        return Batch(rejected=[Rejection("arxiv", exc.ref, exc.reason, excerpt(obj))])
