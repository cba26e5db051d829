"""Which weapons kill, and from how far: kill shares and kill-distance quantiles by weapon."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis._common import checked_confidence, group_keys, wilson_columns
from matchkit.analysis.inputs import TableSource
from matchkit.analysis.pubg._statistics import quantile_interval
from matchkit.analysis.pubg.inputs import (
    PubgInputs,
    PubgTelemetryFrames,
    causer_labels,
    checked_pubg_inputs,
)
from matchkit.errors import InvalidArgumentError
from matchkit.names import Names

__all__ = ["DISTANCE_QUANTILES", "kill_distances", "player_kills", "weapon_kill_shares"]

DISTANCE_QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
"""The quantiles :func:`kill_distances` gives by default."""

_MATCH_COLUMNS = ("map_name", "game_mode", "match_type")


def player_kills(inputs: PubgInputs, by: Sequence[str] = ()) -> tuple[pd.DataFrame, int]:
    """The kills made by a player (not the zone, not a suicide) with the match columns ``by``,
    and the number of other deaths."""
    unknown = [key for key in by if key not in inputs.matches.columns]
    if unknown:
        raise InvalidArgumentError(
            f"cannot group by {unknown}: use columns of the matches table, e.g. "
            f"{', '.join(_MATCH_COLUMNS)}",
            parameter="by",
        )
    kills = inputs.table(
        "kills",
        columns=["match_id", "killer_id", "is_suicide", "damage_causer_name", "distance"],
    )
    by_player = kills["killer_id"].notna() & ~kills["is_suicide"].fillna(False).astype(bool)
    chosen = kills[by_player.to_numpy()]
    if by:
        chosen = chosen.merge(inputs.matches[["match_id", *by]], on="match_id", how="left")
    return chosen.reset_index(drop=True), int((~by_player).sum())


def weapon_kill_shares(
    data: TableSource,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    by: str | Sequence[str] | None = None,
    names: Names | Mapping[str, Any] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Each damage causer's share of the kills made by players.

    A kill is a LogPlayerKillV2 (or LogPlayerKill) with a killer that is not a suicide; deaths
    to the zone, falls and suicides are left out and counted in ``attrs["excluded"]``.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their :class:`matchkit.telemetry.pubg.PubgTelemetryFrames` (None with an
            archive: it reads its own).
        by: columns of the matches table to group by (``map_name``, ``game_mode``, ...).
        names: Names with kind ``damage_causer`` (``client.names()``), or causer id -> name;
            an id without a name, or every id when None, is shown as the id.
        confidence: the Wilson intervals' level.

    Returns:
        One row per group and causer, most kills first: the ``by`` columns,
        ``damage_causer_name`` (its name), ``kills``, ``group_kills`` (all kills of the group),
        ``share``, ``ci_low``, ``ci_high`` (Wilson), ``matches`` (matches it killed in),
        ``damage_causer`` (the id).
    """
    inputs = checked_pubg_inputs(data, telemetry)
    confidence = checked_confidence(confidence)
    keys = group_keys(by)
    kills, other = player_kills(inputs, keys)
    groups = [*keys, "damage_causer_name"]
    table = (
        kills.groupby(groups, dropna=False, observed=True)
        .agg(kills=("match_id", "size"), matches=("match_id", "nunique"))
        .reset_index()
    )
    if keys:
        totals = table.groupby(keys, dropna=False, observed=True)["kills"].transform("sum")
    else:
        totals = pd.Series(int(table["kills"].sum()), index=table.index)
    shares = wilson_columns(table["kills"], totals, confidence=confidence)
    result = pd.DataFrame(
        {
            **{key: table[key] for key in keys},
            "damage_causer_name": causer_labels(table["damage_causer_name"], names),
            "kills": table["kills"].astype("int64"),
            "group_kills": totals.astype("int64"),
            "share": shares["win_rate"],
            "ci_low": shares["ci_low"],
            "ci_high": shares["ci_high"],
            "matches": table["matches"].astype("int64"),
            "damage_causer": table["damage_causer_name"].astype("string"),
        }
    )
    result = result.sort_values(
        [*keys, "kills", "damage_causer"], ascending=[*([True] * len(keys)), False, True]
    )
    result.attrs["excluded"] = {
        **inputs.excluded,
        "deaths without a player killer (zone, fall, suicide)": other,
    }
    return result.reset_index(drop=True)


