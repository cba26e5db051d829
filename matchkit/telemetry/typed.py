"""Typed decoding of telemetry files (msgspec), the parser's fast path.

A file whose events all have a declared type, with only declared members of their declared wire
types, decodes straight into one msgspec Struct per event (a tagged union on ``type``, each with
a Struct for its ``dataObject``), skipping a dict per event; the tables are then read a Struct
field at a time (:func:`members_of`), transposed in C, and each column converted by
:func:`matchkit.telemetry.columns.arrow_chunk` knowing its wire type.

The declaration is strict: a file with anything it does not cover (an unknown event type, an
unknown member, a value of another JSON type) fails to decode here, and :func:`decode_typed`
returns ``None``; the parser then reads that file the general way (dicts), which keeps every
extra member as a column and every unknown event in ``other_events``. Both paths give identical
TelemetryFrames (``tests/telemetry/test_typed.py``).

Declared members default to ``None``: a member a file does not carry reads as missing, as in
the general path.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import Any, Protocol, TypedDict, Union

import msgspec
from msgspec import Struct

from matchkit.telemetry.schema import (
    EVENT_TABLES,
    MATCH_ID_KEYS,
    QUEUE,
    ROUND_FINISHED,
    TABLES,
)

__all__ = [
    "EventRecord",
    "as_builtins",
    "columns_of",
    "decode_typed",
    "is_typed",
    "member",
    "members_of",
]


class EventRecord(Protocol):
    """An event as either path gives it: :class:`matchkit.telemetry.parse.Event` (general, its
    ``dataObject`` a dict) or one of the typed Structs declared here (its ``dataObject`` a
    Struct); read its members with :func:`member`."""

    @property
    def cursor(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def dataObject(self) -> Any: ...  # noqa: N802 (the wire's spelling)


class _StructOptions(TypedDict):
    """The options of a Struct declared here (keywords of ``msgspec.defstruct``)."""

    forbid_unknown_fields: bool
    gc: bool


_OPTIONS: _StructOptions = {"forbid_unknown_fields": True, "gc": False}
# gc=False: decoded events hold no reference cycles, and the collector need not track them.

# Wire type by column kind; members whose wire value is a list (kept as JSON text), a float, a
# boolean or an integer clock in text are read as they come (any JSON value: _JSON).
_WIRE_TYPES: dict[str, Any] = {"Int64": int, "string": str, "datetime": int}
_ANY_MEMBERS = frozenset({"queueTypes", "teamMembers", "leavers", "userIDs", "timeJoinedQueue"})

_JSON: Any = tuple[Any, ...] | dict[str, Any] | str | int | float | bool | None
"""Any JSON value, arrays read as tuples (as are nested lists of objects): a tuple of strings or
of Structs (``gc=False``) is untracked by the garbage collector at its first young collection,
where a list stays tracked, so the lists of the events waiting for a batch (three per
QueueEvent, one per RoundFinishedEvent) would be promoted to the old generation, file after
file, and set off full collections. Their JSON text is the same (:func:`text_value`)."""


def _fields(table: str, exclude: frozenset[str] = frozenset()) -> list[tuple[str, Any, Any]]:
    fields: dict[str, Any] = {}
    for column in TABLES[table].columns:
        if column.section != "attributes" or column.key in exclude or column.key in fields:
            continue
        wire = _WIRE_TYPES.get(column.kind) if column.key not in _ANY_MEMBERS else None
        fields[column.key] = _JSON if wire is None else wire | None
    return [(name, wire, None) for name, wire in fields.items()]


_WIRES: dict[type[Struct], dict[str, type]] = {}
"""Struct -> its members declared of one wire type (int or str, or None)."""


def _declare(name: str, fields: list[tuple[str, Any, Any]]) -> type[Struct]:
    struct = msgspec.defstruct(name, fields, **_OPTIONS)
    _WIRES[struct] = {
        key: wire
        for key, annotation, _ in fields
        for wire in (int, str)
        if annotation == (wire | None)
    }
    return struct


def _nested(name: str, table: str) -> type[Struct]:
    return _declare(name, _fields(table))


_NESTED: dict[str, tuple[str, type[Struct]]] = {
    ROUND_FINISHED: ("playerStats", _nested("PlayerStats", "round_player_stats")),
    QUEUE: ("regionSamples", _nested("RegionSample", "queue_region_samples")),
}


def _event_struct(table: str, event_type: str) -> type[Struct]:
    fields = _fields(table)
    declared = {name for name, *_ in fields}
    fields += [(key, str | None, None) for key in MATCH_ID_KEYS if key not in declared]
    if event_type in _NESTED:
        key, nested = _NESTED[event_type]
        fields.append((key, types.GenericAlias(tuple, (nested, ...)) | None, None))
    title = "".join(part.title() for part in table.split("_"))
    data = _declare(f"{title}Data", fields)
    return msgspec.defstruct(
        f"{title}Event",
        [("cursor", int), ("dataObject", data)],
        tag_field="type",
        tag=event_type,
        namespace={"type": event_type},  # read like the general Event's ``type``
        **_OPTIONS,
    )


_EVENTS = tuple(_event_struct(table.schema.name, table.event_type) for table in EVENT_TABLES)
_EVENT: Any = Union[_EVENTS]  # noqa: UP007 (a union of types built at run time)
_DECODER: msgspec.json.Decoder[list[EventRecord]] = msgspec.json.Decoder(
    types.GenericAlias(list, (_EVENT,))
)


def decode_typed(raw: bytes | str) -> list[EventRecord] | None:
    """The file's events as typed Structs, or ``None`` when it is not of the declared shape."""
    try:
        return _DECODER.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return None


