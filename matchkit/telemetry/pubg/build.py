"""One PUBG telemetry file's events (split by type) -> the tables of PubgTelemetryFrames.

Each event table is filled a type at a time, a batch of :data:`BATCH_EVENTS` events at a time:
each event decoded from its own slice of the file by the typed reader (every table but care
packages), else, when it refuses the batch (a member it does not declare, a value of another
type), as dicts by the general reader. Decoded events live for one batch; the tables
hold Arrow chunks until the end, when each column is converted once
(:class:`matchkit.telemetry.pubg.chunks.TableChunks`).

LogMatchEnd fills ``match_end`` and ``weapon_stats`` (:mod:`matchkit.telemetry.pubg.nested`),
care packages also ``care_package_items``; every other type goes whole to ``other_events``, its
JSON text as the file has it. ``event_counts`` says where each type went.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import numpy as np
import pandas as pd
import pyarrow as pa

from matchkit.model.schema import TableSchema
from matchkit.normalize import ARROW_POOL, Problems, convert
from matchkit.telemetry.pubg.chunks import TableChunks, constant_text, frame_of
from matchkit.telemetry.pubg.general import Unknown, flatten
from matchkit.telemetry.pubg.nested import (
    NESTED_TABLES,
    Rows,
    care_package_items,
    match_end_rows,
    weapon_stats,
)
from matchkit.telemetry.pubg.schema import TABLES
from matchkit.telemetry.pubg.split import SplitFile, picked
from matchkit.telemetry.pubg.tables import DOCUMENTED_TYPES, EVENT_TABLES, EventTable, table_of_type
from matchkit.telemetry.pubg.trim import trim_freed_memory
from matchkit.telemetry.pubg.typed import typed_reader

__all__ = ["BATCH_EVENTS", "MATCH_END_TYPE", "build_file"]

BATCH_EVENTS = 512
"""Events of one type decoded at a time: enough for C to do the work, few enough that their
decoded form stays small beside the file."""

MATCH_END_TYPE = "LogMatchEnd"
TRIM_FROM_BYTES = 4 << 20
"""Files from this size (decompressed) hand freed memory back once, after their largest table."""
_DICT = msgspec.json.Decoder(dict[str, Any])
_NESTED: dict[str, Callable[..., Rows]] = {
    "care_package_items": care_package_items,
    "match_end": match_end_rows,
    "weapon_stats": weapon_stats,
}


@dataclass
class _Unknowns:
    """Members no tree declares, by table and extra column: the events carrying them."""

    found: dict[tuple[str, str], Unknown]

    def add(self, table: str, unknown: list[Unknown]) -> None:
        for item in unknown:
            key = (table, item.column)
            seen = self.found.get(key)
            count = item.count + (seen.count if seen else 0)
            self.found[key] = dataclasses.replace(item, count=count)

    def texts(self) -> list[str]:
        return [
            f"{table}.{column}: {item.path} {item.what} matchkit does not know, in "
            f"{item.count:,} {'row' if item.rows else 'event'}(s); kept as an extra column"
            for (table, column), item in self.found.items()
        ]


def build_file(
    split: SplitFile, *, match_id: str, where: str, batch_events: int = BATCH_EVENTS
) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """Every table of one file, and the problems found (values that do not fit their column,
    members and event types matchkit does not know).

    Args:
        split: the file's events (their texts are taken from ``split.texts`` as each type is
            read, and let go: build once).
        match_id: the match (every row's ``match_id``).
        where: how errors name the file.
        batch_events: events decoded at a time.

    Raises:
        DocumentError: a nested list (care package items, LogMatchEnd's lists) is not a list of
            objects.
    """
    problems = Problems()
    unknowns = _Unknowns({})
    tables: dict[str, pd.DataFrame] = {}
    largest = _largest_table(split) if split.size >= TRIM_FROM_BYTES else None
    for table in EVENT_TABLES:
        # A table at a time into its frame: only its own chunks wait beside the frames made.
        chunks: dict[str, TableChunks] = {}
        chunks[table.name] = _event_table(table, split, chunks, unknowns, where, batch_events)
        if table.name == "match_start":
            starts = chunks.pop(table.name)  # joined with match_definition, the next table
        elif table.name == "match_definition":
            definition = chunks.pop(table.name)
            tables["match_start"] = _with_definition(starts, definition, match_id, problems)
        for name in list(chunks):
            tables[name] = chunks.pop(name).frame(match_id, problems)
        if table.name == largest:
            # Its events' text (most of a file read in pieces) and its chunks were let go: their
            # pages handed back, the peak of a 21 MB file from gzip is 1.72x its size, not 1.87x
            # (each table trimmed: no lower, and slower).
            trim_freed_memory()
    end = split.groups.get(MATCH_END_TYPE, np.zeros(0, dtype=np.int64))
    events = list(map(_DICT.decode, split.texts.take(MATCH_END_TYPE)))
    for name in ("match_end", "weapon_stats"):
        tables[name] = _nested(name, events, end, split, unknowns, where).frame(match_id, problems)
    tables["other_events"] = _other_events(split, match_id)
    tables["event_counts"] = _event_counts(split, match_id)
    tables["files"] = _files(split, match_id)
    texts = [*unknowns.texts(), *problems.texts(), *_undocumented(split)]
    return {name: tables[name] for name in TABLES if name in tables}, texts


def _largest_table(split: SplitFile) -> str:
    """The event table of the most events (the positions, in a real file)."""
    return max(
        EVENT_TABLES,
        key=lambda table: sum(len(split.groups.get(s.event_type, ())) for s in table.sources),
    ).name


def _event_table(
    table: EventTable,
    split: SplitFile,
    chunks: dict[str, TableChunks],
    unknowns: _Unknowns,
    where: str,
    batch_events: int,
) -> TableChunks:
    schema = table.schema
    part = TableChunks(schema)
    for source in table.sources:
        indices = split.groups.get(source.event_type)
        if indices is None:
            continue
        texts = split.texts.take(source.event_type)
        for start in range(0, len(indices), batch_events):
            batch = indices[start : start + batch_events]
            raws = texts[start : start + batch_events]
            columns = typed_reader(source).read(raws) if table.typed else None
            extras: dict[str, pa.Array] = {}
            if columns is None:
                events = list(map(_DICT.decode, raws))
                flat = flatten(events, source.tree, declared=schema.column_names)
                columns, extras = flat.columns, flat.extras
                unknowns.add(table.name, flat.unknown)
                if table.name == "care_packages":
                    chunks["care_package_items"] = _nested(
                        "care_package_items",
                        events,
                        batch,
                        split,
                        unknowns,
                        where,
                        into=chunks.get("care_package_items"),
                    )
            columns["event_index"] = pa.array(batch)  # numpy's memory
            columns["time"] = pa.array(split.micros[batch])
            if len(table.sources) > 1:
                columns["event_type"] = pa.array(
                    [source.event_type] * len(batch), pa.string(), memory_pool=ARROW_POOL
                )
            part.add(len(batch), columns, extras)
    if table.name == "care_packages" and "care_package_items" not in chunks:
        chunks["care_package_items"] = TableChunks(NESTED_TABLES["care_package_items"])
    return part


def _nested(
    name: str,
    events: list[dict[str, Any]],
    indices: np.ndarray,
    split: SplitFile,
    unknowns: _Unknowns,
    where: str,
    *,
    into: TableChunks | None = None,
) -> TableChunks:
    flat, derived, rows = _NESTED[name](events, indices, split.micros, where=where)
    unknowns.add(name, flat.unknown)
    part = into if into is not None else TableChunks(NESTED_TABLES[name])
    part.add(rows, {**flat.columns, **derived}, flat.extras)
    return part


def _with_definition(
    start: TableChunks, definition: TableChunks, match_id: str, problems: Problems
) -> pd.DataFrame:
    """match_start with its file's LogMatchDefinition's columns and time (a row of its own if
    the file has no LogMatchStart); extra columns of either after the known ones, by name."""
    known = TABLES["match_start"].column_names
    if start.rows == 1 and definition.rows == 1:
        # The usual file, one of each: their columns side by side, as the merge below joins
        # them when no extra column of one has the name of a column of the other.
        data = start.columns(match_id, problems)
        own = definition.columns(match_id, problems)
        for name in ("match_id", "event_index", "phase"):
            del own[name]
        own["definition_time"] = own.pop("time")
        if not own.keys() & data.keys():
            data.update(own)
            return frame_of({name: data[name] for name in _ordered(data, known)})
        first = frame_of(data)
        second = frame_of({"match_id": first["match_id"].array, **own})
    else:
        first = start.frame(match_id, problems)
        second = (
            definition.frame(match_id, problems)
            .drop(columns=["event_index", "phase"])
            .rename(columns={"time": "definition_time"})
        )
    joined = first.merge(second, on="match_id", how="outer", sort=False, suffixes=_SUFFIXES)
    return joined[_ordered(joined.columns, known)]


_SUFFIXES = ("", "_definition")


def _ordered(names: Iterable[str], known: Sequence[str]) -> list[str]:
    """The known columns, then the others by name."""
    return [*known, *sorted(set(names) - set(known))]


def _other_events(split: SplitFile, match_id: str) -> pd.DataFrame:
    kinds = [
        event_type
        for event_type in split.groups
        if table_of_type(event_type) is None and event_type != MATCH_END_TYPE
    ]
    raws = [raw for kind in kinds for raw in split.texts.take(kind)]
    unsorted = np.concatenate([split.groups[kind] for kind in kinds] or [np.zeros(0, np.int64)])
    order = np.argsort(unsorted, kind="stable")  # the events in file order
    indices = unsorted[order]
    raws = picked(raws, order)
    chunks = [  # a chunk at a time: one copy of each event's text beside the file, not three
        pa.array(
            [bytes(raw) for raw in raws[start : start + BATCH_EVENTS]],
            pa.large_string(),  # checked to be UTF-8
            memory_pool=ARROW_POOL,
        )
        for start in range(0, len(indices), BATCH_EVENTS)
    ]
    data = pa.chunked_array(chunks, pa.large_string())
    return _frame(
        TABLES["other_events"],
        match_id,
        {
            "event_index": pd.array(indices, dtype="Int64"),
            "time": _utc(split.micros[indices]),
            "event_type": convert(
                pa.array(
                    [split.names[code] for code in split.codes[indices].tolist()],
                    pa.string(),
                    memory_pool=ARROW_POOL,
                ),
                "category",
                label="other_events.event_type",
                problems=Problems(),
            ),
            "data": pd.arrays.ArrowStringArray(data),
        },
    )


def _event_counts(split: SplitFile, match_id: str) -> pd.DataFrame:
    kinds = list(split.groups)
    counts = [len(split.groups[kind]) for kind in kinds]
    tables = [_table_name(kind) for kind in kinds]
    return _frame(
        TABLES["event_counts"],
        match_id,
        {
            "event_type": pd.array(kinds, dtype="string"),
            "events": pd.array(counts, dtype="Int64"),
            "table": pd.array(tables, dtype="string"),
            "documented": pd.array([kind in DOCUMENTED_TYPES for kind in kinds], dtype="boolean"),
        },
    )


def _table_name(event_type: str) -> str:
    """The table an event type's events went to."""
    if event_type == MATCH_END_TYPE:
        return "match_end"
    table = table_of_type(event_type)
    if table is None:
        return "other_events"
    return "match_start" if table.name == "match_definition" else table.name


def _files(split: SplitFile, match_id: str) -> pd.DataFrame:
    micros = split.micros
    empty = not len(micros)
    return _frame(
        TABLES["files"],
        match_id,
        {
            "events": pd.array([split.events], dtype="Int64"),
            "bytes": pd.array([split.size], dtype="Int64"),
            "started_at": _utc(np.array([0 if empty else micros.min()]), missing=empty),
            "ended_at": _utc(np.array([0 if empty else micros.max()]), missing=empty),
        },
    )


def _undocumented(split: SplitFile) -> list[str]:
    counts = Counter({kind: len(found) for kind, found in split.groups.items()})
    return [
        f"event type {kind!r} is not in PUBG's documentation ({count:,} event(s)); kept whole "
        "in other_events"
        for kind, count in counts.items()
        if kind not in DOCUMENTED_TYPES and kind != MATCH_END_TYPE
    ]


def _utc(micros: np.ndarray, *, missing: bool = False) -> Any:
    from matchkit.telemetry.columns import utc_micros

    return utc_micros(micros.astype(np.int64), missing=np.full(len(micros), missing))


def _frame(schema: TableSchema, match_id: str, data: dict[str, Any]) -> pd.DataFrame:
    rows = len(next(iter(data.values())))
    return pd.DataFrame({"match_id": constant_text(match_id, rows), **data})[schema.column_names]
