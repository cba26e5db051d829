"""PUBG telemetry files -> PubgTelemetryFrames: read, split, built into tables, checked.

:func:`read_pubg_file` reads one file (what a download's check runs on the body before it is
stored: a file that fails is an error the first time); :func:`to_pubg_telemetry_frames` reads
many, one at a time, and combines their tables.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from contextlib import closing
from typing import Any

from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.telemetry.pubg.build import BATCH_EVENTS, build_file
from matchkit.telemetry.pubg.check import (
    MatchRoster,
    file_match_id,
    require_roster_agreement,
    rosters_of,
)
from matchkit.telemetry.pubg.frames import PubgTelemetryFrames
from matchkit.telemetry.pubg.pieces import Unsplittable, split_pieces
from matchkit.telemetry.pubg.source import (
    DEFAULT_MAX_BYTES,
    PIECE_BYTES,
    PubgSource,
    checked_max_bytes,
    content_pieces,
    is_json_text,
    read_content,
)
from matchkit.telemetry.pubg.split import SplitFile, split_events

__all__ = ["read_pubg_file", "to_pubg_telemetry_frames"]


def read_pubg_file(
    source: PubgSource,
    *,
    match_id: str | None = None,
    roster: MatchRoster | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    index: int = 0,
    batch_events: int = BATCH_EVENTS,
    piece: int = PIECE_BYTES,
) -> PubgTelemetryFrames:
    """Read one PUBG telemetry file into tables, checked against its match.

    Args:
        source: a path, its bytes (gzip or not), its JSON text, or its parsed list of events.
        match_id: the match it belongs to (the match document's id); ``None``: the file's own
            (its LogMatchDefinition's).
        roster: the match's participants and kills to check the file against
            (:func:`matchkit.telemetry.pubg.check.rosters_of`); ``None``: not checked.
        max_bytes: the largest decompressed file accepted (default 2 GiB).
        index: its position in the caller's input (errors' ``document_index``).
        batch_events: events of one type decoded at a time (the tables do not depend on it).
        piece: about how many decompressed bytes of a path or of gzip bytes are read at a time
            (bytes in memory are read in one piece; the tables do not depend on it).

    Raises:
        DocumentError: the file is broken or not the match's: gzip that is damaged, truncated
            or larger than ``max_bytes`` decompressed; not a JSON array of events; an event
            without ``_T`` or ``_D``, or whose ``_D`` is not a time; another match's id; players
            or kills that disagree with ``roster``; the message names the match and the event.
        InvalidArgumentError: ``source`` is none of the accepted kinds, or a path that cannot
            be read; ``max_bytes`` is not a whole number >= 1.
    """
    max_bytes = checked_max_bytes(max_bytes)
    expected = match_id if match_id is not None else (roster.match_id if roster else None)
    label = (
        f" ({source})" if isinstance(source, str | os.PathLike) and not is_json_text(source) else ""
    )
    where = (f"telemetry of match {expected}" if expected else f"telemetry file {index}") + label
    split = _split(source, where=where, index=index, max_bytes=max_bytes, piece=piece)
    match = file_match_id(split, expected=expected, where=where, index=index)
    where = f"telemetry of match {match}{label}"
    tables, problems = build_file(split, match_id=match, where=where, batch_events=batch_events)
    del split
    if roster is not None:
        require_roster_agreement(tables, roster, where=where, index=index)
    return PubgTelemetryFrames(**tables, problems=tuple(problems))


def _split(source: PubgSource, *, where: str, index: int, max_bytes: int, piece: int) -> SplitFile:
    """The file's events: a path or gzip bytes a piece at a time (the whole decompressed file
    never held), anything else in one piece. A file its pieces cannot be read as is read again
    in one piece, for the error that says what is wrong with it."""
    pieces = content_pieces(source, where=where, index=index, max_bytes=max_bytes, piece=piece)
    if pieces is not None:
        try:
            with closing(pieces):
                return split_pieces(pieces, where=where, index=index)
        except Unsplittable:
            pass
    content = read_content(source, where=where, index=index, max_bytes=max_bytes)
    return split_events(content, where=where, index=index)


def to_pubg_telemetry_frames(
    telemetry: PubgSource | Sequence[PubgSource] | Mapping[str, PubgSource],
    *,
    match_ids: Sequence[str] | None = None,
    matches: Any = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> PubgTelemetryFrames:
    """Turn PUBG telemetry files into PubgTelemetryFrames, each checked against its match.

    Args:
        telemetry: one file (a path, bytes, gzip bytes, JSON text or its parsed list of
            events), a sequence of them, or a mapping ``{match_id: file}``.
        match_ids: the match of each file of a sequence, in order; by default each file's own
            (its LogMatchDefinition's).
        matches: what to check each file against: MatchFrames holding their matches (the
            participants' ``player_id`` and ``kills``), or a mapping
            ``{match_id: [(player_id, kills), ...]}``; ``None``: the files are only checked to
            be well formed and of one match each.
        max_bytes: the largest decompressed file accepted (default 2 GiB).

    Returns:
        The tables, events in file order within each match, matches in input order.

    Raises:
        DocumentError: a file is broken or not its match's (see :func:`read_pubg_file`), or
            ``matches`` does not hold a file's match.
        InvalidArgumentError: the input is none of the above, ``match_ids`` does not fit it, or
            a match is given twice.
    """
    max_bytes = checked_max_bytes(max_bytes)
    rosters = None if matches is None else rosters_of(matches)
    sources, ids = _sources(telemetry, match_ids)
    frames: list[PubgTelemetryFrames] = []
    seen: set[str] = set()
    for index, (source, match_id) in enumerate(zip(sources, ids, strict=True)):
        roster = None
        if rosters is not None and match_id is not None:
            roster = _roster(rosters, match_id, index)
        file = read_pubg_file(
            source, match_id=match_id, roster=roster, max_bytes=max_bytes, index=index
        )
        found = file.match_ids[0]
        if rosters is not None and roster is None:
            require_roster_agreement(
                file.tables,
                _roster(rosters, found, index),
                where=f"telemetry of match {found}",
                index=index,
            )
        if found in seen:
            raise InvalidArgumentError(
                f"the telemetry of match {found} is given twice", parameter="telemetry"
            )
        seen.add(found)
        frames.append(file)
    if len(frames) == 1:
        return frames[0]  # no copy of one file's tables
    return PubgTelemetryFrames.concat(frames) if frames else PubgTelemetryFrames.empty()


def _roster(rosters: Mapping[str, MatchRoster], match_id: str, index: int) -> MatchRoster:
    roster = rosters.get(match_id)
    if roster is None:
        raise DocumentError(
            f"telemetry of match {match_id} cannot be checked: matches= does not hold match "
            f"{match_id} (it holds {len(rosters)} match(es))",
            document_index=index,
        )
    return roster


def _sources(telemetry: Any, match_ids: Sequence[str] | None) -> tuple[list[Any], list[Any]]:
    """The files and their match ids (``None``: the file's own)."""
    if isinstance(telemetry, Mapping):
        if match_ids is not None:
            raise InvalidArgumentError(
                "match_ids= cannot be combined with a mapping {match_id: telemetry}",
                parameter="match_ids",
            )
        return list(telemetry.values()), [_checked_id(key) for key in telemetry]
    if isinstance(telemetry, str | bytes | bytearray | memoryview | os.PathLike) or (
        isinstance(telemetry, list) and telemetry and isinstance(telemetry[0], dict)
    ):
        sources = [telemetry]  # one file (a parsed list of events among them)
    elif isinstance(telemetry, Sequence):
        sources = list(telemetry)
    else:
        raise InvalidArgumentError(
            "telemetry must be a path, bytes, JSON text or a parsed list of events, a sequence "
            f"of them, or a mapping {{match_id: telemetry}}; not {type(telemetry).__name__}",
            parameter="telemetry",
        )
    if match_ids is None:
        return sources, [None] * len(sources)
    ids = [match_ids] if isinstance(match_ids, str) else list(match_ids)
    if len(ids) != len(sources):
        raise InvalidArgumentError(
            f"match_ids has {len(ids)} ids for {len(sources)} telemetry files",
            parameter="match_ids",
        )
    return sources, [_checked_id(value) for value in ids]


def _checked_id(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgumentError(
            f"match id {value!r} must be a non-empty string", parameter="match_ids"
        )
    return value
