"""Telemetry downloads through the one request path: never with the API key, cached forever.

:func:`fetch_telemetry` is what :meth:`matchkit.Client.telemetry` runs: it takes match ids (each
match is fetched first, cached forever) or MatchFrames, finds each match's telemetry asset
(:func:`matchkit.telemetry.assets.telemetry_requests`) and downloads the files with a
:class:`TelemetryDownloader`, in order and several at once
(:func:`matchkit.telemetry.download.download_in_order`).

Each match's telemetry asset names an absolute ``URL`` (on the real service: a CDN, another
host). :class:`TelemetryDownloader` GETs it through its own
:class:`matchkit.client.request.RequestPath`, over its own cached session: no ``Authorization``
header ever (the asset host is not the API), no client-side rate limit (the CDN had none), and
the client's URL check, deadline, cap on body size, status-to-error mapping and retries. Its
check hook reads the file against its match (:func:`matchkit.telemetry.parse.parse_file`)
BEFORE anything is stored: a file that fails (not telemetry, events of another match, ...) is
retried like a 5xx, never cached, and then a :class:`matchkit.errors.DocumentError` naming the
match; so once the host is fixed, the next call gets the right file. A stored file is checked
again when it is read (a failing one is dropped and fetched again), with
``NEVER_EXPIRE`` (a telemetry file never changes).

The import runs one way: the client imports :mod:`matchkit.telemetry` (parsing, tables, the
pool), never the other way round.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import requests
from requests_cache import NEVER_EXPIRE
from requests_cache.policy.expiration import get_expiration_datetime

from matchkit.client.arguments import checked_match_ids
from matchkit.client.cache import CacheKeys, CachingSession, cached_response, create_session
from matchkit.client.request import Fetched, Limits, RequestPath, url_problem
from matchkit.client.responses import BadAnswerError
from matchkit.client.retrying import RetryPolicy
from matchkit.errors import CacheMissError, DocumentError, MatchkitError, ServiceError
from matchkit.normalize.pipeline import to_frames
from matchkit.telemetry.assets import telemetry_requests
from matchkit.telemetry.build import build_tables
from matchkit.telemetry.download import (
    DEFAULT_MAX_WORKERS,
    OnError,
    TelemetryRequest,
    check_max_workers,
    check_on_error,
    download_in_order,
)
from matchkit.telemetry.frames import TelemetryFrames
from matchkit.telemetry.parse import ParsedFile, parse_file

if TYPE_CHECKING:
    from matchkit.client.client import Client
    from matchkit.model.frames import MatchFrames

__all__ = ["TelemetryDownloader", "fetch_telemetry"]

logger = logging.getLogger(__name__)

_HEADERS = {"Accept": "application/json"}


class TelemetryDownloader:
    """Downloads telemetry files through a keyless, cached, unthrottled request path.

    Args:
        cache_dir: the folder of the client's HTTP cache (the same file).
        keys: how requests are keyed in the cache (the client's).
        offline: answer only from the cache; a miss raises CacheMissError.
        timeout: seconds per request (the whole answer); ignored when ``limits`` is given.
        retry: the retry policy (the client's).
        trust_env: let requests read proxies from the environment (off on loopback).
        limits: the deadline and the cap on body size (the client's).
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
        limits: Limits | None = None,
    ) -> None:
        self.session: CachingSession = create_session(cache_dir, keys=keys, offline=offline)
        self.session.trust_env = trust_env
        self.keys = keys
        self.offline = offline
        self.path = RequestPath(
            self.session,
            limits=limits or Limits(timeout=timeout),
            retry=retry,
            host="host",
            bad_answer_error=DocumentError,
            logger=logger,
        )

    @property
    def retry(self) -> RetryPolicy:
        return self.path.retry

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
        """Every file, checked, in input order (see
        :func:`matchkit.telemetry.download.download_in_order`)."""
        return download_in_order(
            requests_,
            cached=self.cached,
            download=self._download,
            max_workers=max_workers,
            progress=progress,
            on_error=on_error,
            problems=problems,
        )

    def fetch(self, request: TelemetryRequest) -> ParsedFile:
        """Fetch and check one file: from the cache, else from its URL.

        Raises:
            NotFoundError: the URL answered 404.
            DocumentError: the file is not the telemetry of its match (after the retries).
            CacheMissError: offline and not cached.
            RateLimitError, ServiceError: the host kept refusing or failing, or the URL cannot
                be requested.
        """
        hit = self.cached(request)
        return hit if hit is not None else self._download(request)

    def cached(self, request: TelemetryRequest) -> ParsedFile | None:
        """The stored file, read directly (requests-cache's full path for a hit costs about ten
        times more) and checked against its match; an entry that fails is dropped.

        Raises:
            ServiceError: the asset's URL cannot be requested.
        """
        key = self._key(request)
        response = cached_response(self.session, key, allow_stale=True)
        if response is None:
            return None
        try:
            return parse_file(response.content, match_id=request.match_id)
        except DocumentError:
            self.session.cache.delete(key)
            return None

    def _download(self, request: TelemetryRequest) -> ParsedFile:
        """Fetch and check one file that the cache does not hold (see :meth:`fetch`)."""
        match_id, url = request.match_id, request.url
        what = f"the telemetry of match {match_id}"
        key = self._key(request)
        if self.offline:
            raise CacheMissError(
                f"offline: {what} ({url}) is not in the cache; fetch it once online", url=url
            )
        parsed: list[ParsedFile] = []

        def check(fetched: Fetched) -> None:
            try:
                file = parse_file(fetched.body or b"", match_id=match_id)
            except DocumentError as error:  # parse_file checks the file against its match
                raise BadAnswerError(f"a file that fails its check: {error}") from None
            parsed.append(file)

        def store(response: requests.Response) -> None:
            expires = get_expiration_datetime(NEVER_EXPIRE)
            self.session.cache.save_response(response, cache_key=key, expires=expires)

        self.path.get(
            url,
            headers=_HEADERS,
            what=what,
            check=check,
            store=store,
            hints={404: f"no such file ({what})"},
        )
        return parsed[-1]

    def _key(self, request: TelemetryRequest) -> str:
        problem = url_problem(request.url)
        if problem is not None:
            raise ServiceError(
                f"the telemetry asset of match {request.match_id} cannot be downloaded: "
                f"{problem}; the service gave a URL that cannot be requested",
                url=request.url if isinstance(request.url, str) else None,
            )
        return self.keys.key("GET", request.url)


def fetch_telemetry(
    client: Client,
    matches: MatchFrames | Iterable[str] | str,
    *,
    progress: bool | None = None,
    max_workers: int | None = None,
    on_error: OnError = "raise",
) -> TelemetryFrames:
    """Download the telemetry of ``matches`` through ``client``'s cache: see Client.telemetry."""
    from matchkit.model.frames import MatchFrames

    workers = check_max_workers(max_workers)
    on_error = check_on_error(on_error)
    show = client.progress if progress is None else bool(progress)
    problems: list[str] = []
    if isinstance(matches, MatchFrames):
        frames = matches
    else:
        frames = _matches_by_id(client, _match_ids(matches), on_error=on_error, problems=problems)
    requests_, missing = telemetry_requests(frames, on_error=on_error)
    problems += missing
    if client.embedded:
        requests_ = [_on_embedded(request, client.base_url) for request in requests_]
    downloader = TelemetryDownloader(
        client.cache_dir,
        keys=client.transport.keys,
        offline=client.offline,
        timeout=client.transport.timeout,
        retry=client.retry_policy,
        trust_env=not client.embedded,
        limits=client.transport.limits,
    )
    failed: list[str] = []
    with closing(downloader):  # each file becomes tables as it comes
        files = downloader.download(
            requests_, max_workers=workers, progress=show, on_error=on_error, problems=failed
        )
        tables, table_problems = build_tables(files)
    return TelemetryFrames(**tables, problems=tuple(problems + failed + table_problems))


def _match_ids(matches: Any) -> list[str]:
    """The ids of ``matches`` (one id, or several), each once in the order given, every one
    checked before any request."""
    ids = checked_match_ids(
        [matches] if isinstance(matches, str) else matches,
        parameter="matches",
        expected="MatchFrames (from Client.matches) or match ids",
    )
    return list(ids)


def _matches_by_id(
    client: Client, ids: list[str], *, on_error: OnError, problems: list[str]
) -> MatchFrames:
    """The matches of ``ids``, fetched one by one and normalized together (as
    :meth:`matchkit.Client.get_matches`, but a match that cannot be fetched is skipped into
    ``problems`` when ``on_error`` asks)."""
    bodies = []
    for match_id in ids:
        try:
            bodies.append(client.get_match_body(match_id))
        except MatchkitError as error:
            if on_error == "raise":
                raise
            problems.append(f"telemetry of match {match_id} skipped: {error}")
    return to_frames(bodies)  # matches in the order of ids


def _on_embedded(request: TelemetryRequest, base_url: str) -> TelemetryRequest:
    """The URL on this run's embedded service: it listens on a new port each run, and the
    pages cached by an earlier run name that run's address."""
    if url_problem(request.url) is not None:
        return request  # refused, naming the URL, where it is downloaded
    parts = urlsplit(request.url)
    base = urlsplit(base_url)
    url = urlunsplit((base.scheme, base.netloc, parts.path, parts.query, ""))
    return TelemetryRequest(request.match_id, url)