def is_typed(value: object) -> bool:
    """Whether ``value`` is a typed ``dataObject`` (or nested item), not a dict."""
    return isinstance(value, Struct)


def member(data: Any, key: str) -> Any:
    """A member of a ``dataObject`` (dict or typed), ``None`` when absent."""
    if type(data) is dict:
        return data.get(key)
    return getattr(data, key, None)


def members_of(
    items: Sequence[Any],
) -> tuple[dict[str, list[Any]], dict[str, type]] | None:
    """Member name -> its value in each item (:func:`columns_of`), when every item is a Struct
    of one type (else ``None``), and the members of one declared wire type (int or str, with
    ``None``), which :func:`matchkit.telemetry.columns.arrow_chunk` reads without a type scan.

    A match id member missing from every item is left out, as a dict that never carries it
    would (for every other member a column of ``None`` reads the same)."""
    if not items or len(set(map(type, items))) != 1 or not is_typed(items[0]):
        return None
    found = {
        name: values
        for name, values in columns_of(items).items()
        if name not in MATCH_ID_KEYS or values.count(None) != len(values)
    }
    return found, _WIRES[type(items[0])]


_ROWS_AT_ONCE = 256
"""Structs transposed at once: their tuples die young (many at once would outlive collections
of the young generation and fill the older ones), and stay in the processor's cache."""


def columns_of(items: Sequence[Struct]) -> dict[str, list[Any]]:
    """Field name -> its value in each item, for Structs of one type (at least one): read
    ``_ROWS_AT_ONCE`` Structs at a time as tuples, transposed in C."""
    names = type(items[0]).__struct_fields__
    columns: list[list[Any]] = [[] for _ in names]
    astuple = msgspec.structs.astuple
    for start in range(0, len(items), _ROWS_AT_ONCE):
        rows = map(astuple, items[start : start + _ROWS_AT_ONCE])
        for column, values in zip(columns, zip(*rows, strict=True), strict=True):
            column += values
    return dict(zip(names, columns, strict=True))


def as_builtins(items: Sequence[Any]) -> list[Any]:
    """Items as dicts (typed ones as the general path reads them: arrays as lists), for the
    general path."""
    return [_DICT.decode(_ENCODER.encode(item)) if is_typed(item) else item for item in items]


_ENCODER = msgspec.json.Encoder()
_DICT = msgspec.json.Decoder(dict[str, Any])
