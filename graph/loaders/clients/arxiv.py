"""arXiv: the Atom query API and OAI-PMH, returned as raw XML text.

The Atom API asks for one request every 3 s over one connection; OAI-PMH is the way to bulk
work and slows callers down with ``503`` plus ``Retry-After``, which :class:`SourceHttp` honours.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal

import httpx

from scholargraph.graph.errors import (
    BadInput,
    BadResumptionToken,
    ConfigError,
    SourceError,
    SourceUnavailable,
)
from scholargraph.graph.loaders.cache import ResponseCache
from scholargraph.graph.loaders.http import (
    HttpTiming,
    Params,
    RateLimit,
    RetryPolicy,
    SourceHttp,
    SourceProfile,
    chunked,
    describe_error,
)

SortBy = Literal["relevance", "lastUpdatedDate", "submittedDate"]
SortOrder = Literal["ascending", "descending"]
MetadataPrefix = Literal["arXiv", "arXivRaw", "oai_dc"]

ATOM = "{http://www.w3.org/2005/Atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
OAI = "{http://www.openarchives.org/OAI/2.0/}"
# "No more than one request every three seconds", over a single connection.
ATOM_RATE = RateLimit(per_second=1 / 3, burst=1, max_in_flight=1)
MAX_ATOM_PAGE = 2000  # the API's own cap on max_results
# OAI-PMH error codes that mean our request was wrong and repeating it cannot help.
OAI_REQUEST_ERRORS = frozenset(
    {"badArgument", "badResumptionToken", "badVerb", "cannotDisseminateFormat", "noSetHierarchy"}
)


@dataclass(frozen=True)
class ArxivSettings:
    api_url: str = "https://export.arxiv.org/api/query"
    oai_url: str = "https://oaipmh.arxiv.org/oai"
    rate: RateLimit = ATOM_RATE
    timeout_seconds: float = 60.0
    ids_per_request: int = 100
    # The Atom API sometimes answers a page inside the result set with no entries; ask again.
    empty_page_retries: int = 3

    def __post_init__(self) -> None:
        if not 1 <= self.ids_per_request <= MAX_ATOM_PAGE:
            raise ConfigError(f"arXiv ids_per_request must be 1..{MAX_ATOM_PAGE}")
        if self.empty_page_retries < 0:
            raise ConfigError("arXiv empty_page_retries cannot be negative")

    def profile(self) -> SourceProfile:
        return SourceProfile(
            name="arxiv", label="arXiv", rate=self.rate, timeout_seconds=self.timeout_seconds
        )


@dataclass(frozen=True)
class FeedCounts:
    total: int
    entries: int


def feed_counts(feed_xml: str) -> FeedCounts:
    """``opensearch:totalResults`` and the number of ``<entry>`` elements of an Atom page."""
    root = _parse(feed_xml, "Atom feed")
    total = root.findtext(f"{OPENSEARCH}totalResults")
    return FeedCounts(int(total) if total else 0, len(root.findall(f"{ATOM}entry")))


@dataclass(frozen=True)
class OaiPage:
    error_code: str | None
    error_message: str
    resumption_token: str | None


def oai_page(page_xml: str) -> OaiPage:
    root = _parse(page_xml, "OAI-PMH answer")
    error = root.find(f"{OAI}error")
    token = root.find(f".//{OAI}resumptionToken")
    token_text = (token.text or "").strip() if token is not None else ""
    return OaiPage(
        error_code=error.get("code") if error is not None else None,
        error_message=(error.text or "").strip() if error is not None else "",
        resumption_token=token_text or None,
    )


def atom_error_summary(response: httpx.Response) -> str:
    """arXiv explains a 400 in the ``<summary>`` of an Atom error entry."""
    try:
        root = ET.fromstring(response.text)
    except ET.ParseError:
        return describe_error(response)
    summary = root.findtext(f"{ATOM}entry/{ATOM}summary")
    return summary.strip() if summary else describe_error(response)


class ArxivClient:
    def __init__(
        self,
        client: httpx.AsyncClient,
        settings: ArxivSettings | None = None,
        *,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        timing: HttpTiming | None = None,
    ) -> None:
        self.settings = settings or ArxivSettings()
        self._http = SourceHttp(
            client,
            self.settings.profile(),
            retry=retry,
            cache=cache,
            timing=timing,
            error_detail=atom_error_summary,
        )

    async def feeds_by_id(self, arxiv_ids: Iterable[str]) -> AsyncIterator[str]:
        """One Atom feed per ``ids_per_request`` ids (with or without ``vN``)."""
        size = self.settings.ids_per_request
        for chunk in chunked(arxiv_ids, size):
            params: Params = {"id_list": ",".join(chunk), "start": 0, "max_results": size}
            yield await self._atom(params)

    async def search_pages(
        self,
        query: str,
        *,
        sort_by: SortBy = "relevance",
        sort_order: SortOrder = "descending",
        page_size: int = 100,
        limit: int | None = None,
    ) -> AsyncIterator[str]:
        """Atom feeds for ``search_query=query``, ``page_size`` entries each, up to ``limit``."""
        if not 1 <= page_size <= MAX_ATOM_PAGE:
            raise BadInput(f"page_size must be 1..{MAX_ATOM_PAGE}, got {page_size}")
        start = 0
        while limit is None or start < limit:
            size = page_size if limit is None else min(page_size, limit - start)
            params: Params = {
                "search_query": query,
                "start": start,
                "max_results": size,
                "sortBy": sort_by,
                "sortOrder": sort_order,
            }
            feed, counts = await self._non_empty_page(params, start)
            yield feed
            start += counts.entries
            if counts.entries == 0 or start >= counts.total:
                return

    async def list_record_pages(
        self,
        metadata_prefix: MetadataPrefix = "arXiv",
        *,
        set_spec: str | None = None,
        from_date: date | None = None,
        until: date | None = None,
        resumption_token: str | None = None,
    ) -> AsyncIterator[str]:
        """OAI-PMH ``ListRecords`` pages, following ``resumptionToken`` to the end.

        ``from``/``until`` select by datestamp, the date of the last metadata change (not the
        submission date). No matching records is an empty iteration, not an error.
        ``resumption_token`` continues a list from the page it names (the other arguments
        are then not sent); a token arXiv no longer knows raises :class:`BadResumptionToken`.
        """
        params: dict[str, str | int] = {"verb": "ListRecords", "metadataPrefix": metadata_prefix}
        if set_spec:
            params["set"] = set_spec
        if from_date:
            params["from"] = from_date.isoformat()
        if until:
            params["until"] = until.isoformat()
        if resumption_token:
            params = {"verb": "ListRecords", "resumptionToken": resumption_token}
        while True:
            page_xml = await self._oai(params)
            page = oai_page(page_xml)
            if page.error_code == "noRecordsMatch":
                return
            self._raise_oai_error(page)
            yield page_xml
            if page.resumption_token is None:
                return
            # Every later request carries the token alone, as OAI-PMH requires.
            params = {"verb": "ListRecords", "resumptionToken": page.resumption_token}

    async def oai_record(
        self, arxiv_id: str, metadata_prefix: MetadataPrefix = "arXiv"
    ) -> str | None:
        """The OAI-PMH ``GetRecord`` answer for one paper, or ``None`` if arXiv has no such id."""
        params = {
            "verb": "GetRecord",
            "identifier": f"oai:arXiv.org:{arxiv_id}",
            "metadataPrefix": metadata_prefix,
        }
        page_xml = await self._oai(params)
        page = oai_page(page_xml)
        if page.error_code == "idDoesNotExist":
            return None
        self._raise_oai_error(page)
        return page_xml

    async def _non_empty_page(self, params: Params, start: int) -> tuple[str, FeedCounts]:
        for _ in range(self.settings.empty_page_retries + 1):
            feed = await self._atom(params)
            counts = feed_counts(feed)
            if counts.entries or start >= counts.total:
                return feed, counts
        raise SourceUnavailable(
            f"arXiv kept answering an empty page at start={start} of {counts.total} results; "
            "try again later"
        )

    async def _atom(self, params: Params) -> str:
        return await self._http.get_text(self.settings.api_url, params)

    async def _oai(self, params: Params) -> str:
        return await self._http.get_text(self.settings.oai_url, params)

    @staticmethod
    def _raise_oai_error(page: OaiPage) -> None:
        if page.error_code is None:
            return
        message = f"arXiv OAI-PMH error {page.error_code}: {page.error_message}"
        if page.error_code == "badResumptionToken":
            raise BadResumptionToken(f"{message}; ask for the list again from its start")
        if page.error_code in OAI_REQUEST_ERRORS:
            raise BadInput(message)
        raise SourceError(message)


def _parse(text: str, what: str) -> ET.Element:
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        raise SourceError(f"arXiv sent an unreadable {what}: {exc}") from None
