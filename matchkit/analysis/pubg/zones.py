"""The safe zone's phases against where the winners stood."""

from __future__ import annotations

import numpy as np
import pandas as pd

from matchkit.analysis._common import checked_confidence, wilson_columns
from matchkit.analysis.inputs import TableSource
from matchkit.analysis.pubg.inputs import PubgTelemetryFrames, checked_pubg_inputs
from matchkit.analysis.telemetry._common import mean_interval

__all__ = ["winner_zone_positions", "zone_phases"]


def winner_zone_positions(
    data: TableSource, telemetry: PubgTelemetryFrames | None = None
) -> pd.DataFrame:
    """Each position of a winning roster's player, against the safe zone at that moment.

    The winners are the players of each match's roster of rank 1 (``rosters.rank``, the
    document's). Each of their LogPlayerPosition rows is paired with the match's latest
    LogGameStatePeriodic at or before it; its distance to that safe zone's centre is divided by
    the zone's radius (below 1: inside). Positions before the first game state, or while the
    safe zone has no radius yet, are left out and counted in ``attrs["excluded"]``.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their PubgTelemetryFrames (None with an archive: it reads its own).

    Returns:
        One row per winner position: ``match_id``, ``player_id``, ``time``, ``phase``
        (``common.isGame`` of the game state: n.0 while phase n's zone waits, n.5 while it
        shrinks), ``elapsed_time``, ``x``, ``y``, ``safe_zone_x``, ``safe_zone_y``,
        ``safe_zone_radius`` (cm), ``distance`` (cm), ``relative_distance``, ``inside``.
    """
    inputs = checked_pubg_inputs(data, telemetry)
    participants, ranks = inputs.match_tables(
        {
            "participants": ["match_id", "roster_id", "player_id"],
            "rosters": ["match_id", "roster_id", "rank"],
        }
    )
    winners = participants.merge(ranks, on=["match_id", "roster_id"], how="inner")
    winners = winners[winners["rank"] == 1][["match_id", "player_id"]]
    positions = inputs.table(
        "positions", columns=["match_id", "player_id", "time", "player_x", "player_y"]
    )
    positions = positions.merge(winners, on=["match_id", "player_id"], how="inner")
    states = inputs.table(
        "game_states",
        columns=["match_id", "time", "phase", "elapsed_time", "safe_zone_x", "safe_zone_y",
                 "safe_zone_radius"],
    )  # fmt: skip
    paired = pd.merge_asof(
        _by_time(positions),
        _by_time(states).rename(columns={"time": "state_time"}),
        left_on="time",
        right_on="state_time",
        by="match_id",
        direction="backward",
    )
    radius = paired["safe_zone_radius"].astype("float64")
    usable = (radius > 0).to_numpy()
    paired = paired[usable]
    dx = paired["player_x"].astype("float64") - paired["safe_zone_x"].astype("float64")
    dy = paired["player_y"].astype("float64") - paired["safe_zone_y"].astype("float64")
    distance = np.hypot(dx, dy)
    relative = distance / paired["safe_zone_radius"].astype("float64")
    result = pd.DataFrame(
        {
            "match_id": paired["match_id"],
            "player_id": paired["player_id"],
            "time": paired["time"],
            "phase": paired["phase"].astype("float64"),
            "elapsed_time": paired["elapsed_time"].astype("float64"),
            "x": paired["player_x"].astype("float64"),
            "y": paired["player_y"].astype("float64"),
            "safe_zone_x": paired["safe_zone_x"].astype("float64"),
            "safe_zone_y": paired["safe_zone_y"].astype("float64"),
            "safe_zone_radius": paired["safe_zone_radius"].astype("float64"),
            "distance": distance.astype("float64"),
            "relative_distance": relative.astype("float64"),
            "inside": (relative <= 1).astype(bool),
        }
    ).reset_index(drop=True)
    result.attrs["excluded"] = {
        **inputs.excluded,
        "winner positions before a game state or without a safe zone": int((~usable).sum()),
    }
    return result


def _by_time(table: pd.DataFrame) -> pd.DataFrame:
    return table.sort_values(["time", "match_id"], kind="stable").reset_index(drop=True)


def zone_phases(
    data: TableSource, telemetry: PubgTelemetryFrames | None = None, *, confidence: float = 0.95
) -> pd.DataFrame:
    """By safe zone phase, how far the winners stood from the safe zone's centre relative to
    its radius, and how often they were inside it.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their PubgTelemetryFrames (None with an archive: it reads its own).
        confidence: the intervals' level.

    Returns:
        One row per phase (``common.isGame``), in order: ``phase``, ``positions``,
        ``matches``, ``mean_relative_distance``, ``mean_ci_low``, ``mean_ci_high``
        (Student t over positions), ``median_relative_distance``, ``inside`` (positions inside
        the safe zone), ``inside_share``, ``inside_ci_low``, ``inside_ci_high`` (Wilson).
        Positions of one player are not independent: read the intervals as lower bounds of
        the uncertainty.
    """
    confidence = checked_confidence(confidence)
    positions = winner_zone_positions(data, telemetry)
    rows = []
    for phase, group in positions.groupby("phase"):
        relative = group["relative_distance"]
        mean, low, high = mean_interval(relative, confidence)
        rows.append(
            {
                "phase": float(phase),
                "positions": len(group),
                "matches": group["match_id"].nunique(),
                "mean_relative_distance": mean,
                "mean_ci_low": low,
                "mean_ci_high": high,
                "median_relative_distance": float(relative.median()),
                "inside": int(group["inside"].sum()),
            }
        )
    columns = [
        "phase", "positions", "matches", "mean_relative_distance", "mean_ci_low",
        "mean_ci_high", "median_relative_distance", "inside",
    ]  # fmt: skip
    table = pd.DataFrame(rows, columns=columns)
    shares = wilson_columns(table["inside"], table["positions"], confidence=confidence)
    table["inside_share"] = shares["win_rate"]
    table["inside_ci_low"] = shares["ci_low"]
    table["inside_ci_high"] = shares["ci_high"]
    table.attrs["excluded"] = dict(positions.attrs["excluded"])
    return table
