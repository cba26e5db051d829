"""Per-round stats per minute alive (damage, healing, disables), per group, with t intervals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from matchkit.analysis._common import checked_confidence, group_keys
from matchkit.analysis.inputs import TelemetryTableSource
from matchkit.analysis.telemetry._common import SEATS, in_memory, mean_interval, player_characters
from matchkit.analysis.telemetry.labels import character_labels
from matchkit.errors import InvalidArgumentError
from matchkit.names import Names

__all__ = ["RATE_STATS", "per_minute_rates"]

RATE_STATS = ("damage_done", "healing_done", "disables_done")
"""The per-round stats :func:`per_minute_rates` reports by default."""


def per_minute_rates(
    data: TelemetryTableSource,
    by: str | Sequence[str] | None = ("character", "round"),
    *,
    stats: Sequence[str] = RATE_STATS,
    names: Names | Mapping[str, Any] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Per-round stats per minute alive (damage, healing, disables), per group, with intervals.

    Each player-round gives one rate, ``stat / time_alive * 60``; a group's estimate is the mean
    of its rates with a Student t interval. Rounds a player was never alive in, and players
    without a seat (bots: no MatchReservedUser), are left out (counted in ``attrs``).

    Args:
        data: the telemetry tables, or an archive synced with telemetry.
        by: grouping keys: ``"character"``, ``"round"`` and columns of ``round_player_stats``.
        stats: columns of ``round_player_stats`` to report.
        names: Names, or actor id -> character name; None: no names, ids as text.
        confidence: the interval's confidence level.

    Returns:
        One row per group and stat: the keys (``character_name`` in the place of
        ``character``), ``stat``, ``per_minute``, ``ci_low``, ``ci_high``, ``n``
        (player-rounds), and ``character`` (the id) last when grouped by character.
    """
    telemetry = in_memory(data, {"round_player_stats": None, "reserved_users": SEATS})
    confidence = checked_confidence(confidence)
    keys = group_keys(by)
    rows = telemetry.round_player_stats.merge(
        player_characters(telemetry), on=["match_id", "user_id"], how="left"
    )
    unknown = [key for key in [*keys, *stats] if key not in rows.columns]
    if unknown:
        raise InvalidArgumentError(
            f"unknown column(s) {unknown}: use columns of round_player_stats or 'character'",
            parameter="by" if set(unknown) & set(keys) else "stats",
        )
    unseated = rows["character"].isna()
    alive = rows["time_alive"].fillna(0) > 0
    used = rows[(alive & ~unseated).to_numpy()]
    minutes = used["time_alive"].astype("float64") / 60
    results = []
    groups = used.groupby(keys, observed=True, sort=True) if keys else [((), used)]
    for group, part in groups:
        group = group if isinstance(group, tuple) else (group,)
        for stat in stats:
            rates = (part[stat].astype("float64") / minutes.loc[part.index]).dropna()
            mean, low, high = mean_interval(rates, confidence)
            results.append((*group, stat, mean, low, high, len(rates)))
    table = pd.DataFrame(
        results, columns=[*keys, "stat", "per_minute", "ci_low", "ci_high", "n"]
    ).astype({"n": "int64"})
    if "character" in keys:  # its name where it was, the id last
        position = keys.index("character")
        table.insert(position, "character_name", character_labels(table["character"], names))
        table = table[[*(c for c in table.columns if c != "character"), "character"]]
    table.attrs["excluded"] = {
        "player-rounds not alive (time_alive 0)": int((~alive).sum()),
        "player-rounds without a seat (bots)": int((alive & unseated).sum()),
    }
    return table
