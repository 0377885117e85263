"""The one error root of scholargraph.

Every error the package raises on purpose derives from :class:`ScholargraphError`::

    ScholargraphError                 catch to handle anything scholargraph raises
    ├── ConfigError                   a setting is missing or malformed; fix env / .env
    ├── Neo4jServerError              the local Neo4j could not be started, stopped or reached
    │   ├── JavaNotFound              no `java` on PATH / JAVA_HOME; install a JDK 17 or 21
    │   ├── MavenUnavailable          no Maven, or Maven Central unreachable for the jars
    │   ├── PortInUse                 the Bolt port is taken by another process
    │   ├── DataDirLocked             another Neo4j process holds the data directory
    │   └── ServerStartFailed         the server process died or did not answer Bolt in time
    ├── DatabaseError                 a Cypher statement failed against the graph
    │   ├── ConstraintViolation       a write broke a uniqueness / existence constraint
    │   ├── DatabaseUnavailable       Neo4j is down, restarting or at another address; retry
    │   ├── DatabaseAuthFailed        Neo4j refused the credentials; fix NEO4J_USER / _PASSWORD
    │   └── QueryTimedOut             a statement ran out of its time budget; ask for less
    ├── NotFound                      an id, ORCID, DOI or name resolved to nothing
    ├── BadInput                      input that can never succeed (a malformed id, argument)
    │   └── BadResumptionToken        an OAI-PMH resumption token expired; start the list again
    ├── SourceError                   a source (arXiv, S2, OpenAlex, ORCID, ROR) failed
    │   ├── SourceUnavailable         retries exhausted on 429/5xx/timeouts; try again later
    │   │   └── ReplayMiss            cache replay mode has no recorded answer; record it first
    │   ├── SourceAuthError           401/403; check the API key setting for that source
    │   └── RecordRejected            one malformed record; it is reported and the load goes on
    ├── IdentityError                 a merge/split contradicts a curator decision or an ORCID
    ├── SyncBusy                      another `scholargraph sync` holds the lease; this one waits
    └── BulkError                     neo4j-admin import could not write the store (a value the
                                      import files cannot carry, or the tool failed); the old
                                      store is left as it was
"""

from __future__ import annotations


class ScholargraphError(Exception):
    """Root of every error scholargraph raises on purpose."""

    code = "INTERNAL"


class ConfigError(ScholargraphError):
    code = "BAD_CONFIG"


class Neo4jServerError(ScholargraphError):
    code = "NEO4J_SERVER"


class JavaNotFound(Neo4jServerError):
    pass


class MavenUnavailable(Neo4jServerError):
    pass


class PortInUse(Neo4jServerError):
    pass


class DataDirLocked(Neo4jServerError):
    pass


class ServerStartFailed(Neo4jServerError):
    pass


class DatabaseError(ScholargraphError):
    code = "DATABASE"


class ConstraintViolation(DatabaseError):
    code = "CONSTRAINT"


class DatabaseUnavailable(DatabaseError):
    """Neo4j did not answer: nothing listens at its address, or the connection was lost."""

    code = "UNAVAILABLE"


class DatabaseAuthFailed(DatabaseError):
    code = "NEO4J_AUTH"


class QueryTimedOut(DatabaseError):
    """The server stopped a statement at its timeout, or the budget was spent before it ran."""

    code = "TIMEOUT"


class NotFound(ScholargraphError):
    code = "NOT_FOUND"


class BadInput(ScholargraphError):
    code = "BAD_INPUT"


class BadResumptionToken(BadInput):
    """arXiv no longer knows an OAI-PMH resumption token (they expire): ask for the list
    again from its ``from`` date."""


class SourceError(ScholargraphError):
    code = "SOURCE"


class SourceUnavailable(SourceError):
    pass


class ReplayMiss(SourceUnavailable):
    """The response cache is in replay mode and holds no answer for the request."""


class SourceAuthError(SourceError):
    pass


class RecordRejected(SourceError):
    """One record could not be used; carries where it came from so the report can say so."""

    def __init__(self, reason: str, *, source: str, ref: str = "") -> None:
        super().__init__(f"{source} record {ref or '?'} rejected: {reason}")
        self.reason = reason
        self.source = source
        self.ref = ref


class IdentityError(ScholargraphError):
    code = "IDENTITY"


class SyncBusy(ScholargraphError):
    """Another ``scholargraph sync`` holds the graph's sync lease (or this one lost it)."""

    code = "BUSY"


class BulkError(ScholargraphError):
    """The store could not be written by ``neo4j-admin database import``."""

    code = "BULK"
