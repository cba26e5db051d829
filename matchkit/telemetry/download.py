"""Download telemetry files: never with the API key, cached forever, several at once.

Each match's telemetry asset names an absolute ``URL`` (on the real service: a CDN, another
host). :class:`TelemetryDownloader` GETs it through its own cached session, which has no
``Authorization`` header and no client-side rate limit (the CDN had none), into the client's HTTP
cache with ``NEVER_EXPIRE`` (a telemetry file never changes). A 200 is stored only once it is a
JSON array of ``{cursor, type, dataObject}`` events with unique cursors (requests-cache's
``filter_fn`` decides before anything is written); anything else is retried like a 5xx, then
refused. Retries, 429 waits and the errors of spent tries are the client's own
(:class:`matchkit.client.retrying.Retrying`, under the client's
:class:`matchkit.client.retrying.RetryPolicy`).

A file the cache holds is read by the caller's thread (threads would only take turns at the
GIL); the pool downloads the others, a few files ahead of the one the caller takes.

Nothing is partial: a missing or broken file is an error naming the match, unless the caller
passes ``on_error="skip"``, in which case the match is left out and listed in ``problems``.
"""

from __future__ import annotations

import itertools
import logging
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

import requests
from requests_cache import NEVER_EXPIRE, CachedSession
from tqdm.auto import tqdm

from matchkit.client.answers import BadAnswerError, error_objects
from matchkit.client.cache import CacheKeys, cached_response, create_session
from matchkit.client.retrying import Retrying, RetryPolicy
from matchkit.errors import (
    CacheMissError,
    DocumentError,
    MatchkitError,
    NotFoundError,
    ServiceError,
)
from matchkit.rules.checks import checked_choice, checked_whole_number
from matchkit.telemetry.parse import ParsedFile, check_events, parse_file

__all__ = [
    "AHEAD",
    "DEFAULT_MAX_WORKERS",
    "OnError",
    "TelemetryDownloader",
    "TelemetryRequest",
    "check_max_workers",
    "check_on_error",
]

logger = logging.getLogger(__name__)

DEFAULT_MAX_WORKERS = 4
"""Downloads at once by default: polite to a CDN, and enough to hide the latency."""

AHEAD = 2
"""Files fetched (and decoded) ahead of the caller, per worker."""

OnError = Literal["raise", "skip"]

_HEADERS = {"Accept": "application/json"}
_CHECKED = "_matchkit_checked_events"


@dataclass(frozen=True)
class TelemetryRequest:
    """One file to download.

    Attributes:
        match_id: the match (named in errors and keyed in the tables).
        url: the telemetry asset's ``URL``.
    """

    match_id: str
    url: str


def check_max_workers(value: object) -> int:
    """``max_workers`` as a whole number >= 1 (``None``: the default)."""
    if value is None:
        return DEFAULT_MAX_WORKERS
    message = f"max_workers={value!r} must be a whole number >= 1 (downloads at once)"
    return checked_whole_number(value, low=1, parameter="max_workers", message=message)


def check_on_error(value: object) -> OnError:
    """``on_error`` as one of :data:`OnError`, ``"raise"`` or ``"skip"``."""
    choices = get_args(OnError)
    message = f"on_error={value!r} must be {' or '.join(map(repr, choices))}"
    return checked_choice(value, choices, parameter="on_error", message=message)


def _stored_only_when_valid(response: requests.Response) -> bool:
    """requests-cache's ``filter_fn``: store a 200 only when it is a telemetry file.

    requests-cache asks twice for one new response (before storing it, then to drop a stored
    entry it filters out): the second time the first answer stands, unread again."""
    if getattr(response, _CHECKED, None) is not None:
        return True
    try:
        events = check_events(response.content)
    except DocumentError:
        return False
    setattr(response, _CHECKED, events)  # spare the caller a second decoding
    return True


