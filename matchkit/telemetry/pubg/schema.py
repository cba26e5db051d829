"""The PubgTelemetryFrames model, declared: every table, in order, with its columns.

The event tables are declared by their trees (:mod:`matchkit.telemetry.pubg.tables`), the
nested ones by theirs (:mod:`matchkit.telemetry.pubg.nested`); the derived ones (``files``,
``other_events``, ``event_counts``) here. ``docs/telemetry-pubg.md`` describes them for readers.
"""

from __future__ import annotations

from matchkit.model.schema import Column, Kind, TableSchema
from matchkit.telemetry.pubg.nested import NESTED_TABLES
from matchkit.telemetry.pubg.tables import EVENT_TABLES

__all__ = ["TABLES", "TABLE_NAMES"]


def _derived(name: str, kind: Kind, description: str) -> Column:
    return Column(name, kind, "derived", "", description)


_MATCH_ID = _derived("match_id", "string", "the match (= matches.match_id)")
_EVENTS = {table.name: table.schema for table in EVENT_TABLES}
_DEFINITION = _EVENTS.pop("match_definition")
_START = _EVENTS.pop("match_start")

_FILES = TableSchema(
    "files",
    "",
    ("match_id",),
    (
        _MATCH_ID,
        _derived("events", "Int64", "events in the file"),
        _derived("bytes", "Int64", "the file's size, decompressed"),
        _derived("started_at", "datetime", "the earliest event's time"),
        _derived("ended_at", "datetime", "the latest event's time"),
    ),
)
_MATCH_START = TableSchema(
    "match_start",
    "",
    ("match_id",),
    (
        *_START.columns,
        *(
            c
            for c in _DEFINITION.columns
            if c.section == "attributes" and c.name != "phase" and c.name != "time"
        ),
        Column("definition_time", "datetime", "attributes", "_D", "LogMatchDefinition's _D, UTC"),
    ),
)
_OTHER_EVENTS = TableSchema(
    "other_events",
    "",
    ("match_id", "event_index"),
    (
        _MATCH_ID,
        _derived("event_index", "Int64", "0-based position in its file"),
        Column("time", "datetime", "attributes", "_D", "the event's _D, UTC"),
        Column("event_type", "category", "attributes", "_T", "a type without a table"),
        _derived("data", "string", "the event, its JSON text as the file has it"),
    ),
)
_EVENT_COUNTS = TableSchema(
    "event_counts",
    "",
    ("match_id", "event_type"),
    (
        _MATCH_ID,
        _derived("event_type", "string", "an event type the file holds"),
        _derived("events", "Int64", "its events in the file"),
        _derived("table", "string", "the table they went to"),
        _derived("documented", "boolean", "whether PUBG's documentation lists the type"),
    ),
)

TABLES: dict[str, TableSchema] = {
    "files": _FILES,
    "match_start": _MATCH_START,
    "match_end": NESTED_TABLES["match_end"],
    **{
        name: _EVENTS[name]
        for name in (
            "kills",
            "knocks",
            "revives",
            "damage",
            "positions",
            "game_states",
            "care_packages",
        )
    },
    "care_package_items": NESTED_TABLES["care_package_items"],
    **{name: _EVENTS[name] for name in ("item_events", "vehicles", "landings")},
    "weapon_stats": NESTED_TABLES["weapon_stats"],
    "other_events": _OTHER_EVENTS,
    "event_counts": _EVENT_COUNTS,
}
TABLE_NAMES: tuple[str, ...] = tuple(TABLES)
