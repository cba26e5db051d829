"""Checked telemetry files -> the tables of TelemetryFrames.

Events of all files are first sorted into one bucket per event type (a single pass in cursor
order, which is also where a death's round is counted), then each table is built column by
column over all its events at once: one list of values per column, converted in C by the
normalizer's column conversion (:mod:`matchkit.normalize.columns`). Events decoded by the typed
fast path (:mod:`matchkit.telemetry.typed`) are transposed a file at a time into those lists,
and their integer and text columns converted without a type scan; a type with any general
(dict) file is read entirely the general way, so both give identical tables. Values that do
not fit their column become missing and are reported in ``problems``, as in MatchFrames.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import groupby
from operator import attrgetter, itemgetter, ne
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from matchkit.errors import DocumentError
from matchkit.model.schema import DATETIME_DTYPE, TableSchema, empty_frame
from matchkit.normalize.assemble import snake_case
from matchkit.normalize.columns import convert, text_value, to_arrow
from matchkit.normalize.problems import Problems
from matchkit.telemetry.parse import ParsedFile
from matchkit.telemetry.schema import (
    DEATH,
    EVENT_TABLES,
    MATCH_ID_KEYS,
    QUEUE,
    ROUND_FINISHED,
    TABLES,
)
from matchkit.telemetry.typed import (
    as_builtins,
    columns_of,
    is_typed,
    member,
    members_of,
    transposed,
    typed_members,
)

__all__ = ["CLOCK_COLUMNS", "build_tables"]

CLOCK_COLUMNS = frozenset({("queue_events", "time_joined_queue")})
"""Integer clocks kept exactly: Int64, or text of digits when a value does not fit 64 bits."""

_INT64_MAX = 2**63 - 1
_KNOWN_TYPES = {table.event_type: table for table in EVENT_TABLES}
_DERIVED_WIRES = {"match_id": str, "cursor": int}  # always text / integers (checked on input)
_CURSOR = attrgetter("cursor")
_DATA = attrgetter("dataObject")
_TYPE = attrgetter("type")


class _Bucket:
    """The events of one type, column-wise: their match, cursor and dataObject.

    While every file's events of the type are typed Structs (the fast path), their members are
    also read into ``columns`` a file at a time (while the file is fresh in memory); one
    general file (dicts) drops them, and the members are then read from ``data`` as dicts.
    """

    __slots__ = ("columns", "cursors", "data", "general", "match_ids", "rounds")

    def __init__(self) -> None:
        self.match_ids: list[str] = []
        self.cursors: list[int] = []
        self.data: list[Any] = []
        self.rounds: list[int | None] = []
        self.columns: dict[str, list[Any]] | None = None
        self.general = False

    def add(self, match_id: str, events: list[Any]) -> None:
        """Append one file's events of the bucket's type."""
        self.match_ids += [match_id] * len(events)
        self.cursors += map(_CURSOR, events)
        data = list(map(_DATA, events))
        self.data += data
        if self.general or not is_typed(data[0]):
            self.general, self.columns = True, None
        elif self.columns is None:
            self.columns = columns_of(data)
        else:
            for values, more in zip(self.columns.values(), transposed(data), strict=True):
                values += more

    def members(self) -> tuple[dict[str, list[Any]], dict[str, type]]:
        """Member name -> its value in each event, and the members of one wire type."""
        if self.columns is None:
            return _members(self.data)
        return typed_members(self.columns, type(self.data[0]))


def build_tables(files: Sequence[ParsedFile]) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """Every table of TelemetryFrames from checked files, and the problems found.

    Raises:
        DocumentError: an event names another match than its file's, or a
            RoundFinishedEvent's ``playerStats`` or a QueueEvent's ``regionSamples`` is not a
            list of objects (naming the match).
    """
    buckets: dict[str, _Bucket] = {}
    for file in files:
        _sort_into(file, buckets)
    problems = Problems()
    tables: dict[str, pd.DataFrame] = {}
    for table in EVENT_TABLES:
        bucket = buckets.get(table.event_type) or _Bucket()
        tables[table.schema.name] = _event_table(table.schema, bucket, problems)
    rounds = buckets.get(ROUND_FINISHED) or _Bucket()
    tables["round_player_stats"] = _nested_table(
        TABLES["round_player_stats"], rounds, "playerStats", "round", problems
    )
    queue = buckets.get(QUEUE) or _Bucket()
    tables["queue_region_samples"] = _nested_table(
        TABLES["queue_region_samples"], queue, "regionSamples", "position", problems
    )
    others = {kind: bucket for kind, bucket in buckets.items() if kind not in _KNOWN_TYPES}
    tables["other_events"] = _other_events(others, problems)
    tables["files"] = _files_table(files, tables, problems)
    return {name: tables[name] for name in TABLES}, list(problems.texts())


def _sort_into(file: ParsedFile, buckets: dict[str, _Bucket]) -> None:
    """Append a file's events to the buckets of their types; date deaths by round."""
    # A stable sort by type keeps each type's events in cursor order.
    by_type = {
        kind: list(events) for kind, events in groupby(sorted(file.events, key=_TYPE), _TYPE)
    }
    for kind, events in by_type.items():
        bucket = buckets.get(kind)
        if bucket is None:
            bucket = buckets[kind] = _Bucket()
        bucket.add(file.match_id, events)
    deaths = by_type.get(DEATH)
    if deaths:
        # A death belongs to the round whose RoundFinishedEvent is the first after it (none
        # after it, or no rounds at all as in Royale: no round).
        finished = by_type.get(ROUND_FINISHED, [])
        ends = [event.cursor for event in finished]
        numbers = [member(event.dataObject, "round") for event in finished]
        positions = [bisect_left(ends, event.cursor) for event in deaths]
        buckets[DEATH].rounds += [
            numbers[position] if position < len(numbers) else None for position in positions
        ]


