"""The round a match is decided in: from it on, the eventual winner leads in rounds won."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis._common import checked_confidence, wilson_columns
from matchkit.analysis.inputs import TelemetryTableSource
from matchkit.analysis.telemetry._common import in_memory

__all__ = ["deciding_rounds", "match_deciding_rounds"]


def match_deciding_rounds(data: TelemetryTableSource) -> pd.DataFrame:
    """The round each match is decided in: from it on, the winner leads in rounds won.

    Returns:
        One row per match with rounds: ``match_id``, ``rounds`` (played), ``winning_team``,
        ``decided_round`` (0-based: the first round after which the eventual winner led in
        rounds won and kept the lead to the end). Matches whose rounds end level are absent.
    """
    telemetry = in_memory(data, {"rounds": ["match_id", "round", "winning_team"]})
    rounds = telemetry.rounds.sort_values(["match_id", "round"], kind="stable")
    rows: list[tuple[Any, ...]] = []
    level = 0
    for match_id, part in rounds.groupby("match_id", sort=False):
        winners = part["winning_team"].tolist()
        ones = np.cumsum([w == 1 for w in winners])
        twos = np.cumsum([w == 2 for w in winners])
        if ones[-1] == twos[-1]:
            level += 1
            continue
        lead = (ones - twos) if ones[-1] > twos[-1] else (twos - ones)
        trailing = np.flatnonzero(lead <= 0)
        decided = int(trailing[-1] + 1) if len(trailing) else 0
        rows.append((match_id, len(winners), 1 if ones[-1] > twos[-1] else 2, decided))
    table = pd.DataFrame(rows, columns=["match_id", "rounds", "winning_team", "decided_round"])
    table = table.astype({"rounds": "int64", "winning_team": "int64", "decided_round": "int64"})
    table.attrs["excluded"] = {"matches whose rounds end level": level}
    return table


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
