"""Which telemetry tables an archive may hold, by label: each telemetry format's tables under a
folder of their own, so that two formats' tables of one name (``files``, ``other_events``) never
meet.

- ``telemetry/<name>``: the Gamelocker format's :class:`~matchkit.telemetry.TelemetryFrames`;
- ``pubg-telemetry/<name>``: PUBG's :class:`~matchkit.telemetry.pubg.PubgTelemetryFrames`.

A profile's ``telemetry_format`` chooses the folder (:func:`telemetry_folder`); a label says its
table's schema (:func:`telemetry_schema`), so that a reader needs no profile to read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from matchkit.model.schema import TableSchema

__all__ = [
    "TELEMETRY_FOLDERS",
    "telemetry_folder",
    "telemetry_format",
    "telemetry_labels",
    "telemetry_schema",
]

TELEMETRY_FOLDERS = {"gamelocker": "telemetry", "pubg": "pubg-telemetry"}
"""The folder of each telemetry format's tables (a profile's ``telemetry_format``)."""


@cache
def _schemas() -> Mapping[str, Mapping[str, TableSchema]]:
    from matchkit.telemetry.pubg.schema import TABLES as PUBG_TABLES
    from matchkit.telemetry.schema import TABLES as GAMELOCKER_TABLES

    return {
        TELEMETRY_FOLDERS["gamelocker"]: GAMELOCKER_TABLES,
        TELEMETRY_FOLDERS["pubg"]: PUBG_TABLES,
    }


def telemetry_folder(telemetry_format: str) -> str:
    """The folder of a telemetry format's tables.

    Raises:
        KeyError: a format the archive does not know.
    """
    return TELEMETRY_FOLDERS[telemetry_format]


def telemetry_format(label: str) -> str | None:
    """The telemetry format whose table ``label`` is (``"pubg"`` for ``pubg-telemetry/kills``),
    or ``None`` when it is no telemetry table's label."""
    if telemetry_schema(label) is None:
        return None
    folder = label.partition("/")[0]
    return next(name for name, known in TELEMETRY_FOLDERS.items() if known == folder)


def telemetry_labels() -> list[str]:
    """Every telemetry table label an archive may hold, format by format, in table order."""
    return [f"{folder}/{name}" for folder, tables in _schemas().items() for name in tables]


def telemetry_schema(label: str) -> TableSchema | None:
    """The schema of the telemetry table ``label``, or ``None`` when it is no telemetry
    table's label."""
    folder, _, name = label.partition("/")
    return _schemas().get(folder, {}).get(name)
