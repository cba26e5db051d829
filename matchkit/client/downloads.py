"""Telemetry downloads through the client's one transport: never with the API key, cached forever.

:func:`fetch_telemetry` is what :meth:`matchkit.Client.telemetry` runs: it takes match ids (each
match is fetched first, cached forever) or MatchFrames, finds each match's telemetry asset
(:func:`matchkit.telemetry.assets.telemetry_requests`) and downloads the files through the
client's transport (:meth:`matchkit.client.transport.Transport.download`), in order and several
at once (:func:`matchkit.telemetry.download.download_in_order`).

Each match's telemetry asset names an absolute ``URL`` (on the real service: a CDN, another
host). The transport sends it as a ``telemetry`` request: to the asset host, so with no
``Authorization`` header and no client-side rate limit (the CDN had none), and with the
client's URL check, deadline, cap on body size, status-to-error mapping and retries. Its parse
hook (:func:`telemetry_parser`) reads the file against its match
(:func:`matchkit.telemetry.parse.parse_file`) BEFORE anything is stored: a file that fails (not
telemetry, events of another match, ...) is retried like a 5xx, never cached, and then a
:class:`matchkit.errors.DocumentError` naming the match; so once the host is fixed, the next call
gets the right file. A stored file is read the same way (a failing one is dropped and fetched
again), and kept forever (a telemetry file never changes).

The profile's ``telemetry_format`` chooses the reader (:data:`READERS`). A PUBG file (tens of
MB, gzip, ``_T``/``_D`` events on the CDN) is read by
:func:`matchkit.telemetry.pubg.read_pubg_file` against its match's roster (the participants'
account ids and kills): a file that fails is a :class:`matchkit.errors.DocumentError` the
first time, never stored and never downloaded again in a retry loop (a file of the wrong match
or a broken one stays so however often it is fetched; issue 36 measured 5 downloads of each
such file before it failed). The files of many matches are downloaded concurrently (bounded by
``max_workers``), with the progress bar, and combined into one
:class:`matchkit.telemetry.pubg.PubgTelemetryFrames`.

The import runs one way: the client imports :mod:`matchkit.telemetry` (parsing, tables, the
pool), never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from matchkit.client.arguments import checked_match_ids
from matchkit.client.request import Fetched
from matchkit.client.responses import BadAnswerError
from matchkit.client.urls import url_problem
from matchkit.errors import DocumentError, MatchkitError
from matchkit.normalize.pipeline import to_frames
from matchkit.telemetry.assets import telemetry_requests
from matchkit.telemetry.build import build_tables
from matchkit.telemetry.download import (
    OnError,
    TelemetryRequest,
    check_max_workers,
    check_on_error,
    download_in_order,
)
from matchkit.telemetry.frames import TelemetryFrames
from matchkit.telemetry.parse import ParsedFile, parse_file
from matchkit.telemetry.pubg import (
    MatchRoster,
    PubgTelemetryFrames,
    read_pubg_file,
    rosters_of,
)

if TYPE_CHECKING:
    from matchkit.client.client import Client
    from matchkit.model.frames import MatchFrames

__all__ = [
    "READERS",
    "TelemetryReader",
    "fetch_telemetry",
    "pubg_telemetry_parser",
    "telemetry_parser",
]


def telemetry_parser(match_id: str) -> Callable[[Fetched], ParsedFile]:
    """The parse hook of a telemetry file: the file read and checked against its match.

    Raises:
        BadAnswerError: the file fails its check (not telemetry, events of another match, ...).
    """

    def parse(fetched: Fetched) -> ParsedFile:
        try:
            return parse_file(fetched.body or b"", match_id=match_id)
        except DocumentError as error:  # parse_file checks the file against its match
            raise BadAnswerError(f"a file that fails its check: {error}") from None

    return parse


def pubg_telemetry_parser(
    match_id: str, roster: MatchRoster | None
) -> Callable[[Fetched], PubgTelemetryFrames]:
    """The parse hook of a PUBG telemetry file: the file read into tables and checked against
    its match (its id, its players, its kills against ``roster``).

    A file that fails raises :class:`matchkit.errors.DocumentError` as it is (not
    BadAnswerError): the request ends there, nothing is stored, and the file is not downloaded
    again.
    """

    def parse(fetched: Fetched) -> PubgTelemetryFrames:
        return read_pubg_file(fetched.body or b"", match_id=match_id, roster=roster)

    return parse


@dataclass(frozen=True)
class TelemetryReader:
    """How the files of one telemetry format are read and combined.

    Attributes:
        parsers: given the matches the files are checked against, the parse hook of a match's
            file by its id.
        combine: the tables of the files, as they come, into the frames returned; with the
            problems (matches skipped), a list that grows as the files are taken: read it
            once they all are.
    """

    parsers: Callable[[MatchFrames], Callable[[str], Callable[[Fetched], Any]]]
    combine: Callable[[Iterator[Any], list[str]], Any]


def _gamelocker_parsers(frames: MatchFrames) -> Callable[[str], Callable[[Fetched], ParsedFile]]:
    return telemetry_parser


def _gamelocker_combine(files: Iterator[ParsedFile], problems: list[str]) -> TelemetryFrames:
    tables, table_problems = build_tables(files)  # each file becomes tables as it comes
    return TelemetryFrames(**tables, problems=tuple(problems + table_problems))


def _pubg_parsers(
    frames: MatchFrames,
) -> Callable[[str], Callable[[Fetched], PubgTelemetryFrames]]:
    rosters = rosters_of(frames)  # once for every file
    return lambda match_id: pubg_telemetry_parser(match_id, rosters.get(match_id))


def _pubg_combine(files: Iterator[PubgTelemetryFrames], problems: list[str]) -> PubgTelemetryFrames:
    read = list(files)
    combined = PubgTelemetryFrames.concat(read) if read else PubgTelemetryFrames.empty()
    if not problems:
        return combined
    return replace(combined, problems=(*combined.problems, *problems))


READERS: Mapping[str, TelemetryReader] = MappingProxyType(
    {
        "gamelocker": TelemetryReader(_gamelocker_parsers, _gamelocker_combine),
        "pubg": TelemetryReader(_pubg_parsers, _pubg_combine),
    }
)
"""The reader of each telemetry format (a profile's ``telemetry_format``)."""


def fetch_telemetry(
    client: Client,
    matches: MatchFrames | Iterable[str] | str,
    *,
    progress: bool | None = None,
    max_workers: int | None = None,
    on_error: OnError = "raise",
) -> TelemetryFrames | PubgTelemetryFrames:
    """Download the telemetry of ``matches`` through ``client``'s transport: see
    :meth:`matchkit.Client.telemetry`."""
    from matchkit.model.frames import MatchFrames

    workers = check_max_workers(max_workers)
    on_error = check_on_error(on_error)
    show = client.settings.progress if progress is None else bool(progress)
    problems: list[str] = []
    if isinstance(matches, MatchFrames):
        frames = matches
    else:
        frames = _matches_by_id(client, _match_ids(matches), on_error=on_error, problems=problems)
    reader = READERS[client.settings.profile.telemetry_format]
    requests_, missing = telemetry_requests(frames, on_error=on_error)
    problems += missing
    if client.settings.embedded:
        host = client.settings.telemetry_url or client.base_url
        requests_ = [_on_embedded(request, host) for request in requests_]
    transport = client.transport
    parser = reader.parsers(frames)
    files = download_in_order(
        requests_,
        cached=lambda request: transport.cached_download(
            request.url, what=_what(request), parse=parser(request.match_id)
        ),
        download=lambda request: transport.download(
            request.url,
            what=_what(request),
            parse=parser(request.match_id),
            fresh=True,
        ),
        max_workers=workers,
        progress=show,
        on_error=on_error,
        problems=problems,  # a match skipped is added as its file is taken
    )
    return reader.combine(files, problems)


def _what(request: TelemetryRequest) -> str:
    """How messages name a download: the match it is the telemetry of."""
    return f"the telemetry of match {request.match_id}"


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
    return to_frames(bodies, profile=client.settings.profile)  # matches in the order of ids


def _on_embedded(request: TelemetryRequest, base_url: str) -> TelemetryRequest:
    """The URL on this run's embedded service: it listens on a new port each run, and the
    pages cached by an earlier run name that run's address."""
    if url_problem(request.url) is not None:
        return request  # refused, naming the URL, where it is downloaded
    parts = urlsplit(request.url)
    base = urlsplit(base_url)
    url = urlunsplit((base.scheme, base.netloc, parts.path, parts.query, ""))
    return TelemetryRequest(request.match_id, url)
