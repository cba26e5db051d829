"""A PUBG telemetry file's bytes -> its events, split by type, every event's time and match read.

The file is a JSON array of events, each an object with its type (``_T``), its time (``_D``, an
ISO 8601 time with its zone) and members of its type (``rst/telemetry.rst``). Two passes of
msgspec over the bytes, both of which skip what they do not keep, read it whole:

- every event as its raw JSON text (``msgspec.Raw``: a slice of the bytes, not a copy), which
  the builder later decodes a type at a time (:class:`EventTexts`);
- every event's ``_T``, ``_D`` and (files before v2.0.0) ``common.matchId``, a slice of the
  events at a time (:data:`HEADS_AT_ONCE`).

Anything else is a :class:`matchkit.errors.DocumentError` that names the file and, where one
event is at fault, its index: bytes that are not JSON or end early, a top level that is not an
array, an event that is not an object or has no ``_T`` or ``_D``, a ``_D`` that is not a time. The
matches the events name are checked against the file's by :mod:`matchkit.telemetry.pubg.check`.

A file not yet held whole (a path, gzip bytes) is split a piece at a time instead
(:mod:`matchkit.telemetry.pubg.pieces`), into the same :class:`SplitFile`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any

import msgspec
import numpy as np
import pyarrow as pa

from matchkit.errors import DocumentError
from matchkit.normalize import ARROW_POOL

__all__ = [
    "HEADS_AT_ONCE",
    "EventTexts",
    "SplitFile",
    "picked",
    "piece_heads",
    "split_events",
    "type_groups",
]


class _Common(msgspec.Struct, gc=False):
    matchId: str | None = None  # noqa: N815 (the wire's spelling)


class _Head(msgspec.Struct, gc=False):
    """What the split reads of every event (other members are skipped)."""

    type: str = msgspec.field(name="_T")
    time: str = msgspec.field(name="_D")
    common: _Common | None = None


class _PlainHead(msgspec.Struct, gc=False):
    """A head without ``common`` (for events whose ``common`` is not an object)."""

    type: str = msgspec.field(name="_T")
    time: str = msgspec.field(name="_D")


_TYPE = attrgetter("type")
_RAWS = msgspec.json.Decoder(list[msgspec.Raw])
_HEAD = msgspec.json.Decoder(_Head)
_PLAIN_HEAD = msgspec.json.Decoder(_PlainHead)
_HEADS = msgspec.json.Decoder(list[_Head])
HEADS_AT_ONCE = 1_024
"""Events whose heads are decoded at a time."""
_AT = re.compile(r"- at `\$([^`]*)`")


class EventTexts:
    """Each event type's events as their JSON text (``msgspec.Raw``), in file order.

    The table that reads a type takes its texts (:meth:`take`, once), so that a file read in
    pieces, whose events are held only here, lets each type's text go once it is read.
    """

    def __init__(self, by_type: dict[str, list[msgspec.Raw]]) -> None:
        self._by_type = by_type

    def take(self, event_type: str) -> list[msgspec.Raw]:
        """The events of ``event_type``, given up by this object (empty: none, or taken)."""
        return self._by_type.pop(event_type, [])

    def peek(self, event_type: str) -> list[msgspec.Raw]:
        """The events of ``event_type``, kept here for the table that takes them."""
        return self._by_type.get(event_type, [])


@dataclass(frozen=True)
class SplitFile:
    """A file's events, split by type.

    Attributes:
        events: how many the file holds.
        texts: every event's JSON text, by type.
        codes: every event's type, as its position in ``names``.
        names: the event types, in order of first appearance.
        micros: every event's time, microseconds since the epoch (UTC).
        groups: event type -> the indices of its events, in file order (types in order of first
            appearance); ``texts`` holds them in the same order.
        match_ids: the match each event names in ``common.matchId`` (files before v2.0.0),
            ``None`` where none.
        size: the file's size in bytes (decompressed).
    """

    events: int
    texts: EventTexts
    codes: np.ndarray
    names: list[str]
    micros: np.ndarray
    groups: dict[str, np.ndarray]
    match_ids: frozenset[str]
    size: int


def split_events(content: bytes | bytearray, *, where: str, index: int) -> SplitFile:
    """Split a file's JSON bytes into its events.

    Args:
        content: the file's bytes (decompressed).
        where: how errors name the file.
        index: its position in the caller's input (errors' ``document_index``).

    Raises:
        DocumentError: see the module's docs.
    """
    try:
        raws = _RAWS.decode(content)
    except msgspec.ValidationError:
        raise DocumentError(
            f"{where} is not a JSON array of events (its top level is not an array)",
            document_index=index,
        ) from None
    except msgspec.DecodeError as error:
        raise DocumentError(f"{where} is not JSON: {error}", document_index=index) from None
    codes = np.empty(len(raws), dtype=np.int32)
    micros = np.empty(len(raws), dtype=np.int64)
    names: dict[str, int] = {}
    match_ids: set[str] = set()
    for start in range(0, len(raws), HEADS_AT_ONCE):
        # A slice of the events at a time: their heads (two strings and a Struct each, several
        # times the size of their bytes) never all live at once.
        heads = _heads(raws[start : start + HEADS_AT_ONCE], where=where, index=index, offset=start)
        end = start + len(heads)
        codes[start:end], micros[start:end] = _read_heads(
            heads, names, match_ids, where=where, index=index, offset=start
        )
    groups = type_groups(codes, list(names))
    texts = EventTexts({kind: picked(raws, indices) for kind, indices in groups.items()})
    return SplitFile(
        len(raws), texts, codes, list(names), micros, groups, frozenset(match_ids), len(content)
    )


def piece_heads(
    text: bytes | bytearray | memoryview,
    raws: list[msgspec.Raw],
    names: dict[str, int],
    match_ids: set[str],
    *,
    where: str,
    index: int,
    offset: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The types (as positions in ``names``, new types added in order of first appearance) and
    times of a piece of a file's events (``raws``, decoded from ``text``, their JSON array, whose
    first is the file's event ``offset``); the matches they name added to ``match_ids``.

    Raises:
        DocumentError: as :func:`split_events` (the event named by its index in the file).
    """
    try:  # one pass over the piece (each event on its own only to name one at fault)
        heads: list[Any] = _HEADS.decode(text)
    except msgspec.ValidationError:
        heads = _heads(raws, where=where, index=index, offset=offset)
    return _read_heads(heads, names, match_ids, where=where, index=index, offset=offset)


