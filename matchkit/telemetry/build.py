"""Checked telemetry files -> the tables of TelemetryFrames.

Files are added one at a time (:class:`TableBuilder`). Their events wait in one list per event
type (a death's round is counted there, per file), and every few thousand events
(:data:`BATCH_EVENTS`) the waiting events of the most numerous types become columns, one Arrow
array per column and batch, until fewer than a :data:`LEFT_WAITING`-th of a batch waits: a rare
type waits for a batch of its own size rather than paying a call per column for a handful of
rows. Events decoded by the typed fast path (:mod:`matchkit.telemetry.typed`) are transposed
field by field in C, their integer and text members converted without a type scan; dict events
(the general path) are read member by member. Python lists hold a value per row only for the
events waiting, fewer than a batch: every full collection of the garbage collector would walk
it. At the end the chunks of each column are cast to one type
(:func:`matchkit.normalize.unify`, which does not depend on where chunks were cut) and
converted once by the normalizer's column conversion, so both paths, and any batch size, give
identical tables. Values that do not fit their column become missing and are reported in
``problems``, as in MatchFrames.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter, itemgetter
from typing import Any

import pandas as pd
import pyarrow as pa

from matchkit.errors import DocumentError
from matchkit.model.schema import TableSchema, empty_frame
from matchkit.model.text import text_value
from matchkit.normalize import Problems, convert, nulls, snake_case, to_arrow
from matchkit.telemetry.columns import arrow_chunk, clock_array, joined, timestamps
from matchkit.telemetry.files import FileCounts, files_table
from matchkit.telemetry.parse import ParsedFile
from matchkit.telemetry.schema import (
    DEATH,
    EVENT_TABLES,
    MATCH_ID_KEYS,
    QUEUE,
    ROUND_FINISHED,
    TABLES,
)
from matchkit.telemetry.typed import as_builtins, member, members_of

__all__ = ["BATCH_EVENTS", "CLOCK_COLUMNS", "TableBuilder", "build_tables"]

CLOCK_COLUMNS = frozenset({("queue_events", "time_joined_queue")})
"""Integer clocks kept exactly: Int64, or text of digits when a value does not fit 64 bits."""

BATCH_EVENTS = 4_096
"""Events waiting when some become columns: enough for C to do the work, few enough to stay
young."""

LEFT_WAITING = 4
"""Once a batch is full, the most numerous types become columns until fewer than a
``LEFT_WAITING``-th of a batch waits. Converting every type with every batch cut the rare ones
into batches of a few rows (the bench's 1,000 files: 48 batches of 119 QueueEvents, against 19
of 302), each paying a call per column."""


_KNOWN_TYPES = {table.event_type: table.schema for table in EVENT_TABLES}
_NESTED = {  # event type -> (table, member holding the list, what numbers its rows)
    ROUND_FINISHED: ("round_player_stats", "playerStats", "round"),
    QUEUE: ("queue_region_samples", "regionSamples", "position"),
}
_DERIVED_WIRES = {"match_id": str, "cursor": int}  # always text / integers (checked on input)
_CURSOR = attrgetter("cursor")
_DATA = attrgetter("dataObject")


class _Waiting:
    """The events of one type waiting for the next batch, with their match (and round)."""

    __slots__ = ("events", "match_ids", "rounds")

    def __init__(self) -> None:
        self.match_ids: list[str] = []
        self.events: list[Any] = []
        self.rounds: list[int | None] = []


class _Chunks:
    """A table's columns so far: Arrow chunks per column (one per batch), the raw values of
    integer clocks, and members no column declares (extras), by batch."""

    __slots__ = ("arrays", "clocks", "extras", "schema", "sizes")

    def __init__(self, schema: TableSchema) -> None:
        self.schema = schema
        self.arrays: dict[str, list[pa.Array]] = {column.name: [] for column in schema.columns}
        self.clocks: dict[str, list[Any]] = {}
        self.extras: dict[str, dict[int, pa.Array]] = {}
        self.sizes: list[int] = []

    def add(
        self,
        derived: Mapping[str, Sequence[Any]],
        members: Mapping[str, Sequence[Any]],
        wires: dict[str, type] | None,
        consumed: Iterable[str],
    ) -> None:
        """Append one batch: derived values by column name, members by key (of one declared
        wire type by ``wires``, ``None`` for dicts)."""
        rows = len(derived["match_id"])
        batch = len(self.sizes)
        self.sizes.append(rows)
        taken = set(consumed)
        for column in self.schema.columns:
            if column.section == "derived":
                values, wire = derived[column.name], _DERIVED_WIRES.get(column.name)
            else:
                taken.add(column.key)
                values = members.get(column.key) or [None] * rows
                wire = wires.get(column.key) if wires else None
            if (self.schema.name, column.name) in CLOCK_COLUMNS:
                self.clocks.setdefault(column.name, []).extend(values)
            else:
                self.arrays[column.name].append(arrow_chunk(values, wire=wire))
        for key in members.keys() - taken:
            self.extras.setdefault(key, {})[batch] = to_arrow(members[key])

    def frame(self, problems: Problems) -> pd.DataFrame:
        """The table: every column converted once, over all its chunks."""
        schema = self.schema
        if not sum(self.sizes):
            return empty_frame(schema)
        data: dict[str, Any] = {}
        for column in schema.columns:
            label = f"{schema.name}.{column.name}"
            if column.name in self.clocks:
                data[column.name] = clock_array(
                    self.clocks[column.name], label=label, problems=problems
                )
                continue
            array = joined(self.arrays[column.name])
            if column.kind == "datetime":
                data[column.name] = timestamps(array, label=label, problems=problems)
            else:
                data[column.name] = convert(array, column.kind, label=label, problems=problems)
        taken = set(schema.column_names)
        extras: dict[str, Any] = {}
        for key in sorted(self.extras):
            name = snake_case(key)
            if name in taken:
                name = key if key not in taken else f"{name}_extra"
            taken.add(name)
            chunks = self.extras[key]
            array = joined(
                [
                    chunks[batch] if batch in chunks else nulls(size)
                    for batch, size in enumerate(self.sizes)
                ]
            )
            extras[name] = convert(array, None, label=f"{schema.name}.{name}", problems=problems)
        data.update(sorted(extras.items()))
        return pd.DataFrame(data)


class TableBuilder:
    """Builds the tables of TelemetryFrames from checked files, added one at a time (each file
    already checked against its match: :func:`matchkit.telemetry.parse.check_against_match`).

    Errors an added file causes (a ``playerStats`` that is not a list of objects) are raised by
    :meth:`finish`, table by table in the order of the tables and file by file within one,
    whatever the batches.
    """

    def __init__(self, *, batch_events: int | None = None) -> None:
        self.batch_events = BATCH_EVENTS if batch_events is None else batch_events
        self._waiting: dict[str, _Waiting] = {}
        self._count = 0
        self._chunks = {name: _Chunks(TABLES[name]) for name in TABLES}
        self._others: dict[str, _Waiting] = {}
        self._files: list[FileCounts] = []
        self._errors: dict[str, DocumentError] = {}

    @property
    def waiting(self) -> int:
        """How many events wait to be turned into columns (fewer than ``batch_events``)."""
        return self._count

    def add(self, file: ParsedFile) -> None:
        """Add one file's events (converted once enough events wait)."""
        events = file.events
        self._files.append(
            (
                file.match_id,
                len(events),
                events[0].cursor if events else None,
                events[-1].cursor if events else None,
            )
        )
        by_type: dict[str, list[Any]] = {}  # each type's events in cursor order
        for event in events:
            group = by_type.get(event.type)
            if group is None:
                by_type[event.type] = [event]
            else:
                group.append(event)
        for kind, group in by_type.items():
            into = self._waiting if kind in _KNOWN_TYPES else self._others
            waiting = into.get(kind)
            if waiting is None:
                waiting = into[kind] = _Waiting()
            waiting.match_ids += [file.match_id] * len(group)
            waiting.events += group
        deaths = by_type.get(DEATH)
        if deaths:
            # A death belongs to the round whose RoundFinishedEvent is the first after it (none
            # after it, or no rounds at all as in Royale: no round).
            finished = by_type.get(ROUND_FINISHED, [])
            ends = [event.cursor for event in finished]
            numbers = [member(event.dataObject, "round") for event in finished]
            self._waiting[DEATH].rounds += [
                numbers[position] if position < len(numbers) else None
                for position in (bisect_left(ends, event.cursor) for event in deaths)
            ]
        self._count += len(events)
        if self._count >= self.batch_events:
            self._convert_most_numerous()

    def finish(self) -> tuple[dict[str, pd.DataFrame], list[str]]:
        """Every table, and the problems found.

        Raises:
            DocumentError: a RoundFinishedEvent's ``playerStats`` or a QueueEvent's
                ``regionSamples`` is not a list of objects (naming the match).
        """
        self._convert()
        for name in TABLES:
            if name in self._errors:
                raise self._errors[name]
        problems = Problems()
        tables: dict[str, pd.DataFrame] = {}
        for table in EVENT_TABLES:
            tables[table.schema.name] = self._chunks[table.schema.name].frame(problems)
        for name, *_ in _NESTED.values():
            tables[name] = self._chunks[name].frame(problems)
        tables["other_events"] = _other_events(self._others, problems)
        tables["files"] = files_table(self._files, tables)
        return {name: tables[name] for name in TABLES}, list(problems.texts())

    def _convert(self) -> None:
        """Turn every waiting event into chunks of its table's columns."""
        for kind, waiting in self._waiting.items():
            if waiting.events:
                self._convert_type(kind, waiting)
        self._waiting.clear()
        self._count = 0

    def _convert_most_numerous(self) -> None:
        """Turn the waiting events of the most numerous types into chunks, until fewer than
        a :data:`LEFT_WAITING`-th of a batch wait."""
        by_count = sorted(self._waiting.items(), key=lambda item: len(item[1].events), reverse=True)
        for kind, waiting in by_count:
            if self._count < self.batch_events // LEFT_WAITING:
                break
            self._convert_type(kind, waiting)
            self._count -= len(waiting.events)
            del self._waiting[kind]

    def _convert_type(self, kind: str, waiting: _Waiting) -> None:
        schema = _KNOWN_TYPES[kind]
        cursors = list(map(_CURSOR, waiting.events))
        data = list(map(_DATA, waiting.events))
        members, wires = _members(data)
        derived = {"match_id": waiting.match_ids, "cursor": cursors, "round": waiting.rounds}
        consumed = set(MATCH_ID_KEYS)
        if kind in _NESTED:
            name, key, counter = _NESTED[kind]
            consumed.add(key)
            self._convert_nested(name, key, counter, derived, members, typed=wires is not None)
        self._chunks[schema.name].add(derived, members, wires, consumed)

    def _convert_nested(
        self,
        name: str,
        key: str,
        counter: str,
        events: Mapping[str, Sequence[Any]],
        members: Mapping[str, Sequence[Any]],
        *,
        typed: bool,
    ) -> None:
        """Rows from a list of objects inside each event (playerStats, regionSamples)."""
        if name in self._errors:
            return
        match_ids: list[str] = []
        cursors: list[int] = []
        users: list[Any] = []
        numbers: list[Any] = []
        items: list[Any] = []
        rows = len(events["match_id"])
        for match_id, cursor, nested, number, user in zip(
            events["match_id"],
            events["cursor"],
            members.get(key) or [None] * rows,
            members.get("round") or [None] * rows,
            members.get("userId") or [None] * rows,
            strict=True,
        ):
            if nested is None:
                continue
            # Typed: declared as a list of nested Structs.
            if not typed and (
                not isinstance(nested, list) or not all(isinstance(item, dict) for item in nested)
            ):
                self._errors[name] = DocumentError(
                    f"telemetry of match {match_id}: the {key} of the event with cursor {cursor} "
                    "is not a list of objects"
                )
                return
            count = len(nested)
            match_ids += [match_id] * count
            cursors += [cursor] * count
            if counter == "round":
                numbers += [number] * count
            else:
                numbers += range(count)
                users += [user] * count
            items += nested
        if items:
            item_members, wires = _members(items)
            derived: dict[str, Sequence[Any]] = {
                "match_id": match_ids,
                "cursor": cursors,
                "user_id": users,
                counter: numbers,
            }
            self._chunks[name].add(derived, item_members, wires, ())


