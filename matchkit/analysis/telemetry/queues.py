"""Seconds in queue per group (region, league, the match's start hour): mean, t interval, median."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from matchkit.analysis._common import checked_confidence, group_keys
from matchkit.analysis.inputs import TelemetryTableSource
from matchkit.analysis.telemetry._common import in_memory, mean_interval
from matchkit.errors import InvalidArgumentError

__all__ = ["queue_times"]


def queue_times(
    data: TelemetryTableSource,
    by: str | Sequence[str] | None = ("match_region", "league"),
    *,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Seconds in queue (QueueEvent ``timeInQueue``) per group: mean with a t interval, median.

    Args:
        data: the telemetry tables, or an archive synced with telemetry.
        by: columns of ``queue_events`` (``"match_region"``, ``"league"``, ``"preferred_region"``,
            ...) or ``"start_hour"``: the UTC hour the match started (MatchStart).
        confidence: the interval's confidence level.

    Returns:
        One row per group: the keys, ``n`` (queued players), ``mean_seconds``, ``ci_low``,
        ``ci_high``, ``median_seconds``.
    """
    keys = group_keys(by)
    tables: dict[str, list[str] | None] = {
        "queue_events": ["match_id", "time_in_queue", *(key for key in keys if key != "start_hour")]
    }
    if "start_hour" in keys:
        tables["match_starts"] = ["match_id", "time"]
    telemetry = in_memory(data, tables)
    confidence = checked_confidence(confidence)
    queue = telemetry.queue_events
    if "start_hour" in keys:
        starts = telemetry.match_starts.drop_duplicates("match_id").set_index("match_id")["time"]
        queue = queue.assign(start_hour=queue["match_id"].map(starts).dt.hour.astype("Int64"))
    unknown = [key for key in keys if key not in queue.columns]
    if unknown:
        raise InvalidArgumentError(
            f"cannot group queue times by {unknown}: use columns of queue_events or 'start_hour'",
            parameter="by",
        )
    timed = queue[queue["time_in_queue"].notna().to_numpy()]
    results = []
    groups = timed.groupby(keys, observed=True, sort=True) if keys else [((), timed)]
    for group, part in groups:
        group = group if isinstance(group, tuple) else (group,)
        seconds = part["time_in_queue"].astype("float64")
        mean, low, high = mean_interval(seconds, confidence)
        results.append((*group, len(seconds), mean, low, high, float(seconds.median())))
    table = pd.DataFrame(
        results, columns=[*keys, "n", "mean_seconds", "ci_low", "ci_high", "median_seconds"]
    ).astype({"n": "int64"})
    table.attrs["excluded"] = {"queue events without timeInQueue": len(queue) - len(timed)}
    return table
