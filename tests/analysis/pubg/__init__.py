"""Tests of the PUBG analyses; :data:`ANALYSES` is every one that takes data and telemetry."""

from __future__ import annotations

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

ANALYSES = [
    damage_by_placement,
    first_knock_summary,
    first_knock_times,
    kill_distances,
    landing_spots,
    player_damage,
    weapon_kill_shares,
    winner_zone_positions,
    zone_phases,
]
