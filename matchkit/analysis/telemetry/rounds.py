"""The round a match is decided in: from it on, the eventual winner leads in rounds won."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis._common import checked_confidence, wilson_columns
from matchkit.analysis.inputs import TelemetryTableSource
from matchkit.analysis.telemetry._common import by_matches

__all__ = ["deciding_rounds", "match_deciding_rounds"]


def match_deciding_rounds(data: TelemetryTableSource) -> pd.DataFrame:
    """The round each match is decided in: from it on, the winner leads in rounds won.

    Returns:
        One row per match with rounds: ``match_id``, ``rounds`` (played), ``winning_team``,
        ``decided_round`` (0-based: the first round after which the eventual winner led in
        rounds won and kept the lead to the end). Matches whose rounds end level are absent.
    """
    parts = by_matches(data, {"rounds": ["match_id", "round", "winning_team"]}, _decided)
    table = pd.concat([part for part, _ in parts]).sort_values("match_id", ignore_index=True)
    table = table.astype({"rounds": "int64", "winning_team": "int64", "decided_round": "int64"})
    table.attrs["excluded"] = {"matches whose rounds end level": sum(level for _, level in parts)}
    return table


def _decided(telemetry: Any) -> tuple[pd.DataFrame, int]:
    """Of some whole matches: the round each is decided in (by match id), and how many end
    level."""
    rounds = telemetry.rounds.sort_values(["match_id", "round"], kind="stable")
    winners = rounds["winning_team"]
    # Each match's rounds won by each team so far, round by round.
    by_match = rounds["match_id"].to_numpy()
    lead = (winners == 1).fillna(False).astype("int64") - (winners == 2).fillna(False).astype(
        "int64"
    )
    lead = lead.groupby(by_match, sort=False).cumsum().to_numpy()
    position = rounds.groupby(by_match, sort=False).cumcount().to_numpy()
    per_match = pd.DataFrame({"match_id": by_match, "lead": lead, "position": position})
    last = per_match.groupby("match_id", sort=False).tail(1).set_index("match_id")
    level = last["lead"] == 0
    decided = last.loc[~level]
    sign = np.sign(decided["lead"]).rename("sign")
    # The winner's lead after each round; decided the round after its last non-lead.
    winner_lead = per_match.join(sign, on="match_id", how="inner")
    trailing = winner_lead.loc[winner_lead["lead"] * winner_lead["sign"] <= 0]
    after = trailing.groupby("match_id", sort=False)["position"].max() + 1
    table = pd.DataFrame(
        {
            "match_id": decided.index.array,
            "rounds": decided["position"].to_numpy() + 1,
            "winning_team": np.where(decided["lead"].to_numpy() > 0, 1, 2),
            "decided_round": after.reindex(decided.index, fill_value=0).to_numpy(),
        }
    )
    return table, int(level.sum())


def deciding_rounds(data: TelemetryTableSource, *, confidence: float = 0.95) -> pd.DataFrame:
    """How often a match is decided in each round, by the number of rounds played.

    Returns:
        One row per (``rounds``, ``decided_round``): ``matches``, ``total`` (matches of that
        many rounds), ``share`` with a Wilson interval ``ci_low``, ``ci_high``.
    """
    confidence = checked_confidence(confidence)
    per_match = match_deciding_rounds(data)
    counts = per_match.groupby(["rounds", "decided_round"]).size().rename("matches").reset_index()
    counts["total"] = counts.groupby("rounds")["matches"].transform("sum")
    interval = wilson_columns(counts["matches"], counts["total"], confidence=confidence)
    counts["share"] = interval["win_rate"]
    counts["ci_low"] = interval["ci_low"]
    counts["ci_high"] = interval["ci_high"]
    counts.attrs["excluded"] = per_match.attrs["excluded"]
    return counts.astype({"matches": "int64", "total": "int64"})
