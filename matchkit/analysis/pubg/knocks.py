"""How soon a match's fighting starts: the time from LogMatchStart to its first knock."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from matchkit.analysis._common import checked_confidence, group_keys
from matchkit.analysis.inputs import TableSource
from matchkit.analysis.pubg._statistics import quantile_interval
from matchkit.analysis.pubg.inputs import PubgTelemetryFrames, checked_pubg_inputs
from matchkit.analysis.telemetry._common import mean_interval
from matchkit.errors import InvalidArgumentError

__all__ = ["first_knock_summary", "first_knock_times"]


def first_knock_times(
    data: TableSource, telemetry: PubgTelemetryFrames | None = None
) -> pd.DataFrame:
    """Per match, the seconds from its LogMatchStart to its first LogPlayerMakeGroggy.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their PubgTelemetryFrames (None with an archive: it reads its own).

    Returns:
        One row per match with telemetry: ``match_id``, ``map_name``, ``game_mode``,
        ``knocks`` (its knocks), ``first_knock_s`` (NaN when it had none: solo modes have no
        knocks), ``started_at`` (LogMatchStart's time). A match whose file has no
        LogMatchStart is left out and counted in ``attrs["excluded"]``.
    """
    inputs = checked_pubg_inputs(data, telemetry)
    starts = inputs.table("match_start", columns=["match_id", "time"]).drop_duplicates("match_id")
    knocks = (
        inputs.table("knocks", columns=["match_id", "time"])
        .groupby("match_id")
        .agg(knocks=("time", "size"), first=("time", "min"))
    )
    table = inputs.matches[["match_id", "map_name", "game_mode"]].merge(
        starts.rename(columns={"time": "started_at"}), on="match_id", how="left"
    )
    without_start = table["started_at"].isna().to_numpy()
    table = table[~without_start].merge(knocks, left_on="match_id", right_index=True, how="left")
    seconds = (table["first"] - table["started_at"]).dt.total_seconds()
    result = pd.DataFrame(
        {
            "match_id": table["match_id"],
            "map_name": table["map_name"],
            "game_mode": table["game_mode"],
            "knocks": table["knocks"].fillna(0).astype("int64"),
            "first_knock_s": seconds.astype("float64"),
            "started_at": table["started_at"],
        }
    ).reset_index(drop=True)
    result.attrs["excluded"] = {
        **inputs.excluded,
        "matches without LogMatchStart": int(without_start.sum()),
    }
    return result


def first_knock_summary(
    data: TableSource,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    by: str | Sequence[str] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The distribution of the time to the first knock, over the matches that had one.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their PubgTelemetryFrames (None with an archive: it reads its own).
        by: columns of :func:`first_knock_times` to group by (``map_name``, ``game_mode``).
        confidence: the intervals' level.

    Returns:
        One row per group: the ``by`` columns, ``matches`` (with a knock), ``mean_s``,
        ``mean_ci_low_s``, ``mean_ci_high_s`` (Student t), ``median_s``, ``median_ci_low_s``,
        ``median_ci_high_s`` (order statistics), ``q10_s``, ``q90_s``. Matches without a knock
        are counted in ``attrs["excluded"]``.
    """
    confidence = checked_confidence(confidence)
    keys = group_keys(by)
    times = first_knock_times(data, telemetry)
    unknown = [key for key in keys if key not in ("map_name", "game_mode")]
    if unknown:
        raise InvalidArgumentError(
            f"cannot group by {unknown}: use map_name or game_mode", parameter="by"
        )
    knocked = times["first_knock_s"].notna().to_numpy()
    rows = []
    grouped = times[knocked].groupby(keys, dropna=False) if keys else [((), times[knocked])]
    for key, group in grouped:
        values = group["first_knock_s"]
        mean, mean_low, mean_high = mean_interval(values, confidence)
        median, low, high = quantile_interval(values.to_numpy(dtype="float64"), 0.5, confidence)
        key = key if isinstance(key, tuple) else (key,)
        rows.append(
            {
                **dict(zip(keys, key, strict=True)),
                "matches": len(values),
                "mean_s": mean,
                "mean_ci_low_s": mean_low,
                "mean_ci_high_s": mean_high,
                "median_s": median,
                "median_ci_low_s": low,
                "median_ci_high_s": high,
                "q10_s": float(values.quantile(0.1)),
                "q90_s": float(values.quantile(0.9)),
            }
        )
    result = pd.DataFrame(rows)
    result.attrs["excluded"] = {
        **times.attrs["excluded"],
        "matches without a knock": int((~knocked).sum()),
    }
    return result