def _files_table(
    files: Sequence[ParsedFile], tables: dict[str, pd.DataFrame], problems: Problems
) -> pd.DataFrame:
    """One row per file: its events, cursor span and time span (from the event tables)."""
    ids = [file.match_id for file in files]
    times = pd.concat(
        [table[["match_id", "time"]] for table in tables.values() if len(table) and "time" in table]
        or [pd.DataFrame({"match_id": [], "time": []})]
    )
    span = times.groupby("match_id", sort=False)["time"].agg(["min", "max"]).reindex(ids)
    return pd.DataFrame(
        {
            "match_id": pd.array(ids, dtype="string"),
            "events": pd.array([len(file.events) for file in files], dtype="Int64"),
            "first_cursor": pd.array(
                [file.events[0].cursor if file.events else None for file in files], dtype="Int64"
            ),
            "last_cursor": pd.array(
                [file.events[-1].cursor if file.events else None for file in files], dtype="Int64"
            ),
            "started_at": span["min"].astype(DATETIME_DTYPE).array,
            "ended_at": span["max"].astype(DATETIME_DTYPE).array,
        }
    )


def _event_table(schema: TableSchema, bucket: _Bucket, problems: Problems) -> pd.DataFrame:
    rows = len(bucket.cursors)
    if not rows:
        return empty_frame(schema)
    members, wires = bucket.members()
    _check_match_ids(members, bucket, schema.name)
    data: dict[str, Any] = {}
    consumed = set(MATCH_ID_KEYS)
    for column in schema.columns:
        label = f"{schema.name}.{column.name}"
        wire: type | None = None
        values: list[Any]
        if column.name == "match_id":
            values, wire = bucket.match_ids, str
        elif column.name == "cursor":
            values, wire = bucket.cursors, int
        elif column.section == "derived":  # a death's round
            values = bucket.rounds
        else:
            consumed.add(column.key)
            values = members.get(column.key) or [None] * rows
            wire = wires.get(column.key)
        data[column.name] = _column(
            schema.name, column.name, column.kind, values, label, problems, wire=wire
        )
    if schema.name == "rounds":
        consumed.add("playerStats")
    elif schema.name == "queue_events":
        consumed.add("regionSamples")
    data.update(_extras(schema, members, consumed, problems))
    return pd.DataFrame(data)


