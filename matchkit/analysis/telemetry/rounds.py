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
    level.

    The rounds are numbered by match (one factorization of the ids) and put in order by match,
    then round (a stable sort of integers), so that each match's rounds are a run: the leads
    are one cumulative sum less each run's start, and each run's last lead and last trailing
    round are read at its end. (Grouped by the ids' text six times, a partition of 63,742
    rounds took 70 ms.)"""
    rounds = telemetry.rounds
    matches, match_ids = pd.factorize(rounds["match_id"])
    order = np.lexsort(
        (rounds["round"].to_numpy(dtype="float64", na_value=np.nan), matches)
    )  # by match, then round (a missing round last), ties in their order
    order = order[matches[order] >= 0]  # a round without a match id is in no match
    if not len(order):
        empty: dict[str, list[int]] = {"rounds": [], "winning_team": [], "decided_round": []}
        return pd.DataFrame({"match_id": np.array([], dtype=object), **empty}), 0
    match = matches[order]
    winners = rounds["winning_team"].to_numpy(dtype="float64", na_value=np.nan)[order]
    # Each match's rounds won by team 1 less those won by team 2, round by round.
    step = (winners == 1).astype(np.int64) - (winners == 2).astype(np.int64)
    starts = np.flatnonzero(np.r_[True, match[1:] != match[:-1]])
    ends = np.r_[starts[1:], len(match)] - 1
    runs = np.repeat(np.arange(len(starts)), ends - starts + 1)
    total = np.cumsum(step)
    lead = total - (total[starts] - step[starts])[runs]
    position = np.arange(len(match)) - starts[runs]
    last = lead[ends]
    decided = last != 0
    # The winner's lead after each round; decided the round after its last non-lead.
    trailing = np.where(lead * np.sign(last)[runs] <= 0, position, -1)
    after = np.maximum.reduceat(trailing, starts) + 1
    table = pd.DataFrame(
        {
            "match_id": np.asarray(match_ids.take(match[ends][decided]), dtype=object),
            "rounds": position[ends][decided] + 1,
            "winning_team": np.where(last[decided] > 0, 1, 2),
            "decided_round": after[decided],
        }
    )
    return table, int((~decided).sum())


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
