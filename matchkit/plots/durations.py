"""Plots of match durations: their distribution, and how they move over time or patches."""

from __future__ import annotations

from itertools import pairwise
from typing import Any, Literal

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.transforms import ScaledTranslation

from matchkit.analysis import TableSource, duration_counts, duration_summary, version_key
from matchkit.errors import InvalidArgumentError
from matchkit.plots._arguments import checked_count
from matchkit.plots._style import group_label, new_axes, server_type_color

__all__ = ["plot_duration_distribution", "plot_duration_trend"]

SECONDS_PER_MINUTE = 60.0
#: Points of fewer matches than this are drawn as thin (hollow, without their range).
THIN_GROUP = 30


def _counts(data: TableSource | pd.DataFrame, by: str) -> pd.DataFrame:
    """The count of each duration per ``by`` group: a :func:`duration_counts` table as given,
    else computed from the matches (or an archive)."""
    if isinstance(data, pd.DataFrame) and {by, "duration", "count"} <= set(data.columns):
        return data
    return duration_counts(data, by=by)


def plot_duration_distribution(
    data: TableSource | pd.DataFrame,
    *,
    ax: Axes | None = None,
    by: str = "server_type",
    kind: Literal["ecdf", "hist"] = "ecdf",
    bins: int = 30,
    **style: Any,
) -> Axes:
    """The distribution of match durations, one line per group (server type by default).

    Args:
        data: the normalized matches, their ``matches`` table, an archive, or a
            :func:`matchkit.analysis.duration_counts` table grouped ``by``.
        ax: the Axes to draw on; a new Figure's Axes when None.
        by: the column of the matches table that makes the lines.
        kind: ``"ecdf"`` (share of matches shorter than x) or ``"hist"`` (density histogram,
            outlined so that groups overlap readably).
        bins: histogram bins (``kind="hist"`` only).
        **style: passed to each line (``linewidth``, ``alpha``, ...).

    Returns:
        The Axes, with one labelled line per group in the server-type colours.
    """
    if kind not in ("ecdf", "hist"):
        raise InvalidArgumentError(f"kind={kind!r}: use 'ecdf' or 'hist'", parameter="kind")
    counts = _counts(data, by)
    ax = new_axes(ax)
    minutes = counts["duration"].astype("float64") / SECONDS_PER_MINUTE
    groups = counts[by].astype(object)
    edges = np.histogram_bin_edges(minutes, bins=bins).tolist() if len(minutes) else bins
    for group in sorted(groups.dropna().unique(), key=str):
        rows = (groups == group).to_numpy()
        sample, weights = minutes[rows].to_numpy(), counts["count"][rows].to_numpy()
        label = f"{group_label(group)} (n={int(weights.sum()):,})"
        options = {"color": server_type_color(group), "label": label, **style}
        if kind == "ecdf":
            ax.ecdf(sample, weights, **options)
        else:
            ax.hist(
                sample,
                bins=edges,
                weights=weights,
                density=True,
                histtype="step",
                **{"linewidth": 1.8, **options},
            )
    ax.set_xlabel("Match duration (minutes)")
    if kind == "ecdf":
        ax.set_ylabel("Share of matches at most this long")
        ax.set_ylim(0, 1.02)
    else:
        ax.set_ylabel("Density (share of matches per minute)")
    ax.set_title(f"Match duration by {by.replace('_', ' ')}")
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(title=by.replace("_", " ").capitalize(), loc="best")
    return ax


def _dodge_step(positions: dict[Any, Any], is_time: bool) -> Any:
    if not is_time:
        return 0.08
    values = sorted(positions.values())
    gaps = [later - earlier for earlier, later in pairwise(values)]
    return (min(gaps) if gaps else pd.Timedelta(days=1)) * 0.08


def _dodged(positions: pd.Series, offset: Any) -> list[Any]:
    return [value + offset for value in positions.tolist()]


def plot_duration_trend(
    data: TableSource | pd.DataFrame,
    *,
    ax: Axes | None = None,
    over: str = "week",
    by: str = "server_type",
    min_count: int = THIN_GROUP,
    **style: Any,
) -> Axes:
    """Median match duration over time (or over patches), with the interquartile range.

    Each point is labelled with its number of matches (n). A point of fewer than ``min_count``
    matches is drawn hollow and without its range, and a note under the title says so: its
    median moves with a handful of matches and should not be read as a step. The groups are
    dodged a little along x so that their ranges do not hide each other.

    Args:
        data: the normalized matches, their ``matches`` table, an archive, or a
            :func:`matchkit.analysis.duration_summary` computed with ``by=[over, by]``.
        ax: the Axes to draw on; a new Figure's Axes when None.
        over: the x axis: ``"week"``, ``"date"``, ``"month"`` or ``"patch_version"`` (any
            column of the matches table works; patch versions are ordered numerically).
        by: the column that makes the lines (server type by default).
        min_count: points of fewer matches are marked as thin (hollow, no range).
        **style: passed to each median line.

    Returns:
        The Axes: one line per group (median, minutes), a bar from q1 to q3 at each point and
        n beside each point.
    """
    min_count = checked_count(min_count, "min_count", low=0)
    summary = _trend_summary(data, over, by)
    per_minute = 1.0 if summary.attrs.get("unit") == "minutes" else SECONDS_PER_MINUTE
    ax = new_axes(ax)
    positions, is_time = _positions(ax, summary[over])
    groups = sorted(summary[by].dropna().unique(), key=str)
    step = _dodge_step(positions, is_time)
    thin_points = 0
    for index, group in enumerate(groups):
        rows = summary.loc[summary[by] == group].dropna(subset=[over])
        # Through plain objects: mapping a categorical column would keep category order.
        position = [positions[value] for value in rows[over].astype(object)]
        rows = rows.assign(position=position).sort_values("position")
        x = np.asarray(_dodged(rows["position"], (index - (len(groups) - 1) / 2) * step))
        line = {"label": f"{group_label(group)} (median)", **style}
        thin_points += _draw_group(
            ax, x, rows, server_type_color(group), per_minute, min_count, line
        )
    _label_axes(ax, over=over, by=by, is_time=is_time)
    title = (
        f"Median match duration by {_over_name(over).split(' ')[0]} (bars: middle 50%; numbers: n)"
    )
    if thin_points:
        points = f"{thin_points} point{'s' if thin_points != 1 else ''}"
        title += f"\nhollow: fewer than {min_count} matches ({points}), read with care"
    ax.set_title(title)
    return ax