def _members(items: list[Any]) -> tuple[dict[str, list[Any]], dict[str, type]]:
    """Member name -> its value in each object (None where absent): read a Struct field at a
    time when every object is a typed Struct of one type (the fast path; with the members of
    one declared wire type), else read in C per member when every object has it (the usual
    case)."""
    typed = members_of(items)
    if typed is not None:
        return typed
    items = as_builtins(items)
    members = {}
    for name in set().union(*items):
        try:
            members[name] = list(map(itemgetter(name), items))
        except KeyError:
            members[name] = [item.get(name) for item in items]
    return members, {}


def _check_match_ids(members: dict[str, list[Any]], bucket: _Bucket, table: str) -> None:
    """Every event names its file's match (or none)."""
    for key in MATCH_ID_KEYS:
        values = members.get(key)
        if values is None or not any(map(ne, values, bucket.match_ids)):
            continue
        for position, (value, match_id) in enumerate(zip(values, bucket.match_ids, strict=True)):
            if value != match_id and value not in (None, ""):
                raise DocumentError(
                    f"telemetry of match {match_id} holds an event of match {value!r} (cursor "
                    f"{bucket.cursors[position]}, {table}); the file belongs to another match"
                )


def _nested_table(
    schema: TableSchema, bucket: _Bucket, key: str, counter: str, problems: Problems
) -> pd.DataFrame:
    """Rows from a list of objects inside each event (playerStats, regionSamples)."""
    match_ids: list[str] = []
    cursors: list[int] = []
    users: list[Any] = []
    numbers: list[Any] = []
    items: list[Any] = []
    rows = len(bucket.cursors)
    event_members = bucket.members()[0] if rows else {}
    typed = bucket.columns is not None
    round_numbers = event_members.get("round") or [None] * rows
    queued = event_members.get("userId") or [None] * rows
    for match_id, cursor, nested, number, user in zip(
        bucket.match_ids,
        bucket.cursors,
        event_members.get(key) or [None] * rows,
        round_numbers,
        queued,
        strict=True,
    ):
        if nested is None:
            continue
        # Typed: declared as a list of nested Structs.
        if not typed and (
            not isinstance(nested, list) or not all(isinstance(item, dict) for item in nested)
        ):
            raise DocumentError(
                f"telemetry of match {match_id}: the {key} of the event with cursor {cursor} "
                "is not a list of objects"
            )
        count = len(nested)
        match_ids += [match_id] * count
        cursors += [cursor] * count
        if counter == "round":
            numbers += [number] * count
        else:
            numbers += range(count)
            users += [user] * count
        items += nested
    if not items:
        return empty_frame(schema)
    derived = {"match_id": match_ids, "cursor": cursors, "user_id": users, counter: numbers}
    data_columns: dict[str, Any] = {}
    consumed: set[str] = set()
    members, wires = _members(items)
    for column in schema.columns:
        label = f"{schema.name}.{column.name}"
        if column.section == "derived":
            values = derived[column.name]
        else:
            consumed.add(column.key)
            values = members.get(column.key) or [None] * len(items)
        data_columns[column.name] = _column(
            schema.name,
            column.name,
            column.kind,
            values,
            label,
            problems,
            wire=_DERIVED_WIRES.get(column.name)
            if column.section == "derived"
            else wires.get(column.key),
        )
    data_columns.update(_extras(schema, members, consumed, problems))
    return pd.DataFrame(data_columns)