def _read_heads(
    heads: list[Any],
    names: dict[str, int],
    match_ids: set[str],
    *,
    where: str,
    index: int,
    offset: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The types (as positions in ``names``, new types added in order of first appearance) and
    times of decoded heads (the first is the file's event ``offset``); the matches they name
    added to ``match_ids``."""
    types = list(map(_TYPE, heads))
    for kind in dict.fromkeys(types):
        names.setdefault(kind, len(names))
    codes = np.fromiter(map(names.__getitem__, types), dtype=np.int32, count=len(types))
    micros = _times([head.time for head in heads], where=where, index=index, offset=offset)
    commons = [getattr(head, "common", None) for head in heads]
    match_ids.update(common.matchId for common in commons if common and common.matchId)
    return codes, micros


def type_groups(codes: np.ndarray, names: list[str]) -> dict[str, np.ndarray]:
    """Event type -> the indices of its events (``codes``: each event's type's position in
    ``names``, every name used)."""
    if not names:
        return {}
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=len(names)))[:-1]
    return dict(zip(names, np.split(order, bounds), strict=True))


def picked(raws: Sequence[msgspec.Raw], indices: np.ndarray) -> list[msgspec.Raw]:
    """The events at ``indices``."""
    if len(indices) < 2:
        return [raws[index] for index in indices.tolist()]
    return list(itemgetter(*indices.tolist())(raws))


def _heads(raws: list[msgspec.Raw], *, where: str, index: int, offset: int) -> list[Any]:
    """The heads of a slice of events, each decoded from its own slice of the file (faster than
    joining them into one array first). A ``common`` that is not an object is no reason to
    refuse the file: its table reads it as the value it is (and reports it).

    Raises:
        DocumentError: an event is not an object, or has no ``_T`` or ``_D`` (naming it).
    """
    try:
        return list(map(_HEAD.decode, raws))
    except msgspec.ValidationError:
        pass
    heads: list[Any] = []
    for position, raw in enumerate(raws):
        try:
            heads.append(_HEAD.decode(raw))
            continue
        except msgspec.ValidationError as error:
            message = str(error)
        if "$.common" in message:
            try:
                heads.append(_PLAIN_HEAD.decode(raw))
                continue
            except msgspec.ValidationError as error:
                message = str(error)
        raise _event_error(message, where=where, index=index, event=offset + position)
    return heads


def _event_error(message: str, *, where: str, index: int, event: int) -> DocumentError:
    """The DocumentError of an event msgspec refused (``- at `$.member``` ends its message)."""
    found = _AT.search(message)
    member = found.group(1) if found else ""
    if "missing required field `_T`" in message:
        what = "has no _T (its type)"
    elif "missing required field `_D`" in message:
        what = "has no _D (its time)"
    elif not member and "Expected `object`" in message:
        what = "is not a JSON object"
    else:
        at = f" at {member}" if member else ""
        what = f"is not a telemetry event ({message.split(' - at ')[0]}{at})"
    return DocumentError(f"{where}: event {event} {what}", document_index=index)


def _times(texts: list[str], *, where: str, index: int, offset: int) -> np.ndarray:
    """ISO 8601 times with a zone (PUBG writes ``2025-07-12T17:12:02.807Z``, and 7 decimals in
    LogMatchDefinition) -> microseconds since the epoch, UTC.

    Raises:
        DocumentError: a time is not one (naming the first such event).
    """
    strings = pa.array(texts, pa.string(), memory_pool=ARROW_POOL)
    try:
        nanos = strings.cast(pa.timestamp("ns", tz="UTC"), memory_pool=ARROW_POOL)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        bad = _first_bad_time(texts)
        raise DocumentError(
            f"{where}: event {offset + bad} has _D {texts[bad]!r}, not an ISO 8601 time with "
            "its zone",
            document_index=index,
        ) from None
    return np.floor_divide(nanos.cast(pa.int64(), memory_pool=ARROW_POOL).to_numpy(), 1000)


def _first_bad_time(texts: list[str]) -> int:
    """The index of the first text Arrow cannot read as a time with a zone."""
    low, high = 0, len(texts)  # the first bad one is in [low, high)
    while high - low > 1:
        middle = (low + high) // 2
        try:
            strings = pa.array(texts[low:middle], pa.string(), memory_pool=ARROW_POOL)
            strings.cast(pa.timestamp("ns", tz="UTC"), memory_pool=ARROW_POOL)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            high = middle
        else:
            low = middle
    return low
