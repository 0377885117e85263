"""Semantic Scholar Graph API objects and dataset lines → papers and authors.

Read here:

* paper objects (``/paper/{id}``, ``POST /paper/batch``, search pages, ``/author/{id}/papers``,
  citations/references pages whose items wrap the paper in ``citingPaper``/``citedPaper``);
* author objects (``/author/{id}``, ``POST /author/batch``, ``/paper/{id}/authors``);
* Datasets API lines: ``papers`` and ``authors`` (the same fields with lower-cased keys) and
  S2ORC metadata (``paper_id`` is the CorpusId, authors split into first/middle/last).

Papers a response embeds (an author's ``papers``, a paper's ``citations`` and
``references``) are parsed too. A paper author whose ``authorId`` is null is kept, by
name only. A batch response answers
``null`` for an id it does not know; that becomes a rejection naming the position.

A person's name is the "First Last" form of the printed one (S2 prints some people in Latin
and Greek letters at once, comma-separated; the other script becomes an alternative name);
the authorship keeps the name as printed. S2ORC splits PubMed-style names such as
``Cline WB`` into ``first: Cline, last: Wb``; a record whose every author looks so is read
as surnames followed by initials (``W. B. Cline``). A paper without a title keeps its
authorships and ids, titled ``""``, when it has authors; without either it is rejected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.identity.name_forms import display_name
from scholargraph.graph.identity.names import script_forms
from scholargraph.graph.loaders.parse.text import clean_name, clean_title, parse_date, parse_year
from scholargraph.graph.loaders.parse.values import (
    JsonObject,
    excerpt,
    get_int,
    get_list,
    get_str,
    objects,
    optional_arxiv_id,
    optional_doi,
    optional_mag,
    optional_orcid,
    retrieved_or_today,
    strings,
)
from scholargraph.graph.records import (
    AuthorRecord,
    Authorship,
    Batch,
    InstitutionRef,
    PaperRecord,
    Rejection,
)

_PAPER_SHA = re.compile(r"^[0-9a-f]{40}$")
_PAPER_URL = re.compile(r"semanticscholar\.org/paper/(?:[^/]+/)?([0-9a-f]{40})")
_WRAPPERS = ("citingPaper", "citedPaper")
_EMBEDDED_PAPERS = ("citations", "references")


@dataclass(frozen=True, slots=True)
class S2Page:
    batch: Batch
    total: int | None = None
    offset: int | None = None
    next_offset: int | None = None  # offset paging (search, /papers, /authors)
    token: str | None = None  # continuation token paging (bulk search)


def _field(obj: JsonObject, key: str) -> Any:
    """An API field, or the same field of a Datasets line (keys lower-cased there)."""
    return obj[key] if key in obj else obj.get(key.lower())


def _str(obj: JsonObject, key: str) -> str | None:
    return get_str({key: _field(obj, key)}, key)


def _int(obj: JsonObject, key: str) -> int | None:
    return get_int({key: _field(obj, key)}, key)


def _external_ids(obj: JsonObject) -> JsonObject:
    value = _field(obj, "externalIds")
    return value if isinstance(value, Mapping) else {}


def _as_strings(value: object) -> list[str]:
    return strings(value if isinstance(value, list) else [value])


def parse_s2_author(obj: JsonObject, *, retrieved: date | None = None) -> AuthorRecord:
    """An author object (profile or paper author). Raises :class:`RecordRejected` without a name."""
    when = retrieved_or_today(retrieved)
    author_id = _str(obj, "authorId")
    printed = clean_name(_str(obj, "name"))
    if printed is None:
        raise RecordRejected("author without a name", source="s2", ref=author_id or "")
    name = display_name(printed)
    latin, other_scripts = script_forms(printed)
    external = _external_ids(obj)
    orcids = [o for raw in _as_strings(external.get("ORCID")) if (o := optional_orcid(raw))]
    aliases = [*other_scripts, *([latin] if latin != name else [])]
    aliases += [a for raw in _as_strings(_field(obj, "aliases")) if (a := clean_name(raw))]
    affiliations = [a for raw in _as_strings(_field(obj, "affiliations")) if (a := clean_name(raw))]
    return AuthorRecord(
        name=name,
        source="s2",
        s2_ids=(author_id,) if author_id else (),
        orcid=orcids[0] if orcids else None,
        dblp=tuple(_as_strings(external.get("DBLP"))),
        alt_names=tuple(dict.fromkeys(a for a in aliases if a != name)),
        h_index=_int(obj, "hIndex"),
        paper_count=_int(obj, "paperCount"),
        citation_count=_int(obj, "citationCount"),
        affiliations=tuple(InstitutionRef(name=a) for a in dict.fromkeys(affiliations)),
        retrieved=when,
    )


def _paper_sha(obj: JsonObject) -> str | None:
    paper_id = _str(obj, "paperId")
    if paper_id and _PAPER_SHA.match(paper_id):
        return paper_id
    match = _PAPER_URL.search(_str(obj, "url") or "")
    return match.group(1) if match else None


def _authorships(obj: JsonObject, retrieved: date) -> tuple[Authorship, ...]:
    authorships = []
    for position, author in enumerate(get_list(obj, "authors"), start=1):
        if not isinstance(author, Mapping):
            continue
        try:
            record = parse_s2_author(author, retrieved=retrieved)
        except RecordRejected:
            continue  # a nameless slot; the others keep their printed positions
        printed = clean_name(_str(author, "name")) or record.name
        authorships.append(Authorship(position=position, raw_name=printed, author=record))
    return tuple(authorships)


def parse_s2_paper(obj: JsonObject, *, retrieved: date | None = None) -> PaperRecord:
    """A paper object or ``papers`` dataset line. Raises :class:`RecordRejected` if unusable."""
    when = retrieved_or_today(retrieved)
    external = _external_ids(obj)
    sha = _paper_sha(obj)
    corpus_id = _int(obj, "corpusId") or get_int(external, "CorpusId")
    ref = sha or (f"CorpusId:{corpus_id}" if corpus_id else "")
    title = clean_title(_str(obj, "title"))
    authorships = _authorships(obj, when)
    if title is None and not authorships:
        raise RecordRejected("no title", source="s2", ref=ref)
    arxiv_id = optional_arxiv_id(external.get("ArXiv"))
    doi = optional_doi(external.get("DOI"))
    if not (sha or arxiv_id or doi):
        reason = "no paperId, DOI or arXiv id to key the paper by"
        raise RecordRejected(reason, source="s2", ref=ref)
    published = parse_date(_str(obj, "publicationDate"))
    return PaperRecord(
        source="s2",
        title=title or "",
        arxiv_id=arxiv_id,
        doi=doi,
        s2_id=sha,
        s2_corpus_id=corpus_id,
        mag_id=optional_mag(external.get("MAG")),
        abstract=clean_title(_str(obj, "abstract")),
        published=published,
        year=parse_year(_field(obj, "year")) or (published.year if published else None),
        citation_count=_int(obj, "citationCount"),
        authorships=authorships,
        retrieved=when,
    )


def parse_s2orc_metadata(obj: JsonObject, *, retrieved: date | None = None) -> PaperRecord:
    """An S2ORC metadata line (``paper_id`` is the CorpusId; no paper sha)."""
    when = retrieved_or_today(retrieved)
    corpus_id = get_int(obj, "paper_id")
    ref = f"CorpusId:{corpus_id}" if corpus_id else ""
    title = clean_title(get_str(obj, "title"))
    if title is None:
        raise RecordRejected("no title", source="s2", ref=ref)
    arxiv_id = optional_arxiv_id(obj.get("arxiv_id"))
    doi = optional_doi(obj.get("doi"))
    if not (arxiv_id or doi):
        raise RecordRejected("no DOI or arXiv id to key the paper by", source="s2", ref=ref)
    authors = objects(get_list(obj, "authors"))
    initials_last = _initials_last(authors)
    authorships = []
    for position, author in enumerate(authors, start=1):
        name = _s2orc_name(author, initials_last=initials_last)
        if name:
            record = AuthorRecord(name=display_name(name), source="s2", retrieved=when)
            authorships.append(Authorship(position=position, raw_name=name, author=record))
    return PaperRecord(
        source="s2",
        title=title,
        arxiv_id=arxiv_id,
        doi=doi,
        s2_corpus_id=corpus_id,
        mag_id=optional_mag(obj.get("mag_id")),
        abstract=clean_title(get_str(obj, "abstract")),
        year=parse_year(obj.get("year")),
        authorships=tuple(authorships),
        retrieved=when,
    )


# The initials S2ORC leaves in ``last`` for a PubMed-style name: "Wb", "IaM", "LIu" (the
# Russian transliterations Ia, Iu, Ie, Io stand for one letter each).
_INITIALS = re.compile(r"^(?:I[aeou](?=[A-Z]|$)|[A-Z]|[a-z])+$")
_INITIAL = re.compile(r"I[aeou](?=[A-Z]|$)|[A-Za-z]")
_VOWELS = frozenset("aeiouy")
_CONSONANT_SURNAMES = frozenset({"ng", "lv"})


def _initials_last(authors: list[JsonObject]) -> bool:
    """Whether S2ORC put every author's surname in ``first`` (and ``middle``, for a double
    surname) and initials in ``last``: every ``last`` is one to three letters, and one at
    least can be no surname: a capital inside (``IaM``) or two consonants (``Sv``; not
    ``Ng`` or ``Lv``)."""
    pairs = [(get_str(a, "first") or "", get_str(a, "last") or "") for a in authors]
    if not pairs or any(len(first) < 3 or not 1 <= len(last) <= 3 for first, last in pairs):
        return False
    return all(_INITIALS.match(last) for _, last in pairs) and any(
        _only_initials(last) for _, last in pairs
    )


def _only_initials(text: str) -> bool:
    if any(ch.isupper() for ch in text[1:]):
        return True
    low = text.lower()
    return len(low) == 2 and not (_VOWELS & set(low)) and low not in _CONSONANT_SURNAMES


def _s2orc_name(author: JsonObject, *, initials_last: bool) -> str | None:
    first, last = get_str(author, "first"), get_str(author, "last")
    middle = strings(get_list(author, "middle"))
    if initials_last and first and last:
        initials = " ".join(f"{i.capitalize()}." for i in _INITIAL.findall(last))
        return clean_name(" ".join([initials, first, *middle]))
    parts = [first, *middle, last, get_str(author, "suffix")]
    return clean_name(" ".join(p for p in parts if p))


def _reject(batch: Batch, exc: RecordRejected, raw: object, ref: str = "") -> None:
    batch.rejected.append(Rejection("s2", exc.ref or ref, exc.reason, excerpt(raw)))


def _add_object(batch: Batch, obj: JsonObject, when: date, ref: str) -> None:
    """Add a paper or author object (and the papers an author object embeds)."""
    for wrapper in _WRAPPERS:
        if isinstance(obj.get(wrapper), Mapping):
            obj = obj[wrapper]
    try:
        if "paperId" in obj or "corpusid" in obj or "corpusId" in obj:
            batch.papers.append(parse_s2_paper(obj, retrieved=when))
            for key in _EMBEDDED_PAPERS:
                for paper in objects(get_list(obj, key)):
                    _add_object(batch, paper, when, ref)
        elif "authorId" in obj or "authorid" in obj:
            batch.authors.append(parse_s2_author(obj, retrieved=when))
            for paper in objects(get_list(obj, "papers")):
                _add_object(batch, paper, when, ref)
        elif "paper_id" in obj:
            batch.papers.append(parse_s2orc_metadata(obj, retrieved=when))
        else:
            raise RecordRejected("neither a paper nor an author object", source="s2", ref=ref)
    except RecordRejected as exc:
        _reject(batch, exc, obj, ref)


def parse_s2_payload(payload: object, *, retrieved: date | None = None) -> S2Page:
    """Any Graph API response body, already decoded from JSON."""
    when = retrieved_or_today(retrieved)
    batch = Batch()
    if isinstance(payload, list):
        for index, item in enumerate(payload):
            if isinstance(item, Mapping):
                _add_object(batch, item, when, f"#{index}")
            else:
                reason = "not found (null in the batch response)"
                batch.rejected.append(Rejection("s2", f"#{index}", reason))
        return S2Page(batch)
    if not isinstance(payload, Mapping):
        batch.rejected.append(Rejection("s2", "", "not a JSON object or list", excerpt(payload)))
        return S2Page(batch)
    items = payload.get("data", payload.get("recommendedPapers"))
    if isinstance(items, list) or {"total", "offset"} & payload.keys():
        for index, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, Mapping):
                _add_object(batch, item, when, f"#{index}")
        return S2Page(
            batch,
            total=get_int(payload, "total"),
            offset=get_int(payload, "offset"),
            next_offset=get_int(payload, "next"),
            token=get_str(payload, "token"),
        )
    message = get_str(payload, "error") or get_str(payload, "message")
    if message and not ({"paperId", "authorId"} & payload.keys()):
        batch.rejected.append(Rejection("s2", "", f"S2 API error: {message}", excerpt(payload)))
        return S2Page(batch)
    _add_object(batch, payload, when, "")
    return S2Page(batch)


def parse_s2_dataset_line(obj: JsonObject, *, retrieved: date | None = None) -> Batch:
    """One line of a Datasets API file (``papers``, ``authors``) or of S2ORC metadata."""
    batch = Batch()
    _add_object(batch, obj, retrieved_or_today(retrieved), _dataset_ref(obj))
    return batch


def _dataset_ref(obj: JsonObject) -> str:
    for key in ("corpusid", "authorid", "paper_id"):
        if (value := get_str(obj, key)) is not None:
            return f"{key}:{value}"
    return ""
