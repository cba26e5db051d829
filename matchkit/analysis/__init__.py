"""Analysis of normalized matches and their telemetry: side win rates, durations, cosmetics,
one player's history, battlerites, queue times, rates per minute; PUBG's weapons, kill
distances, first knocks, landing spots, safe zones and damage (:mod:`matchkit.analysis.pubg`).

Every analysis takes its ``data`` first: a :data:`TableSource` (MatchFrames with pandas, or an
archive, :func:`matchkit.archive.open`, whose tables are lazy Dask DataFrames) or, for
telemetry, a :data:`TelemetryTableSource`. One implementation each gives the same table from
both (``matchkit.analysis._engine``); Dask computes where the result is small, then the same
pandas code finishes it. Nothing here touches HTTP. Every function returns a tidy pandas
DataFrame; what it left out, and why, is in the result's ``attrs["excluded"]``. ``names=``
gives display names to ids (:mod:`matchkit.names`); None means no names: each id is shown as
itself.

Example:
    >>> from matchkit.analysis import side_win_rates  # doctest: +SKIP
    >>> side_win_rates(frames, by="server_type")  # doctest: +SKIP
"""

from __future__ import annotations

from matchkit.analysis._common import (
    TIME_PERIODS,
    Level,
    version_key,
    wilson_columns,
    with_group_columns,
)
from matchkit.analysis.cosmetics import (
    COSMETIC_KINDS,
    cosmetic_summary,
    cosmetic_usage,
    cosmetic_win_rates,
)
from matchkit.analysis.display import PERCENT_COLUMNS, for_display, group_label, percent
from matchkit.analysis.durations import DURATION_STATISTICS, duration_counts, duration_summary
from matchkit.analysis.inputs import ArchiveTables, TableSource, TelemetryTableSource
from matchkit.analysis.players import PlayerSummary, player_history, player_summary
from matchkit.analysis.pubg import (
    damage_by_placement,
    first_knock_summary,
    first_knock_times,
    kill_distances,
    landing_spots,
    player_damage,
    weapon_kill_shares,
    winner_zone_positions,
    zone_phases,
)
from matchkit.analysis.sides import SIDES, side_win_rates
from matchkit.analysis.telemetry import (
    battlerite_win_rates,
    deciding_rounds,
    per_minute_rates,
    queue_times,
)

__all__ = [
    "COSMETIC_KINDS",
    "DURATION_STATISTICS",
    "PERCENT_COLUMNS",
    "SIDES",
    "TIME_PERIODS",
    "ArchiveTables",
    "Level",
    "PlayerSummary",
    "TableSource",
    "TelemetryTableSource",
    "battlerite_win_rates",
    "cosmetic_summary",
    "cosmetic_usage",
    "cosmetic_win_rates",
    "damage_by_placement",
    "deciding_rounds",
    "duration_counts",
    "duration_summary",
    "first_knock_summary",
    "first_knock_times",
    "for_display",
    "group_label",
    "kill_distances",
    "landing_spots",
    "per_minute_rates",
    "percent",
    "player_damage",
    "player_history",
    "player_summary",
    "queue_times",
    "side_win_rates",
    "version_key",
    "weapon_kill_shares",
    "wilson_columns",
    "winner_zone_positions",
    "with_group_columns",
    "zone_phases",
]
