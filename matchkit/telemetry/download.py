"""Downloading telemetry files in order, several at once: the pool, and what it is asked.

The HTTP of a download (no API key, cached forever, checked against its match before it is
stored) is the client's: :class:`matchkit.client.downloads.TelemetryDownloader` sends every file
through the client's one request path and hands this module two functions, one that reads a
stored file and one that downloads a file. Nothing here imports the client.

A file the cache holds is read by the caller's thread (threads would only take turns at the
GIL); the pool downloads the others, a few files ahead of the one the caller takes.

Nothing is partial: a missing or broken file is an error naming the match, unless the caller
passes ``on_error="skip"``, in which case the match is left out and listed in ``problems``.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal, get_args

from tqdm.auto import tqdm

from matchkit.errors import MatchkitError
from matchkit.rules.checks import checked_choice, checked_whole_number
from matchkit.telemetry.parse import ParsedFile

__all__ = [
    "AHEAD",
    "DEFAULT_MAX_WORKERS",
    "OnError",
    "TelemetryRequest",
    "check_max_workers",
    "check_on_error",
    "download_in_order",
]

DEFAULT_MAX_WORKERS = 4
"""Downloads at once by default: polite to a CDN, and enough to hide the latency."""

AHEAD = 2
"""Files fetched (and decoded) ahead of the caller, per worker."""

OnError = Literal["raise", "skip"]


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


def download_in_order(
    requests_: Sequence[TelemetryRequest],
    *,
    cached: Callable[[TelemetryRequest], ParsedFile | None],
    download: Callable[[TelemetryRequest], ParsedFile],
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
        cached: the stored, checked file of a request, or ``None``; run in the caller's thread.
        download: a file the cache does not hold, fetched and checked; run in the pool.
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

        def started(request: TelemetryRequest) -> Future[ParsedFile]:
            """A file read from the cache here, or its download given to ``pool``.

            Reading a stored file is work under the GIL: threads would only take turns at it
            (a warm re-run of 1,000 files took twice as long as the same files read from disk).
            """
            future: Future[ParsedFile] = Future()
            try:
                hit = cached(request)
            except MatchkitError as error:  # raised where the file is taken, as from the pool
                future.set_exception(error)
                return future
            if hit is None:
                return pool.submit(download, request)
            future.set_result(hit)
            return future

        def start(count: int) -> None:
            for request in itertools.islice(waiting, count):
                running.append((request, started(request)))

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
