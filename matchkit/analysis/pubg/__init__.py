"""Analyses of PUBG matches and their telemetry: weapons, kill distances, the first knock,
landing spots, the safe zone against the winners, damage against placement.

Every analysis takes ``data`` first, MatchFrames of PUBG matches (``matchkit.to_frames`` of
PUBG documents, or a PUBG client's ``matches``), then ``telemetry``, one
:class:`matchkit.telemetry.pubg.PubgTelemetryFrames` of those matches (combine files with
:meth:`PubgTelemetryFrames.concat`). A match of ``data`` without telemetry is left out and
counted in ``result.attrs["excluded"]``; telemetry of a match ``data`` lacks is an error.
``data`` may instead be an archive synced with PUBG telemetry (``matchkit archive sync DIR
--profile pubg --telemetry``), passed alone: ``weapon_kill_shares(matchkit.archive.open(DIR))``.
Every function returns a tidy pandas DataFrame with counts beside each estimate and its
interval. ``names=`` gives names to damage causers (kind ``damage_causer``) and maps (kind
``map``), e.g. ``client.names()``; an id without a name, or every id when None, is shown as
the id. Positions are PUBG's centimetres on the map, (0, 0) at its top left.

Example:
    >>> weapon_kill_shares(frames, telemetry, by="map_name")  # doctest: +SKIP
"""

from __future__ import annotations

from matchkit.analysis.pubg.damage import damage_by_placement, player_damage
from matchkit.analysis.pubg.inputs import (
    PubgInputs,
    PubgTelemetryFrames,
    checked_pubg_inputs,
    map_sizes,
)
from matchkit.analysis.pubg.knocks import first_knock_summary, first_knock_times
from matchkit.analysis.pubg.landings import landing_spots
from matchkit.analysis.pubg.weapons import DISTANCE_QUANTILES, kill_distances, weapon_kill_shares
from matchkit.analysis.pubg.zones import winner_zone_positions, zone_phases

__all__ = [
    "DISTANCE_QUANTILES",
    "PubgInputs",
    "PubgTelemetryFrames",
    "checked_pubg_inputs",
    "damage_by_placement",
    "first_knock_summary",
    "first_knock_times",
    "kill_distances",
    "landing_spots",
    "map_sizes",
    "player_damage",
    "weapon_kill_shares",
    "winner_zone_positions",
    "zone_phases",
]