def build_tables(files: Iterable[ParsedFile]) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """Every table of TelemetryFrames from checked files, and the problems found.

    Raises:
        DocumentError: see :meth:`TableBuilder.finish`.
    """
    builder = TableBuilder()
    for file in files:
        builder.add(file)
    return builder.finish()


def _members(items: list[Any]) -> tuple[Mapping[str, Sequence[Any]], dict[str, type] | None]:
    """Member name -> its value in each object (None where absent): read a Struct field at a
    time when every object is a typed Struct of one type (the fast path; with the members of
    one declared wire type), else read in C per member when every object has it (the usual
    case; no wire types: ``None``)."""
    typed = members_of(items)
    if typed is not None:
        return typed
    items = as_builtins(items)
    members: dict[str, list[Any]] = {}
    for name in set().union(*items):
        try:
            members[name] = list(map(itemgetter(name), items))
        except KeyError:
            members[name] = [item.get(name) for item in items]
    return members, None


def _other_events(others: dict[str, _Waiting], problems: Problems) -> pd.DataFrame:
    """Events of types no table declares, kept whole (dataObject as JSON text)."""
    schema = TABLES["other_events"]
    if not others:
        return empty_frame(schema)
    match_ids: list[str] = []
    cursors: list[int] = []
    times: list[Any] = []
    kinds: list[str] = []
    texts: list[str | None] = []
    for kind in sorted(others):
        waiting = others[kind]
        data = [event.dataObject for event in waiting.events]
        match_ids += waiting.match_ids
        cursors += map(_CURSOR, waiting.events)
        times += [item.get("time") for item in data]
        kinds += [kind] * len(data)
        texts += [text_value(item) for item in data]
    frame = pd.DataFrame(
        {
            "match_id": pd.array(match_ids, dtype="string"),
            "cursor": pd.array(cursors, dtype="Int64"),
            "time": timestamps(to_arrow(times), label="other_events.time", problems=problems),
            "event_type": pd.array(kinds, dtype="string"),
            "data": pd.array(texts, dtype="string"),
        }
    )
    return frame.sort_values(["match_id", "cursor"], kind="stable").reset_index(drop=True)