def _other_events(buckets: dict[str, _Bucket], problems: Problems) -> pd.DataFrame:
    """Events of types no table declares, kept whole (dataObject as JSON text)."""
    schema = TABLES["other_events"]
    if not buckets:
        return empty_frame(schema)
    match_ids: list[str] = []
    cursors: list[int] = []
    times: list[Any] = []
    kinds: list[str] = []
    texts: list[str | None] = []
    for kind in sorted(buckets):
        bucket = buckets[kind]
        match_ids += bucket.match_ids
        cursors += bucket.cursors
        times += [item.get("time") for item in bucket.data]
        kinds += [kind] * len(bucket.cursors)
        texts += [text_value(item) for item in bucket.data]
    frame = pd.DataFrame(
        {
            "match_id": pd.array(match_ids, dtype="string"),
            "cursor": pd.array(cursors, dtype="Int64"),
            "time": _times(times, label="other_events.time", problems=problems),
            "event_type": pd.array(kinds, dtype="string"),
            "data": pd.array(texts, dtype="string"),
        }
    )
    return frame.sort_values(["match_id", "cursor"], kind="stable").reset_index(drop=True)


def _column(
    table: str,
    name: str,
    kind: str,
    values: list[Any],
    label: str,
    problems: Problems,
    *,
    wire: type | None = None,
) -> Any:
    if kind == "datetime":
        return _times(values, label=label, problems=problems, wire=wire)
    if (table, name) in CLOCK_COLUMNS:
        return _clock(values, label=label, problems=problems)
    array = _arrow(values, wire=wire)
    return convert(array, kind, label=label, problems=problems)  # type: ignore[arg-type]


def _arrow(values: list[Any], *, wire: type | None = None) -> pa.Array:
    """:func:`~matchkit.normalize.columns.to_arrow` of the values, in one pass when they are
    known to be of one wire type (``int`` or ``str``, with ``None``: the typed path declared
    them): integers read by numpy, text by Arrow, as to_arrow would have typed them. Anything
    else (no wire type, ``None`` among integers, integers beyond 64 bits, only ``None``) as
    there."""
    if wire is int:
        try:
            return pa.array(np.fromiter(values, dtype=np.int64, count=len(values)))
        except (TypeError, OverflowError):
            pass
    elif wire is str:
        array = pa.array(values, type=pa.string())
        if array.null_count < len(array):
            return array
    return to_arrow(values)


def _extras(
    schema: TableSchema, members: dict[str, list[Any]], consumed: set[str], problems: Problems
) -> dict[str, Any]:
    """Members no column declares, as extra columns (snake_case; the wire name when taken)."""
    taken = set(schema.column_names)
    extras: dict[str, Any] = {}
    for key in sorted(set(members) - consumed):
        name = snake_case(key)
        if name in taken:
            name = key if key not in taken else f"{name}_extra"
        taken.add(name)
        extras[name] = convert(
            _arrow(members[key]), None, label=f"{schema.name}.{name}", problems=problems
        )
    return dict(sorted(extras.items()))


def _times(values: list[Any], *, label: str, problems: Problems, wire: type | None = None) -> Any:
    """Milliseconds since the epoch -> tz-aware UTC timestamps."""
    millis = convert(_arrow(values, wire=wire), "Int64", label=label, problems=problems)
    stamps = pd.to_datetime(pd.Series(millis), unit="ms", utc=True)
    return stamps.astype(DATETIME_DTYPE).array


def _clock(values: list[Any], *, label: str, problems: Problems) -> Any:
    """An integer clock (numbers or text of digits): Int64 when every value fits, else text."""
    numbers: list[int | None] = []
    for value in values:
        if value is None:
            numbers.append(None)
        elif type(value) is int:
            numbers.append(value)
        elif isinstance(value, str) and value.isascii() and value.isdigit():
            numbers.append(int(value))
        else:
            break
    if len(numbers) == len(values) and all(n is None or n <= _INT64_MAX for n in numbers):
        mask = np.fromiter((n is None for n in numbers), dtype=bool, count=len(numbers))
        data = np.fromiter((n or 0 for n in numbers), dtype=np.int64, count=len(numbers))
        return pd.arrays.IntegerArray(data, mask)
    problems.add(
        "unfit_values",
        label,
        sum(value is not None for value in values),
        f"{label}: values beyond 64-bit integers or not digits; the column is kept as text",
    )
    return pd.array([None if v is None else text_value(v) for v in values], dtype="string")