class TelemetryDownloader:
    """Downloads telemetry files through a keyless, cached, unthrottled session.

    Args:
        cache_dir: the folder of the client's HTTP cache (the same file).
        keys: how requests are keyed in the cache (the client's).
        offline: answer only from the cache; a miss raises CacheMissError.
        timeout: seconds per request.
        retry: the retry policy (the client's).
        trust_env: let requests read proxies from the environment (off on loopback).
    """

    def __init__(
        self,
        cache_dir: Path,
        *,
        keys: CacheKeys,
        offline: bool,
        timeout: float,
        retry: RetryPolicy,
        trust_env: bool = True,
    ) -> None:
        self.session: CachedSession = create_session(cache_dir, keys=keys, offline=offline)
        self.keys = keys
        self.session.settings.filter_fn = _stored_only_when_valid
        self.session.trust_env = trust_env
        self.offline = offline
        self.timeout = timeout
        self.retry = retry

    def close(self) -> None:
        """Close the session (``with contextlib.closing(downloader)`` closes it after use)."""
        self.session.close()

    def download(
        self,
        requests_: Sequence[TelemetryRequest],
        *,
        max_workers: int = DEFAULT_MAX_WORKERS,
        progress: bool = True,
        on_error: OnError = "raise",
        problems: list[str],
    ) -> Iterator[ParsedFile]:
        """Fetch and check every file, ``max_workers`` at once, and yield them in input order.

        At most :data:`AHEAD` files per worker are fetched ahead of the one the caller takes, so
        that a caller who turns each file into tables as it comes (``build_tables``) holds a few
        decoded files at a time, not all of them.

        Args:
            problems: where a match skipped with ``on_error="skip"`` is listed.

        Raises:
            MatchkitError: with ``on_error="raise"``, the first failure in input order
                (NotFoundError, DocumentError, ServiceError, CacheMissError, ...), naming the
                match. The downloads not started are cancelled, those running finish.
        """
        check_on_error(on_error)
        waiting = iter(requests_)
        running: deque[tuple[TelemetryRequest, Future[ParsedFile]]] = deque()
        bar = tqdm(total=len(requests_), desc="telemetry", unit="file", disable=not progress)
        with bar, ThreadPoolExecutor(max_workers=max_workers) as pool:

            def start(count: int) -> None:
                for request in itertools.islice(waiting, count):
                    running.append((request, self._started(request, pool)))

            start(AHEAD * max_workers)
            try:
                while running:
                    request, future = running.popleft()
                    start(1)
                    try:
                        file = future.result()
                    except MatchkitError as error:
                        if on_error == "raise":
                            raise
                        problems.append(f"telemetry of match {request.match_id} skipped: {error}")
                        continue
                    finally:
                        bar.update()
                    del future
                    yield file
            finally:
                for _, future in running:
                    future.cancel()

    def _started(self, request: TelemetryRequest, pool: ThreadPoolExecutor) -> Future[ParsedFile]:
        """A file read from the cache here, or its download given to ``pool``.

        Reading a stored file is work under the GIL: threads would only take turns at it (a
        warm re-run of 1,000 files took twice as long as the same files read from disk).
        """
        future: Future[ParsedFile] = Future()
        try:
            hit = self._cached(request)
        except MatchkitError as error:  # raised where the file is taken, as from the pool
            future.set_exception(error)
            return future
        if hit is None:
            return pool.submit(self._download, request)
        future.set_result(hit)
        return future

    def fetch(self, request: TelemetryRequest) -> ParsedFile:
        """Fetch and check one file: from the cache, else from its URL.

        Raises:
            NotFoundError: the URL answered 404.
            DocumentError: the file is not a telemetry file (after the retries).
            CacheMissError: offline and not cached.
            RateLimitError, ServiceError: the host kept refusing or failing.
        """
        hit = self._cached(request)
        return hit if hit is not None else self._download(request)

    def _download(self, request: TelemetryRequest) -> ParsedFile:
        """Fetch and check one file that the cache does not hold (see :meth:`fetch`)."""
        match_id, url = request.match_id, request.url
        what = f"the telemetry of match {match_id}"

        def send() -> requests.Response:
            response = self.session.get(
                url, headers=_HEADERS, timeout=self.timeout, expire_after=NEVER_EXPIRE
            )
            if self.offline and response.status_code == 504 and _from_cache(response):
                raise CacheMissError(
                    f"offline: {what} ({url}) is not in the cache; fetch it once online",
                    url=url,
                )
            return response

        def check(response: requests.Response) -> ParsedFile:
            if response.status_code != 200:
                raise _status_error(response, url=url, what=what)
            try:
                return self._checked(response, match_id)
            except DocumentError as error:
                if _from_cache(response):  # asking again would read the same entry
                    raise DocumentError(f"GET {url} answered 200 but {error}") from None
                raise BadAnswerError(f"a file that fails its check: {error}") from None

        retrying = Retrying(self.retry, logger, host="host", bad_answer_error=DocumentError)
        return retrying.run(send, check, url=url, what=what)

    def _cached(self, request: TelemetryRequest) -> ParsedFile | None:
        """The stored file, read directly (requests-cache's full path for a hit costs about ten
        times more); an entry that no longer checks out is dropped and fetched again."""
        key = self.keys.key("GET", request.url)
        response = cached_response(self.session, key, allow_stale=True)
        if response is None:
            return None
        try:
            return parse_file(response.content, match_id=request.match_id)
        except DocumentError:
            self.session.cache.delete(key)
            return None

    def _checked(self, response: requests.Response, match_id: str) -> ParsedFile:
        checked = getattr(response, _CHECKED, None)
        try:
            return parse_file(
                checked if checked is not None else response.content, match_id=match_id
            )
        except DocumentError:
            key = getattr(response, "cache_key", None)
            if key:  # stored before a check that needs the match failed: forget it
                self.session.cache.delete(key)
            raise


def _from_cache(response: requests.Response) -> bool:
    return bool(getattr(response, "from_cache", False))


def _status_error(response: requests.Response, *, url: str, what: str) -> ServiceError:
    """The typed error of a final error answer (not a 429 or a 5xx: :class:`Retrying`'s)."""
    status = response.status_code
    errors = error_objects(response)
    options: dict[str, Any] = {"status": status, "url": url, "errors": errors}
    if status == 404:
        return NotFoundError(f"404 from GET {url}: no such file ({what})", **options)
    return ServiceError(f"{status} from GET {url} ({what})", **options)