def kill_distances(
    data: TableSource,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    quantiles: Sequence[float] = DISTANCE_QUANTILES,
    min_kills: int = 1,
    names: Names | Mapping[str, Any] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The distribution of kill distances by damage causer, in metres.

    The distance is the kill's ``distance`` (PUBG's centimetres between killer and victim,
    over 100). Kills as in :func:`weapon_kill_shares`; kills without a distance are left out
    and counted.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their PubgTelemetryFrames (None with an archive: it reads its own).
        quantiles: the quantiles to give, each in (0, 1).
        min_kills: causers with fewer kills are left out (counted).
        names: as for :func:`weapon_kill_shares`.
        confidence: the level of the median's interval.

    Returns:
        One row per causer, most kills first: ``damage_causer_name``, ``kills``, ``mean_m``,
        one column per quantile (``q10_m``, ``q25_m``, ``q50_m``, ...), ``median_ci_low_m`` and
        ``median_ci_high_m`` (the median's distribution-free order-statistic interval; NaN with
        too few kills), ``max_m``, ``damage_causer``.
    """
    inputs = checked_pubg_inputs(data, telemetry)
    confidence = checked_confidence(confidence)
    levels = _checked_quantiles(quantiles)
    if isinstance(min_kills, bool) or not isinstance(min_kills, int) or min_kills < 1:
        raise InvalidArgumentError(
            f"min_kills={min_kills!r} must be a whole number >= 1", parameter="min_kills"
        )
    kills, other = player_kills(inputs)
    metres = kills["distance"].astype("float64") / 100
    measured = metres.notna().to_numpy()
    kills = kills[measured].assign(metres=metres[measured])
    rows = []
    for causer, group in kills.groupby("damage_causer_name", observed=True):
        values = group["metres"].to_numpy(dtype="float64")
        _, low, high = quantile_interval(values, 0.5, confidence)
        rows.append(
            {
                "damage_causer": str(causer),
                "kills": len(values),
                "mean_m": float(values.mean()),
                **{_quantile_column(q): float(np.quantile(values, q)) for q in levels},
                "median_ci_low_m": low,
                "median_ci_high_m": high,
                "max_m": float(values.max()),
            }
        )
    columns = [
        "damage_causer",
        "kills",
        "mean_m",
        *map(_quantile_column, levels),
        "median_ci_low_m",
        "median_ci_high_m",
        "max_m",
    ]
    table = pd.DataFrame(rows, columns=columns)
    few = table["kills"] < min_kills
    table = table[~few].sort_values(["kills", "damage_causer"], ascending=[False, True])
    table = table.reset_index(drop=True)
    table.insert(0, "damage_causer_name", causer_labels(table["damage_causer"], names))
    table = table[[*table.columns.drop("damage_causer"), "damage_causer"]]
    table["damage_causer"] = table["damage_causer"].astype("string")
    table.attrs["excluded"] = {
        **inputs.excluded,
        "deaths without a player killer (zone, fall, suicide)": other,
        "kills without a distance": int((~measured).sum()),
        f"causers with fewer than {min_kills} kills": int(few.sum()),
    }
    return table


def _quantile_column(q: float) -> str:
    return f"q{round(q * 100):02d}_m" if round(q * 100) == q * 100 else f"q{q:g}_m"


def _checked_quantiles(quantiles: object) -> list[float]:
    values = list(quantiles) if isinstance(quantiles, Sequence) else None
    if (
        not values
        or not all(isinstance(q, int | float) and not isinstance(q, bool) for q in values)
        or not all(0 < float(q) < 1 for q in values)
    ):
        raise InvalidArgumentError(
            f"quantiles={quantiles!r} must be a list of numbers strictly between 0 and 1, "
            "e.g. (0.25, 0.5, 0.75)",
            parameter="quantiles",
        )
    return sorted(dict.fromkeys(float(q) for q in values))
