"""Per-round stats per minute alive (damage, healing, disables), per group, with t intervals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis._common import checked_confidence, group_keys
from matchkit.analysis._groups import group_numbers
from matchkit.analysis.inputs import TelemetryTableSource
from matchkit.analysis.telemetry._common import (
    SEATS,
    by_matches,
    mean_interval_of,
    player_characters,
    table_columns,
)
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
    confidence = checked_confidence(confidence)
    keys = group_keys(by)
    stats = list(stats)
    known = {*table_columns(data, "round_player_stats"), "character", "team"}
    unknown = [key for key in [*keys, *stats] if key not in known]
    if unknown:
        raise InvalidArgumentError(
            f"unknown column(s) {unknown}: use columns of round_player_stats or 'character'",
            parameter="by" if set(unknown) & set(keys) else "stats",
        )
    wanted = ["match_id", "user_id", "time_alive", *keys, *stats]
    parts = by_matches(
        data,
        {"round_player_stats": wanted, "reserved_users": SEATS},
        partial(_moments, keys=keys, stats=stats),
    )
    moments = pd.concat([part for part, _, _ in parts], ignore_index=True)
    rows = []
    for *group, position, n, mean, spread in _combined(moments, keys).itertuples(index=False):
        if n < 2:
            low = high = float("nan")
        else:
            _, low, high = mean_interval_of(n, mean, float(np.sqrt(spread / (n - 1))), confidence)
        rows.append((*group, stats[position], mean, low, high, n))
    if not keys and not rows:  # no player-round at all: each stat, without a rate
        rows = [(stat, float("nan"), float("nan"), float("nan"), 0) for stat in stats]
    table = pd.DataFrame(
        rows, columns=[*keys, "stat", "per_minute", "ci_low", "ci_high", "n"]
    ).astype({"n": "int64"})
    if "character" in keys:  # its name where it was, the id last
        position = keys.index("character")
        table.insert(position, "character_name", character_labels(table["character"], names))
        table = table[[*(c for c in table.columns if c != "character"), "character"]]
    table.attrs["excluded"] = {
        "player-rounds not alive (time_alive 0)": sum(dead for _, dead, _ in parts),
        "player-rounds without a seat (bots)": sum(unseated for _, _, unseated in parts),
    }
    return table


def _moments(telemetry: Any, keys: list[str], stats: list[str]) -> tuple[pd.DataFrame, int, int]:
    """Of some whole matches: for each group and stat (its position in ``stats``), the count,
    mean and summed squared deviations of the player-rounds' rates; and the player-rounds left
    out, not alive and without a seat."""
    rows = telemetry.round_player_stats.merge(
        player_characters(telemetry), on=["match_id", "user_id"], how="left"
    )
    unseated = rows["character"].isna()
    alive = rows["time_alive"].fillna(0) > 0
    used = rows[(alive & ~unseated).to_numpy()]
    minutes = used["time_alive"].astype("float64").to_numpy() / 60
    # The groups numbered once for every stat (a row with a key missing is in none, as in
    # groupby); each stat's count, mean and squared deviations from it are sums by group.
    if keys:
        numbers, levels = group_numbers([used[key] for key in keys])
    else:
        numbers, levels = np.zeros(len(used), dtype=np.int64), []
    groups = len(levels[0]) if keys else 1
    pieces = []
    for position, stat in enumerate(stats):
        rates = used[stat].astype("float64").to_numpy(na_value=np.nan) / minutes
        counted_rate = (numbers >= 0) & ~np.isnan(rates)
        at, values = numbers[counted_rate], rates[counted_rate]
        n = np.bincount(at, minlength=groups)
        total = np.bincount(at, weights=values, minlength=groups)
        mean = np.divide(total, n, out=np.full(groups, np.nan), where=n > 0)
        spread = np.bincount(at, weights=(values - mean[at]) ** 2, minlength=groups)
        piece = {key: level for key, level in zip(keys, levels, strict=True)}
        piece.update(position=np.full(groups, position), n=n, mean=mean, spread=spread)
        pieces.append(pd.DataFrame(piece))
    return (
        pd.concat(pieces, ignore_index=True),
        int((~alive).sum()),
        int((alive & unseated).sum()),
    )


def _combined(moments: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The moments of the same group and stat, from several sets of matches, combined (Chan et
    al.'s pairwise update, all at once), sorted by group, then stat."""
    group = [*keys, "position"]
    moments = moments.assign(total=moments["mean"].fillna(0.0) * moments["n"])
    sums = moments.groupby(group, observed=True, sort=True)[["n", "total"]].sum()
    sums["mean"] = (sums["total"] / sums["n"]).where(sums["n"] > 0)
    overall = moments.join(sums["mean"].rename("overall"), on=group)["overall"]
    deviation = (moments["mean"] - overall).fillna(0.0)
    moments["spread"] = moments["spread"] + moments["n"] * deviation**2
    sums["spread"] = moments.groupby(group, observed=True, sort=True)["spread"].sum()
    return sums[["n", "mean", "spread"]].reset_index()
