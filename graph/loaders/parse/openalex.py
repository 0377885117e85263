"""OpenAlex works, authors and institutions → records.

Points that shape the parsing:

* a work's arXiv id comes from its DOI (``10.48550/arxiv.<id>``) or from an arxiv.org
  landing page or PDF among its locations (a preprint merged into a journal work keeps the
  journal DOI but still lists the arXiv location);
* ``A9999999999`` is OpenAlex's "null author": such a slot keeps its raw printed name when
  it has one and is otherwise dropped, the other authors keeping their printed positions;
* list endpoints cut authorships at 100 and say so in ``is_authors_truncated``;
* a "Deleted Author" stub (no works, no ids) is rejected, not loaded as a person;
* raw author names are often printed ``Last, First`` (``Touvron, Hugo``) and some display
  names too (``Bond, Ivan``): the raw name stays on the authorship as printed, the person's
  name is the "First Last" form (:func:`graph.identity.name_forms.display_name`);
* a work with an empty title (BERT's NAACL record) keeps its authorships and ids with the
  title ``""``: the paper takes its title from another source or waits for one; a title-less
  work without authorships (``select=`` answers) is rejected;
* ``retrieved`` defaults to the entity's own ``updated_date``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from scholargraph.graph.errors import RecordRejected
from scholargraph.graph.identity.name_forms import display_name
from scholargraph.graph.identity.names import script_forms
from scholargraph.graph.ids import arxiv_id_from_doi
from scholargraph.graph.loaders.parse.text import clean_name, clean_title, parse_date, parse_year
from scholargraph.graph.loaders.parse.values import (
    JsonObject,
    excerpt,
    get_int,
    get_list,
    get_obj,
    get_str,
    objects,
    optional_arxiv_id,
    optional_doi,
    optional_mag,
    optional_openalex,
    optional_orcid,
    optional_ror,
    retrieved_or_today,
    strings,
)
from scholargraph.graph.records import (
    AffiliationRecord,
    AuthorRecord,
    Authorship,
    Batch,
    InstitutionRecord,
    InstitutionRef,
    PaperRecord,
    Rejection,
)

NULL_AUTHOR = "A9999999999"
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/([^?#]+?)(?:\.pdf)?/?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class OpenAlexPage:
    batch: Batch
    count: int | None = None
    page: int | None = None
    per_page: int | None = None
    next_cursor: str | None = None


def _entity_id(obj: JsonObject) -> str | None:
    """The short id; responses trimmed with ``select=`` may carry it only under ``ids``."""
    from_ids = get_obj(obj, "ids").get("openalex")
    return optional_openalex(obj.get("id")) or optional_openalex(from_ids)


def _retrieved(obj: JsonObject, retrieved: date | None) -> date:
    return retrieved_or_today(retrieved, parse_date(get_str(obj, "updated_date")))


def institution_ref(obj: JsonObject) -> InstitutionRef | None:
    """An institution as a work or author names it, or None when it names nothing."""
    ref = InstitutionRef(
        ror_id=optional_ror(obj.get("ror")),
        openalex_id=optional_openalex(obj.get("id")),
        name=clean_name(get_str(obj, "display_name")),
        country_code=get_str(obj, "country_code"),
    )
    return ref if (ref.ror_id or ref.openalex_id or ref.name) else None


def _arxiv_id(obj: JsonObject, doi: str | None) -> str | None:
    if doi and (from_doi := arxiv_id_from_doi(doi)):
        return from_doi
    locations = objects(get_list(obj, "locations"))
    locations += [get_obj(obj, "primary_location"), get_obj(obj, "best_oa_location")]
    for location in locations:
        for key in ("landing_page_url", "pdf_url"):
            match = _ARXIV_URL.search(get_str(location, key) or "")
            if match and (arxiv_id := optional_arxiv_id(match.group(1))):
                return arxiv_id
    return None


def abstract_from_inverted_index(index: object) -> str | None:
    """The abstract text OpenAlex ships as ``{word: [positions]}``."""
    if not isinstance(index, Mapping) or not index:
        return None
    placed: dict[int, str] = {}
    for word, positions in index.items():
        for position in positions if isinstance(positions, list) else []:
            if isinstance(position, int):
                placed[position] = str(word)
    return clean_title(" ".join(placed[p] for p in sorted(placed)))


def _authorship(position: int, obj: JsonObject, retrieved: date) -> Authorship | None:
    author = get_obj(obj, "author")
    openalex_id = optional_openalex(author.get("id"))
    raw_name = clean_name(get_str(obj, "raw_author_name"))
    if openalex_id == NULL_AUTHOR or openalex_id is None:
        if raw_name is None:
            return None
        record = AuthorRecord(
            name=display_name(raw_name),
            source="openalex",
            alt_names=_other_forms(raw_name),
            retrieved=retrieved,
        )
    else:
        printed = clean_name(get_str(author, "display_name")) or raw_name
        if printed is None:
            return None
        record = AuthorRecord(
            name=display_name(printed),
            source="openalex",
            openalex_ids=(openalex_id,),
            orcid=optional_orcid(author.get("orcid")),
            alt_names=_other_forms(printed, raw_name),
            retrieved=retrieved,
        )
    raw_affiliations = strings(get_list(obj, "raw_affiliation_strings")) or strings(
        [get_str(a, "raw_affiliation_string") for a in objects(get_list(obj, "affiliations"))]
    )
    institutions = [institution_ref(i) for i in objects(get_list(obj, "institutions"))]
    return Authorship(
        position=position,
        raw_name=raw_name or record.name,
        author=record,
        institutions=tuple(i for i in institutions if i is not None),
        raw_affiliations=tuple(dict.fromkeys(raw_affiliations)),
    )


def _other_forms(*printed: str | None) -> tuple[str, ...]:
    """The forms of a name a person's display name does not show: another script, or the
    printed order when it was ``Last, First``."""
    forms: list[str] = []
    for text in printed:
        if text:
            latin, others = script_forms(text)
            forms += [*others, latin]
    shown = {display_name(text) for text in printed if text}
    return tuple(dict.fromkeys(f for f in forms if f not in shown))


def parse_openalex_work(obj: JsonObject, *, retrieved: date | None = None) -> PaperRecord:
    """A work object. Raises :class:`RecordRejected` without a work id, or without both a
    title and authorships (an untitled work with authors is kept, titled ``""``)."""
    openalex_id = _entity_id(obj)
    if openalex_id is None or not openalex_id.startswith("W"):
        raise RecordRejected("not a work id", source="openalex", ref=str(obj.get("id") or ""))
    title = clean_title(get_str(obj, "title") or get_str(obj, "display_name"))
    when = _retrieved(obj, retrieved)
    doi = optional_doi(obj.get("doi") or get_obj(obj, "ids").get("doi"))
    authorships = [
        a
        for position, item in enumerate(objects(get_list(obj, "authorships")), start=1)
        if (a := _authorship(position, item, when)) is not None
    ]
    if title is None and not authorships:
        raise RecordRejected("no title", source="openalex", ref=openalex_id)
    published = parse_date(get_str(obj, "publication_date"))
    return PaperRecord(
        source="openalex",
        title=title or "",
        arxiv_id=_arxiv_id(obj, doi),
        doi=doi,
        openalex_id=openalex_id,
        mag_id=optional_mag(get_obj(obj, "ids").get("mag")),
        abstract=abstract_from_inverted_index(obj.get("abstract_inverted_index")),
        published=published,
        year=parse_year(obj.get("publication_year")) or (published.year if published else None),
        citation_count=get_int(obj, "cited_by_count"),
        authorships=tuple(authorships),
        authors_truncated=obj.get("is_authors_truncated") is True,
        retrieved=when,
    )


def parse_openalex_author(
    obj: JsonObject, *, retrieved: date | None = None
) -> tuple[AuthorRecord, tuple[AffiliationRecord, ...]]:
    """An author profile and its dated affiliations. Raises :class:`RecordRejected` for stubs."""
    openalex_id = _entity_id(obj)
    if openalex_id is None or not openalex_id.startswith("A"):
        raise RecordRejected("not an author id", source="openalex", ref=str(obj.get("id") or ""))
    if openalex_id == NULL_AUTHOR:
        raise RecordRejected("the null author A9999999999", source="openalex", ref=openalex_id)
    printed = clean_name(get_str(obj, "display_name"))
    if printed is None:
        raise RecordRejected("no display_name", source="openalex", ref=openalex_id)
    if printed == "Deleted Author" and not get_int(obj, "works_count"):
        raise RecordRejected("deleted author stub", source="openalex", ref=openalex_id)
    name = display_name(printed)
    when = _retrieved(obj, retrieved)
    alternatives = (
        clean_name(a)
        for a in [*_other_forms(printed), *strings(get_list(obj, "display_name_alternatives"))]
    )
    last_known = objects(get_list(obj, "last_known_institutions")) or objects(
        get_list(obj, "last_known_institution")
    )
    current = [ref for i in last_known if (ref := institution_ref(i)) is not None]
    author = AuthorRecord(
        name=name,
        source="openalex",
        openalex_ids=(openalex_id,),
        orcid=optional_orcid(obj.get("orcid") or get_obj(obj, "ids").get("orcid")),
        alt_names=tuple(dict.fromkeys(a for a in alternatives if a and a != name)),
        h_index=get_int(get_obj(obj, "summary_stats"), "h_index"),
        paper_count=get_int(obj, "works_count"),
        citation_count=get_int(obj, "cited_by_count"),
        affiliations=tuple(current),
        retrieved=when,
    )
    affiliations = []
    for affiliation in objects(get_list(obj, "affiliations")):
        ref = institution_ref(get_obj(affiliation, "institution"))
        years = [y for y in get_list(affiliation, "years") if isinstance(y, int)]
        if ref is not None:
            first, last = (min(years), max(years)) if years else (None, None)
            affiliations.append(AffiliationRecord(author, ref, "openalex", first, last))
    return author, tuple(affiliations)


def parse_openalex_institution(
    obj: JsonObject, *, retrieved: date | None = None
) -> InstitutionRecord:
    openalex_id = _entity_id(obj)
    if openalex_id is None or not openalex_id.startswith("I"):
        raise RecordRejected("not an institution id", source="openalex", ref=str(obj.get("id")))
    name = clean_name(get_str(obj, "display_name"))
    if name is None:
        raise RecordRejected("no display_name", source="openalex", ref=openalex_id)
    related: dict[str, list[str]] = {"parent": [], "child": [], "related": []}
    for associated in objects(get_list(obj, "associated_institutions")):
        ror_id = optional_ror(associated.get("ror"))
        kind = get_str(associated, "relationship")
        if ror_id and kind in related:
            related[kind].append(ror_id)
    geo = get_obj(obj, "geo")
    kind = get_str(obj, "type")
    return InstitutionRecord(
        name=name,
        source="openalex",
        ror_id=optional_ror(obj.get("ror") or get_obj(obj, "ids").get("ror")),
        openalex_id=openalex_id,
        acronyms=tuple(strings(get_list(obj, "display_name_acronyms"))),
        aliases=tuple(a for a in strings(get_list(obj, "display_name_alternatives")) if a != name),
        country_code=get_str(obj, "country_code") or get_str(geo, "country_code"),
        city=get_str(geo, "city"),
        types=(kind,) if kind else (),
        parent_ids=tuple(related["parent"]),
        child_ids=tuple(related["child"]),
        related_ids=tuple(related["related"]),
        retrieved=_retrieved(obj, retrieved),
    )


def parse_openalex_entity(obj: JsonObject, *, retrieved: date | None = None) -> Batch:
    """A work, author or institution (by its id) into a batch; anything else is rejected."""
    batch = Batch()
    openalex_id = _entity_id(obj) or ""
    try:
        if openalex_id.startswith("W"):
            batch.papers.append(parse_openalex_work(obj, retrieved=retrieved))
        elif openalex_id.startswith("A"):
            author, affiliations = parse_openalex_author(obj, retrieved=retrieved)
            batch.authors.append(author)
            batch.affiliations.extend(affiliations)
        elif openalex_id.startswith("I"):
            batch.institutions.append(parse_openalex_institution(obj, retrieved=retrieved))
        else:
            raise RecordRejected(
                "not a work, author or institution", source="openalex", ref=str(obj.get("id"))
            )
    except RecordRejected as exc:
        batch.rejected.append(Rejection("openalex", exc.ref, exc.reason, excerpt(obj)))
    return batch


def parse_openalex_payload(payload: object, *, retrieved: date | None = None) -> OpenAlexPage:
    """Any API response body (single entity, list page or error), decoded from JSON."""
    if not isinstance(payload, Mapping):
        rejection = Rejection("openalex", "", "not a JSON object", excerpt(payload))
        return OpenAlexPage(Batch(rejected=[rejection]))
    if "meta" in payload:
        batch = Batch()
        for item in objects(get_list(payload, "results")):
            batch.extend(parse_openalex_entity(item, retrieved=retrieved))
        meta = get_obj(payload, "meta")
        return OpenAlexPage(
            batch,
            count=get_int(meta, "count"),
            page=get_int(meta, "page"),
            per_page=get_int(meta, "per_page"),
            next_cursor=get_str(meta, "next_cursor"),
        )
    if "error" in payload and "id" not in payload:
        message = get_str(payload, "message") or get_str(payload, "error") or "unknown error"
        rejection = Rejection("openalex", "", f"OpenAlex API error: {message}", excerpt(payload))
        return OpenAlexPage(Batch(rejected=[rejection]))
    return OpenAlexPage(parse_openalex_entity(payload, retrieved=retrieved))
