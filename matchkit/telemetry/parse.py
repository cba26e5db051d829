"""Telemetry files in: paths, bytes, text or parsed lists -> checked events in cursor order.

A telemetry file is a JSON array of ``{"cursor": int, "type": str, "dataObject": object}``
(``docs/telemetry-format.md``). Anything else (not JSON, another top-level shape, an event
with a missing or extra member or a member of the wrong type, two events with one cursor, a
cursor beyond 64-bit integers) is a :class:`matchkit.errors.DocumentError` naming the match: a
broken file is never read in part.

A file is then checked against the match it was asked for (:func:`check_against_match`): a
match's telemetry is never empty (every real file opens with the match's QueueEvents and
MatchStart), and no event, of any type, names another match.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any, TypeAlias

import msgspec
import numpy as np

from matchkit.errors import DocumentError, InvalidArgumentError
from matchkit.telemetry.schema import MATCH_ID_KEYS, MATCH_START
from matchkit.telemetry.shape import PUBG_EVENTS, telemetry_shape
from matchkit.telemetry.typed import EventRecord, decode_typed, member

__all__ = [
    "Event",
    "ParsedFile",
    "TelemetrySource",
    "check_against_match",
    "check_events",
    "iter_sources",
    "parse_file",
    "read_sources",
]

TelemetrySource: TypeAlias = str | os.PathLike[str] | bytes | bytearray | memoryview | list[Any]
"""One telemetry file: a path, its bytes, its JSON text, or its parsed list of events."""


class Event(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """One event as the file carries it."""

    cursor: int
    type: str
    dataObject: dict[str, Any]  # noqa: N815 (the wire's spelling)


_DECODER = msgspec.json.Decoder(list[Event])
_BY_CURSOR = attrgetter("cursor")


@dataclass(frozen=True)
class ParsedFile:
    """A checked telemetry file.

    Attributes:
        match_id: the match it belongs to.
        events: its events, sorted by cursor (unique).
        size: its size in bytes when it came as bytes, text or a file (else 0).
    """

    match_id: str
    events: list[EventRecord]
    size: int = 0


def parse_file(source: TelemetrySource, *, match_id: str | None, index: int = 0) -> ParsedFile:
    """Read and check one telemetry file.

    Args:
        source: a path, bytes, JSON text or the parsed list of events.
        match_id: the match it belongs to; ``None`` to take it from the file's events.
        index: its position in the caller's input (named in errors).

    Raises:
        DocumentError: the file is broken (see the module docs), naming the match.
        InvalidArgumentError: ``source`` is none of the accepted kinds, or a path that cannot
            be read.
    """
    where = f"telemetry of match {match_id}" if match_id else f"telemetry file {index}"
    if isinstance(source, list) and source and isinstance(source[0], msgspec.Struct):
        events, size, label = source, 0, ""  # checked already (check_events)
    else:
        raw, label = _raw(source, index=index)
        if label:
            where = f"{where} ({label})"
        events = check_events(raw, where=where, index=index)
        size = 0 if isinstance(raw, list) else len(raw)
    if match_id is None:
        found = _match_id_of(events)
        if found is None:
            raise DocumentError(
                f"{where} names no match (no event carries matchID); pass its match id "
                "(a mapping {match_id: telemetry} or match_ids=)",
                document_index=index,
            )
        match_id = found
        where = f"telemetry of match {match_id}" + (f" ({label})" if label else "")
    check_against_match(events, match_id=match_id, where=where, index=index)
    return ParsedFile(match_id, events, size)


def check_against_match(
    events: Sequence[Any], *, match_id: str, where: str = "", index: int = 0
) -> None:
    """Check a decoded telemetry file (:func:`check_events`) against the match it was asked for.

    A real file holds at least its match's MatchStart, and each event that names a match
    (``matchID`` or ``matchId``) names its own: an empty file, or an event (of any type, known or
    not) naming another match, is a file that does not belong to ``match_id``.

    Args:
        events: the file's events, as :func:`check_events` gives them.
        match_id: the match whose telemetry was asked for.
        where: how errors name the file (default: "telemetry of match <match_id>").
        index: its position in the caller's input (named in errors).

    Raises:
        DocumentError: the file is empty or holds an event of another match.
    """
    where = where or f"telemetry of match {match_id}"
    if not events:
        raise DocumentError(
            f"{where} holds no events ([]); a match's telemetry holds at least its MatchStart, "
            "so this is not the file of the match",
            document_index=index,
        )
    allowed: set[Any] = {match_id, None, ""}
    data = list(map(_DATA, events))
    for key in MATCH_ID_KEYS:
        try:
            foreign = not allowed.issuperset(map(_getter(data, key), data))
        except (TypeError, AttributeError):  # an unhashable value (a list): not this match's
            foreign = True
        if not foreign:
            continue
        for event, item in zip(events, data, strict=True):
            value = member(item, key)
            if not (value is None or value == "" or value == match_id):
                raise DocumentError(
                    f"{where} holds an event of match {value!r} (cursor {event.cursor}, "
                    f"{event.type}, {key}); the file belongs to another match",
                    document_index=index,
                )


_DATA = attrgetter("dataObject")


def _getter(data: list[Any], key: str) -> Any:
    """Reads ``key`` of a ``dataObject`` (dict or typed; typed events all declare both match id
    members, :mod:`matchkit.telemetry.typed`, and are read in C)."""
    if type(data[0]) is dict:
        return lambda item: item.get(key)
    if all(hasattr(type(item), key) for item in (data[0], data[-1])):
        return attrgetter(key)
    return lambda item: member(item, key)


def check_events(
    raw: bytes | str | list[Any], *, where: str = "telemetry", index: int = 0
) -> list[EventRecord]:
    """The events of a file's content (bytes, text or a parsed list), checked, by cursor.

    Raises:
        DocumentError: not a JSON array of ``{cursor, type, dataObject}`` events with unique
            cursors of 64 bits.
    """
    try:
        events: Sequence[EventRecord]
        if isinstance(raw, list):
            events = msgspec.convert(raw, list[Event])
        else:
            # The typed fast path (:mod:`matchkit.telemetry.typed`), else dicts.
            events = decode_typed(raw) or _DECODER.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        pubg = telemetry_shape(raw) == PUBG_EVENTS
        hint = (
            "; it is PUBG telemetry (events keyed by _T and _D): matchkit.telemetry.pubg reads it"
        )
        raise DocumentError(
            f"{where} is not a JSON array of {{cursor, type, dataObject}} events: {error}"
            f"{hint if pubg else ''}",
            document_index=index,
        ) from None
    except RecursionError:
        raise DocumentError(f"{where} is nested too deeply to read", document_index=index) from None
    cursors = _cursor_array(events, where=where, index=index)
    order = cursors.argsort(kind="stable")
    ordered = cursors[order]
    repeated = np.flatnonzero(ordered[1:] == ordered[:-1])
    if len(repeated):
        raise DocumentError(
            f"{where} has two events with cursor {ordered[repeated[0]]}; cursors must be unique",
            document_index=index,
        )
    return list(map(events.__getitem__, order.tolist()))


def _cursor_array(events: Sequence[EventRecord], *, where: str, index: int) -> np.ndarray:
    """The events' cursors as int64 (sorted in C; the tables keep them as Int64).

    Raises:
        DocumentError: a cursor is beyond 64-bit integers.
    """
    cursors = list(map(_BY_CURSOR, events))
    try:
        return np.array(cursors, dtype=np.int64)
    except OverflowError:
        beyond = next(cursor for cursor in cursors if not -(2**63) <= cursor < 2**63)
        raise DocumentError(
            f"{where} has an event with cursor {beyond}, beyond 64-bit integers; a cursor "
            "must fit one",
            document_index=index,
        ) from None


def read_sources(
    telemetry: TelemetrySource | Sequence[TelemetrySource] | Mapping[str, TelemetrySource],
    *,
    match_ids: Sequence[str] | None,
) -> list[ParsedFile]:
    """Every file of ``telemetry`` (one, a sequence, or ``{match_id: file}``), checked.

    Raises:
        InvalidArgumentError: the input shape is not understood, ``match_ids`` does not fit it,
            or one match is given twice.
        DocumentError: a file is broken.
    """
    return list(iter_sources(telemetry, match_ids=match_ids))


def iter_sources(
    telemetry: TelemetrySource | Sequence[TelemetrySource] | Mapping[str, TelemetrySource],
    *,
    match_ids: Sequence[str] | None,
) -> Iterator[ParsedFile]:
    """:func:`read_sources` a file at a time (read and checked as it is taken), so that a
    caller can let each file go before the next is read. The input's shape is checked at once;
    a match given twice is raised after the last file.
    """
    if isinstance(telemetry, Mapping):
        if match_ids is not None:
            raise InvalidArgumentError(
                "match_ids= cannot be combined with a mapping {match_id: telemetry}",
                parameter="match_ids",
            )
        sources: list[Any] = list(telemetry.values())
        ids: list[str | None] = [_checked_id(key) for key in telemetry]
    else:
        sources = _as_list(telemetry)
        if match_ids is None:
            ids = [None] * len(sources)
        else:
            if isinstance(match_ids, str) or not isinstance(match_ids, Sequence):
                match_ids = [match_ids] if isinstance(match_ids, str) else list(match_ids)
            ids = [_checked_id(value) for value in match_ids]
            if len(ids) != len(sources):
                raise InvalidArgumentError(
                    f"match_ids has {len(ids)} ids for {len(sources)} telemetry files",
                    parameter="match_ids",
                )
    return _parsed(sources, ids)


def _parsed(sources: list[Any], ids: list[str | None]) -> Iterator[ParsedFile]:
    seen: set[str] = set()
    repeated: str | None = None
    for index, (source, match_id) in enumerate(zip(sources, ids, strict=True)):
        file = parse_file(source, match_id=match_id, index=index)
        if file.match_id in seen and repeated is None:
            repeated = file.match_id
        seen.add(file.match_id)
        yield file
    if repeated is not None:
        raise InvalidArgumentError(
            f"the telemetry of match {repeated} is given twice", parameter="telemetry"
        )


def _as_list(telemetry: Any) -> list[Any]:
    """One source as a list of one; a sequence of sources as a list."""
    if isinstance(telemetry, str | bytes | bytearray | memoryview | os.PathLike):
        return [telemetry]
    if isinstance(telemetry, list) and telemetry and all(isinstance(e, dict) for e in telemetry):
        return [telemetry]  # one parsed file
    if isinstance(telemetry, Sequence):
        return list(telemetry)
    raise InvalidArgumentError(
        "telemetry must be a path, bytes, JSON text or a parsed list of events, a sequence of "
        f"them, or a mapping {{match_id: telemetry}}; not {type(telemetry).__name__}",
        parameter="telemetry",
    )


def _raw(source: Any, *, index: int) -> tuple[bytes | str | list[Any], str]:
    """The file's content and a label for errors (its path, for a path)."""
    if isinstance(source, list):
        return source, ""
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), ""
    if isinstance(source, str) and source.lstrip()[:1] in ("[", "{"):
        return source.encode(), ""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            return path.read_bytes(), str(path)
        except OSError as error:
            raise InvalidArgumentError(
                f"telemetry file {index} ({path}) cannot be read: {error.strerror or error}",
                parameter="telemetry",
            ) from None
    raise InvalidArgumentError(
        f"telemetry file {index} is a {type(source).__name__}; give a path, bytes, JSON text "
        "or the parsed list of events",
        parameter="telemetry",
    )


def _checked_id(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgumentError(
            f"match id {value!r} must be a non-empty string", parameter="match_ids"
        )
    return value


def _match_id_of(events: Sequence[EventRecord]) -> str | None:
    """The match the events name: MatchStart's matchID, else the first event's."""
    found = None
    for event in events:
        data = event.dataObject
        value = next((found for key in MATCH_ID_KEYS if (found := member(data, key))), None)
        if isinstance(value, str):
            if event.type == MATCH_START:
                return value
            found = found or value
    return found
