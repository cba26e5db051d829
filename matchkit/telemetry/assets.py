"""Which file to download for which match: the telemetry asset of each match.

:func:`fetch_telemetry` is what :meth:`matchkit.Client.telemetry` runs: it takes match ids (each
match is fetched first, cached forever) or MatchFrames, finds each match's telemetry asset and
downloads the files with :class:`matchkit.telemetry.download.TelemetryDownloader`.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import closing
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from matchkit.client.arguments import checked_match_ids
from matchkit.errors import DocumentError, MatchkitError
from matchkit.normalize.pipeline import to_frames
from matchkit.telemetry.build import build_tables
from matchkit.telemetry.download import (
    OnError,
    TelemetryDownloader,
    TelemetryRequest,
    check_max_workers,
    check_on_error,
)
from matchkit.telemetry.frames import TelemetryFrames

if TYPE_CHECKING:
    from matchkit.client.client import Client
    from matchkit.model.frames import MatchFrames

__all__ = ["fetch_telemetry", "telemetry_requests"]

TELEMETRY_ASSET = "telemetry"


def telemetry_requests(
    frames: MatchFrames, *, on_error: OnError = "raise"
) -> tuple[list[TelemetryRequest], list[str]]:
    """The telemetry file of every match of ``frames``, in match order.

    Returns:
        The requests, and the problems (matches without a telemetry asset, when skipping).

    Raises:
        DocumentError: a match has no telemetry asset, or two different ones (``on_error=
            "raise"``).
    """
    assets = frames.assets
    named = assets[assets["name"].astype("string").str.lower().eq(TELEMETRY_ASSET).fillna(False)]
    urls: dict[str, list[str]] = {}
    for match_id, url in zip(named["match_id"].tolist(), named["url"].tolist(), strict=True):
        if isinstance(url, str) and url:
            urls.setdefault(match_id, []).append(url)
    requests_: list[TelemetryRequest] = []
    problems: list[str] = []
    for match_id in frames.matches["match_id"].tolist():
        found = sorted(set(urls.get(match_id, ())))
        if len(found) == 1:
            requests_.append(TelemetryRequest(match_id, found[0]))
            continue
        reason = (
            "has no telemetry asset with a URL (na and some older matches have none)"
            if not found
            else f"has {len(found)} different telemetry assets: {found}"
        )
        if on_error == "raise":
            raise DocumentError(f"match {match_id} {reason}; pass on_error='skip' to leave it out")
        problems.append(f"telemetry of match {match_id} skipped: the match {reason}")
    return requests_, problems


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
    parts = urlsplit(request.url)
    base = urlsplit(base_url)
    url = urlunsplit((base.scheme, base.netloc, parts.path, parts.query, ""))
    return TelemetryRequest(request.match_id, url)
