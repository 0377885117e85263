"""The nodes of ``scholargraph sync``: where each harvest stands, what waits for enrichment,
and the lease that keeps two syncs from running at once (see :mod:`graph.sync`)."""

from __future__ import annotations

from neomodel import DateProperty, FloatProperty, IntegerProperty, StringProperty, StructuredNode


class SyncState(StructuredNode):
    """One OAI-PMH set's harvest (``set_spec`` ``*`` is the whole archive).

    ``datestamp`` is the ``from`` of the next harvest; while one is under way, ``token`` is
    the resumption token of its next page and ``harvest_from`` the ``from`` it began with.
    Times are ISO 8601 strings in UTC.
    """

    set_spec = StringProperty(required=True, unique_index=True)
    datestamp = StringProperty()
    harvest_from = StringProperty()
    token = StringProperty()
    pages = IntegerProperty(default=0)
    run_started = StringProperty()
    run_ended = StringProperty()
    last_harvest = StringProperty()
    harvested = IntegerProperty(default=0)
    deletions = IntegerProperty(default=0)  # records marked deleted in the last run


class SyncBacklog(StructuredNode):
    """A harvested paper S2 and OpenAlex have not been asked about yet; ``newest`` orders
    the enrichment (its latest version's date)."""

    arxiv_id = StringProperty(required=True, unique_index=True)
    set_spec = StringProperty(index=True)
    newest = DateProperty(index=True)


class SyncLock(StructuredNode):
    """The lease of the sync that runs: its holder until ``expires`` (Unix time)."""

    name = StringProperty(required=True, unique_index=True)
    holder = StringProperty()
    expires = FloatProperty()
