"""Each battlerite's pick rate among its character's players, and the win rates of those who
picked it and of those who did not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis._common import checked_confidence, wilson_columns
from matchkit.analysis._engine import summed, summed_counts
from matchkit.analysis.inputs import TelemetryTableSource
from matchkit.analysis.telemetry._common import SEATS, by_matches, player_characters
from matchkit.analysis.telemetry.labels import battlerite_labels, character_labels
from matchkit.names import Names, as_names
from matchkit.telemetry.frames import TelemetryFrames

__all__ = ["battlerite_win_rates"]


def _match_winners(telemetry: TelemetryFrames) -> pd.Series:
    """match_id -> the winning side (1 or 2) from MatchFinishedEvent; draws are absent."""
    finishes = telemetry.match_finishes.drop_duplicates("match_id")
    one = finishes["team_one_score"].astype("float64")
    two = finishes["team_two_score"].astype("float64")
    winner = pd.Series(np.where(one > two, 1, np.where(two > one, 2, 0)), index=finishes.index)
    decided = (winner > 0) & one.notna() & two.notna()
    return pd.Series(winner[decided].to_numpy(), index=finishes.loc[decided, "match_id"].array)


def _counts(telemetry: TelemetryFrames) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, int]]:
    """Of some whole matches: each character's players and their wins, each (character,
    battlerite) pick and its wins, and the players left out, by reason."""
    winners = _match_winners(telemetry)
    picks = telemetry.battlerite_picks
    players = picks[["match_id", "user_id", "character"]].drop_duplicates(["match_id", "user_id"])
    seats = player_characters(telemetry)[["match_id", "user_id", "team"]]
    players = players.merge(seats, on=["match_id", "user_id"], how="inner")
    winner = players["match_id"].map(winners)
    decided = winner.notna().to_numpy()
    sided = players["team"].notna().to_numpy()
    kept = decided & sided
    players = players[kept].assign(won=(players["team"] == winner)[kept].astype(bool))
    chosen = picks[["match_id", "user_id", "battlerite_type"]].drop_duplicates()
    chosen = chosen.merge(players, on=["match_id", "user_id"], how="inner")
    per_character = players.groupby("character").agg(
        players=("won", "size"), all_wins=("won", "sum")
    )
    per_pick = chosen.groupby(["character", "battlerite_type"]).agg(
        picks=("won", "size"), wins=("won", "sum")
    )
    excluded = {
        "players in matches without a winner": int((~decided).sum()),
        "players without a side": int((decided & ~sided).sum()),
    }
    return per_character, per_pick, excluded


def battlerite_win_rates(
    data: TelemetryTableSource,
    *,
    names: Names | Mapping[str, Any] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Each battlerite's pick rate among its character's players, and their win rates.

    A player is one seat in one match (who won: the side with the higher MatchFinishedEvent
    score). Matches without a winner (draws, Royale) are left out, and so are players whose
    side is unknown (a seat without a team): neither a win nor a loss. ``attrs["excluded"]``
    counts both.

    Args:
        data: the telemetry tables, or an archive synced with telemetry.
        names: Names (kinds ``character`` and ``battlerite``), or actor id -> character name;
            None: no names, ids as text.
        confidence: the intervals' confidence level.

    Returns:
        One row per character and battlerite: ``character_name``, ``battlerite_name``,
        ``players`` (of the character), ``picks``,
        ``pick_rate``, ``pick_ci_low``, ``pick_ci_high``, ``wins`` (of those who picked it),
        ``win_rate``, ``ci_low``, ``ci_high``, and the same for the players who did not pick it:
        ``win_rate_without``, ``without_ci_low``, ``without_ci_high``, then the ids:
        ``character``, ``battlerite_type``. Wilson intervals.
    """
    confidence = checked_confidence(confidence)
    parts = by_matches(
        data,
        {
            "match_finishes": ["match_id", "team_one_score", "team_two_score"],
            "battlerite_picks": ["match_id", "user_id", "character", "battlerite_type"],
            "reserved_users": SEATS,
        },
        _counts,
    )
    per_character = summed([part for part, _, _ in parts])
    per_pick = summed([part for _, part, _ in parts])
    excluded = summed_counts([part for _, _, part in parts])
    table = per_pick.reset_index().merge(per_character.reset_index(), on="character")
    picked = wilson_columns(table["picks"], table["players"], confidence=confidence)
    won = wilson_columns(table["wins"], table["picks"], confidence=confidence)
    not_picked = table["players"] - table["picks"]
    without = wilson_columns(
        table["all_wins"] - table["wins"], not_picked.clip(lower=1), confidence=confidence
    )
    empty = not_picked.eq(0).to_numpy()
    catalogue = as_names(names)
    result = pd.DataFrame(
        {
            "character_name": character_labels(table["character"], catalogue),
            "battlerite_name": battlerite_labels(table["battlerite_type"], catalogue),
            "players": table["players"].astype("int64"),
            "picks": table["picks"].astype("int64"),
            "pick_rate": picked["win_rate"],
            "pick_ci_low": picked["ci_low"],
            "pick_ci_high": picked["ci_high"],
            "wins": table["wins"].astype("int64"),
            "win_rate": won["win_rate"],
            "ci_low": won["ci_low"],
            "ci_high": won["ci_high"],
            "win_rate_without": without["win_rate"].mask(empty),
            "without_ci_low": without["ci_low"].mask(empty),
            "without_ci_high": without["ci_high"].mask(empty),
            "character": table["character"],
            "battlerite_type": table["battlerite_type"],
        }
    )
    result.attrs["excluded"] = excluded
    return result.sort_values(["character", "battlerite_type"]).reset_index(drop=True)