def _trend_summary(data: TableSource | pd.DataFrame, over: str, by: str) -> pd.DataFrame:
    """The duration summary by ``[over, by]``: a summary as given (checked), else computed."""
    if not isinstance(data, pd.DataFrame) or ("median" not in data and "duration" in data):
        return duration_summary(data, by=[over, by])  # the matches, their table or an archive
    missing = [name for name in (over, by, "median", "q1", "q3") if name not in data]
    if missing:
        raise InvalidArgumentError(
            f"the summary lacks {missing}: pass MatchFrames or "
            f"duration_summary(frames, by=[{over!r}, {by!r}])",
            parameter="data",
        )
    return data


def _positions(ax: Axes, values: pd.Series) -> tuple[dict[Any, Any], bool]:
    """Each value's place on the x axis, and whether the axis is one of time: times as naive
    datetimes (matplotlib's date axis; the values are UTC), anything else in version order,
    ticked by name."""
    if pd.api.types.is_datetime64_any_dtype(values):
        unique = values.dropna().unique()
        return {value: value.tz_localize(None) if value.tzinfo else value for value in unique}, True
    ordered = sorted(values.dropna().unique(), key=version_key)
    positions = {value: index for index, value in enumerate(ordered)}
    ax.set_xticks(list(positions.values()), [str(value) for value in positions])
    return positions, False


def _draw_group(
    ax: Axes,
    x: np.ndarray,
    rows: pd.DataFrame,
    color: str,
    per_minute: float,
    min_count: int,
    line: dict[str, Any],
) -> int:
    """One group's medians (a line), their ranges (bars, full points only), its thin points
    (hollow) and each point's n; returns how many points were thin."""
    median = (rows["median"] / per_minute).to_numpy(dtype="float64")
    counts = rows["count"].to_numpy() if "count" in rows else None
    thin = (counts < min_count) if counts is not None else np.zeros(len(rows), dtype=bool)
    ax.plot(x, median, **{"color": color, "marker": "o", "markersize": 4, **line})
    full = ~thin
    low = (rows["q1"] / per_minute).to_numpy(dtype="float64")
    high = (rows["q3"] / per_minute).to_numpy(dtype="float64")
    ax.vlines(x[full], low[full], high[full], color=color, alpha=0.35, linewidth=2, zorder=1)
    if thin.any():
        ax.plot(
            x[thin],
            median[thin],
            linestyle="none",
            marker="o",
            markersize=7,
            markerfacecolor="white",
            markeredgecolor=color,
            markeredgewidth=1.5,
        )
    if counts is not None:
        # Plain Text with an offset transform: much cheaper to draw than annotations.
        above = ax.transData + ScaledTranslation(0, 4 / 72, ax.figure.dpi_scale_trans)
        for x_value, y_value, count in zip(x, median, counts, strict=True):
            label = f"{int(count)}"
            ax.text(
                x_value,
                y_value,
                label,
                transform=above,
                ha="center",
                va="bottom",
                fontsize=7,
                color=color,
            )
    return int(thin.sum())


def _over_name(over: str) -> str:
    """How the x axis is called: the period (a week starts on Monday, UTC), or the column."""
    names = {"date": "day", "week": "week (starting Monday, UTC)", "month": "month"}
    return names.get(over, over.replace("_", " "))


def _label_axes(ax: Axes, *, over: str, by: str, is_time: bool) -> None:
    over_name = _over_name(over)
    ax.set_xlabel(over_name[0].upper() + over_name[1:])
    ax.set_ylabel("Match duration (minutes)")
    ax.grid(alpha=0.3)
    if is_time:
        locator = mdates.AutoDateLocator()
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    if ax.get_legend_handles_labels()[0]:
        # Beside the plot: the bands fill the Axes, so no corner is free.
        ax.legend(
            title=by.replace("_", " ").capitalize(), loc="upper left", bbox_to_anchor=(1.01, 1.0)
        )
