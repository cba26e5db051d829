"""Summaries of match and round durations (in seconds or minutes), per group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import pandas as pd

from matchkit.analysis._common import (
    check_level,
    group_keys,
    in_version_order,
    matchframes,
    with_group_columns,
)
from matchkit.errors import InvalidArgumentError
from matchkit.names import Names, with_names

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = ["DURATION_STATISTICS", "duration_summary"]

#: The columns of :func:`duration_summary` after the group keys.
DURATION_STATISTICS = ("count", "mean", "median", "q1", "q3", "p90")
#: Seconds per unit of :func:`duration_summary`'s ``unit``.
UNITS = {"seconds": 1.0, "minutes": 60.0}


def duration_summary(
    frames: MatchFrames | pd.DataFrame,
    by: str | Sequence[str] | None = None,
    *,
    level: Literal["match", "round"] = "match",
    unit: Literal["seconds", "minutes"] = "seconds",
    names: Names | Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Count, mean, median, quartiles and 90th percentile of durations, per group.

    Quantiles interpolate linearly between observations (pandas' default). Missing durations
    are left out and counted in ``attrs["excluded"]``.

    Args:
        frames: the normalized matches (or, at match level, their ``matches`` table).
        by: grouping keys: columns of the matches table (``"server_type"``, ``"patch_version"``,
            ...) or a period of ``created_at`` (``"date"``, ``"week"``, ``"month"``); None for
            one group.
        level: ``"match"`` summarizes ``matches.duration``; ``"round"`` summarizes
            ``rounds.duration`` (Arena only: Royale matches have no rounds), grouped by the
            round's match.
        unit: ``"seconds"`` (as on the wire) or ``"minutes"`` for the statistics; the table's
            ``attrs["unit"]`` says which.
        names: display names (:mod:`matchkit.names`) for id columns among the groups
            (``map_id`` gets ``map``).

    Returns:
        One row per group: the ``by`` columns, then ``count`` (int), ``mean``, ``median``,
        ``q1``, ``q3``, ``p90`` (float, in ``unit``). ``attrs["excluded"]`` maps
        ``missing_duration`` to the number of matches (or rounds) without a duration.

    Example:
        >>> duration_summary(frames, by="server_type")  # doctest: +SKIP
    """
    keys = group_keys(by)
    check_level(level)
    if isinstance(frames, pd.DataFrame) and level == "match":
        frames = _MatchesOnly(frames)
    else:
        frames = matchframes(frames)
    if unit not in UNITS:
        raise InvalidArgumentError(f"unit={unit!r}: use 'seconds' or 'minutes'", parameter="unit")
    matches = with_group_columns(frames.matches, keys, source="the matches table")
    if level == "match":
        observations = matches[[*keys, "duration"]]
    else:
        rounds = frames.rounds[["match_id", "duration"]]
        observations = rounds.merge(
            matches[["match_id", *keys]], on="match_id", how="inner", validate="many_to_one"
        )
    known = observations["duration"].notna()
    observations = observations.loc[known, [*keys, "duration"]].astype({"duration": "float64"})
    observations = observations.assign(duration=observations["duration"] / UNITS[unit])
    table = with_names(in_version_order(_summarize(observations, keys), keys), names)
    table.attrs["excluded"] = {"missing_duration": int((~known).sum())}
    table.attrs["level"] = level
    table.attrs["unit"] = unit
    return table


class _MatchesOnly:
    """A matches table standing in for MatchFrames where only ``matches`` is read."""

    def __init__(self, matches: pd.DataFrame) -> None:
        missing = [name for name in ("created_at", "duration") if name not in matches.columns]
        if missing:
            raise InvalidArgumentError(
                f"frames: the DataFrame given lacks {', '.join(missing)}; pass MatchFrames or "
                "their matches table",
                parameter="frames",
            )
        self.matches = matches


def _summarize(observations: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    duration = observations["duration"]
    if not keys:
        row = {
            "count": [int(duration.size)],
            "mean": [duration.mean()],
            "median": [duration.median()],
            "q1": [duration.quantile(0.25)],
            "q3": [duration.quantile(0.75)],
            "p90": [duration.quantile(0.9)],
        }
        return pd.DataFrame(row).astype({"count": "int64"})
    grouped = observations.groupby(keys, observed=True, dropna=False, sort=True)["duration"]
    table = grouped.agg(["size", "mean", "median"]).rename(columns={"size": "count"})
    for name, fraction in (("q1", 0.25), ("q3", 0.75), ("p90", 0.9)):
        table[name] = grouped.quantile(fraction)
    return table.reset_index().astype({"count": "int64"})[[*keys, *DURATION_STATISTICS]]
