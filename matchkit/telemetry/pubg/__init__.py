"""PUBG telemetry: each match's event log (tens of MB) as typed tables, checked against its match.

:func:`to_pubg_telemetry_frames` turns PUBG telemetry files (paths, bytes, gzip, text or parsed
lists) into :class:`PubgTelemetryFrames`; :func:`matchkit.to_telemetry_frames` chooses it for a
PUBG file by the file's shape. :func:`read_pubg_file` reads one file, as a download's check does.
The tables are described in ``docs/telemetry-pubg.md``.

Example:
    >>> from matchkit.telemetry.pubg import to_pubg_telemetry_frames  # doctest: +SKIP
    >>> telemetry = to_pubg_telemetry_frames("match-telemetry.json.gz")  # doctest: +SKIP
    >>> telemetry.kills.groupby("damage_causer_name").size()  # doctest: +SKIP
"""

from __future__ import annotations

from matchkit.telemetry.pubg.check import MatchRoster, rosters_of
from matchkit.telemetry.pubg.frames import PubgTelemetryFrames
from matchkit.telemetry.pubg.maps import MAP_SIZES, map_size
from matchkit.telemetry.pubg.read import read_pubg_file, to_pubg_telemetry_frames
from matchkit.telemetry.pubg.source import DEFAULT_MAX_BYTES, PubgSource

__all__ = [
    "DEFAULT_MAX_BYTES",
    "MAP_SIZES",
    "MatchRoster",
    "PubgSource",
    "PubgTelemetryFrames",
    "map_size",
    "read_pubg_file",
    "rosters_of",
    "to_pubg_telemetry_frames",
]
