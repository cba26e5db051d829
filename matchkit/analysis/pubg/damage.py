"""Damage dealt against placement: each player's damage to enemies and the roster's rank."""

from __future__ import annotations

import pandas as pd

from matchkit.analysis._common import checked_confidence
from matchkit.analysis.inputs import TableSource
from matchkit.analysis.pubg.inputs import PubgTelemetryFrames, checked_pubg_inputs
from matchkit.analysis.telemetry._common import mean_interval

__all__ = ["damage_by_placement", "player_damage"]


def player_damage(data: TableSource, telemetry: PubgTelemetryFrames | None = None) -> pd.DataFrame:
    """Each participant's damage to other teams, from LogPlayerTakeDamage, and its rank.

    Damage counts hits on a player of another team (not oneself, not a teammate), as PUBG's
    ``damageDealt`` does. A participant with no hit has 0.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their PubgTelemetryFrames (None with an archive: it reads its own).

    Returns:
        One row per participant of a match with telemetry: ``match_id``, ``player_id``,
        ``name``, ``rank`` (the roster's), ``damage`` (from telemetry), ``hits``,
        ``damage_dealt`` (the match document's, to compare), ``map_name``, ``game_mode``.
    """
    inputs = checked_pubg_inputs(data, telemetry)
    players, rosters = inputs.match_tables(
        {
            "participants": ["match_id", "roster_id", "player_id", "name", "damage_dealt"],
            "rosters": ["match_id", "roster_id", "rank"],
        }
    )
    hits = inputs.table(
        "damage",
        columns=[
            "match_id", "attacker_id", "victim_id", "attacker_team_id", "victim_team_id", "damage"
        ],
    )  # fmt: skip
    on_enemy = (
        hits["attacker_id"].notna()
        & (hits["attacker_id"] != hits["victim_id"]).fillna(True)
        & (hits["attacker_team_id"] != hits["victim_team_id"]).fillna(True)
    ).to_numpy(dtype=bool)
    dealt = (
        hits[on_enemy]
        .groupby(["match_id", "attacker_id"])
        .agg(damage=("damage", "sum"), hits=("damage", "size"))
        .reset_index()
        .rename(columns={"attacker_id": "player_id"})
    )
    table = (
        players.merge(rosters, how="left")
        .merge(inputs.matches[["match_id", "map_name", "game_mode"]], how="left")
        .merge(dealt, on=["match_id", "player_id"], how="left")
    )
    result = pd.DataFrame(
        {
            "match_id": table["match_id"],
            "player_id": table["player_id"],
            "name": table["name"],
            "rank": table["rank"].astype("Int64"),
            "damage": table["damage"].astype("float64").fillna(0.0),
            "hits": table["hits"].fillna(0).astype("int64"),
            "damage_dealt": table["damage_dealt"].astype("float64"),
            "map_name": table["map_name"],
            "game_mode": table["game_mode"],
        }
    )
    result = result.sort_values(["match_id", "rank", "player_id"]).reset_index(drop=True)
    result.attrs["excluded"] = dict(inputs.excluded)
    return result


def damage_by_placement(
    data: TableSource, telemetry: PubgTelemetryFrames | None = None, *, confidence: float = 0.95
) -> pd.DataFrame:
    """Mean damage dealt by placement (the roster's rank), over participants.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their PubgTelemetryFrames (None with an archive: it reads its own).
        confidence: the intervals' level.

    Returns:
        One row per rank, best first: ``rank``, ``players``, ``matches``, ``mean_damage``,
        ``ci_low``, ``ci_high`` (Student t), ``median_damage``. Participants without a rank
        are counted in ``attrs["excluded"]``.
    """
    confidence = checked_confidence(confidence)
    players = player_damage(data, telemetry)
    ranked = players["rank"].notna().to_numpy()
    rows = []
    for rank, group in players[ranked].groupby("rank"):
        mean, low, high = mean_interval(group["damage"], confidence)
        rows.append(
            {
                "rank": int(rank),
                "players": len(group),
                "matches": group["match_id"].nunique(),
                "mean_damage": mean,
                "ci_low": low,
                "ci_high": high,
                "median_damage": float(group["damage"].median()),
            }
        )
    columns = ["rank", "players", "matches", "mean_damage", "ci_low", "ci_high", "median_damage"]
    table = pd.DataFrame(rows, columns=columns)
    table.attrs["excluded"] = {
        **players.attrs["excluded"],
        "participants without a rank": int((~ranked).sum()),
    }
    return table
