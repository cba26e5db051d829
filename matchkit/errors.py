"""The one exception hierarchy of matchkit, and the root of its warnings.

Every error matchkit raises on purpose is a :class:`MatchkitError`. Children say what went wrong
and carry what a caller needs to act on it; none of them ever carries an API key. Every warning
matchkit issues is a :class:`MatchkitWarning`, so that one filter can silence or raise them all
(``warnings.filterwarnings("error", category=MatchkitWarning)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "ArchiveBusyError",
    "ArchiveError",
    "ArchiveScopeError",
    "AuthError",
    "CacheError",
    "CacheMissError",
    "ClusterError",
    "DocumentError",
    "InvalidArgumentError",
    "MatchkitError",
    "MatchkitWarning",
    "NotFoundError",
    "RateLimitError",
    "ReportError",
    "ServiceError",
    "StorageError",
]


class MatchkitError(Exception):
    """Root of every error matchkit raises on purpose."""


class MatchkitWarning(UserWarning):
    """Root of every warning matchkit issues: a call did something other than what it was asked,
    and said so (the subclass says what)."""


class InvalidArgumentError(MatchkitError, ValueError):
    """An argument or query parameter is invalid; raised before any request is made.

    Attributes:
        parameter: the argument or wire parameter at fault (``"page[limit]"``, ``"start"``, ...).
    """

    def __init__(self, message: str, *, parameter: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter


class DocumentError(MatchkitError, ValueError):
    """A document is not a JSON:API match document that matchkit can normalize.

    Attributes:
        document_index: position of the document in the input (0 for a single document).
        resource: ``(type, id)`` of the resource at fault, when one is.
    """

    def __init__(
        self,
        message: str,
        *,
        document_index: int | None = None,
        resource: tuple[str | None, str | None] | None = None,
    ) -> None:
        where = []
        if document_index is not None:
            where.append(f"document {document_index}")
        if resource is not None:
            where.append(f"resource type={resource[0]!r} id={resource[1]!r}")
        super().__init__(f"{message} ({', '.join(where)})" if where else message)
        self.document_index = document_index
        self.resource = resource


class ServiceError(MatchkitError):
    """The service answered with an error, or could not be reached, after all retries.

    Attributes:
        status: the HTTP status code (``None`` when no response arrived).
        url: the request URL (it never holds the API key: the key travels in a header).
        errors: the JSON:API ``errors`` list of the response, normalized to dicts.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        url: str | None = None,
        errors: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        super().__init__(message)
        self.status = status
        self.url = url
        self.errors = [dict(error) for error in errors]


class AuthError(ServiceError):
    """The service refused the API key (401 or 403)."""


class NotFoundError(ServiceError):
    """The service has no such match or shard (404 on a single resource)."""


class RateLimitError(ServiceError):
    """The service kept refusing requests with 429 after every retry.

    Attributes:
        retry_after: seconds the service asked to wait, when it said.
    """

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class CacheMissError(MatchkitError):
    """An offline client was asked for a response that is not in its cache.

    Attributes:
        url: the request that would have been needed.
    """

    def __init__(self, message: str, *, url: str) -> None:
        super().__init__(message)
        self.url = url


class StorageError(MatchkitError):
    """A file or folder matchkit wrote, or reads, cannot be used: missing, damaged, of another
    format, or the file system refused the write. That covers Parquet data sets of MatchFrames
    and TelemetryFrames, the sample data set, the report folder, the service's store, the HTTP
    cache (:class:`CacheError`) and an archive (:class:`ArchiveError`). The message names the
    file and says the way out (write it again, restore it from a backup, ...).

    Attributes:
        path: the file or folder at fault.
    """

    def __init__(self, message: str, *, path: object = None) -> None:
        super().__init__(message)
        self.path = path


class CacheError(StorageError):
    """The HTTP cache cannot be used: damaged, of a format matchkit does not load, locked by
    another process past the wait, or not writable. The message says the way out (usually
    ``Client(...).clear_cache()`` or deleting the file).

    Attributes:
        path: the cache file.
    """

    def __init__(self, message: str, *, path: object) -> None:
        super().__init__(message, path=path)


class ArchiveError(StorageError):
    """An archive (:mod:`matchkit.archive`) cannot be read or written as asked: a data file is
    missing or damaged, its manifest is unreadable or of another format, or a batch cannot be
    written. The message names the file and says the way out.

    Attributes:
        path: the file or folder at fault.
    """


class ArchiveBusyError(ArchiveError):
    """Another process (a sync or a compaction) holds the archive's lock past the wait."""


class ArchiveScopeError(ArchiveError, ValueError):
    """A sync asked for another scope (shard, filters, telemetry) than the archive holds; pass
    ``allow_scope_change=True`` (``--change-scope``) to sync it anyway.

    Attributes:
        stored: the archive's scope.
        asked: the sync's scope.
    """

    def __init__(self, message: str, *, path: object, stored: object, asked: object) -> None:
        super().__init__(message, path=path)
        self.stored = stored
        self.asked = asked


class ReportError(MatchkitError):
    """The report could not be built: a notebook failed (the message names it and its cell's
    error), or a tool or pinned web file it needs is missing or failed (the message says how
    to install it)."""


class ClusterError(MatchkitError):
    """The Dask scheduler given (``scheduler=`` or ``MATCHKIT_DASK_SCHEDULER``) did not answer.

    Attributes:
        address: the scheduler's address.
    """

    def __init__(self, message: str, *, address: str) -> None:
        super().__init__(message)
        self.address = address
