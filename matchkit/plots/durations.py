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
    if isinstance(data, pd.DataFrame) and "median" not in data and "duration" in data:
        summary = duration_summary(data, by=[over, by])  # a matches table
    elif isinstance(data, pd.DataFrame):
        summary = data
        missing = [name for name in (over, by, "median", "q1", "q3") if name not in summary]
        if missing:
            raise InvalidArgumentError(
                f"the summary lacks {missing}: pass MatchFrames or "
                f"duration_summary(frames, by=[{over!r}, {by!r}])",
                parameter="data",
            )
    else:
        summary = duration_summary(data, by=[over, by])
    per_minute = 1.0 if summary.attrs.get("unit") == "minutes" else SECONDS_PER_MINUTE
    ax = new_axes(ax)
    is_time = pd.api.types.is_datetime64_any_dtype(summary[over])
    if is_time:
        # Matplotlib's date axis wants naive datetimes: the values are UTC.
        positions = {
            value: value.tz_localize(None) if value.tzinfo else value
            for value in summary[over].dropna().unique()
        }
    else:
        ordered = sorted(summary[over].dropna().unique(), key=version_key)
        positions = {value: index for index, value in enumerate(ordered)}
        ax.set_xticks(list(positions.values()), [str(value) for value in positions])
    groups = sorted(summary[by].dropna().unique(), key=str)
    step = _dodge_step(positions, is_time)
    thin_points = 0
    for index, group in enumerate(groups):
        rows = summary.loc[summary[by] == group].dropna(subset=[over])
        # Through plain objects: mapping a categorical column would keep category order.
        position = [positions[value] for value in rows[over].astype(object)]
        rows = rows.assign(position=position).sort_values("position")
        x = _dodged(rows["position"], (index - (len(groups) - 1) / 2) * step)
        color = server_type_color(group)
        median = (rows["median"] / per_minute).to_numpy(dtype="float64")
        counts = rows["count"].to_numpy() if "count" in rows else None
        thin = (counts < min_count) if counts is not None else np.zeros(len(rows), dtype=bool)
        thin_points += int(thin.sum())
        label = f"{group_label(group)} (median)"
        options = {"color": color, "marker": "o", "markersize": 4, "label": label, **style}
        ax.plot(x, median, **options)
        full = ~thin
        low = (rows["q1"] / per_minute).to_numpy(dtype="float64")
        high = (rows["q3"] / per_minute).to_numpy(dtype="float64")
        ax.vlines(
            np.asarray(x)[full],
            low[full],
            high[full],
            color=color,
            alpha=0.35,
            linewidth=2,
            zorder=1,
        )
        if thin.any():
            ax.plot(
                np.asarray(x)[thin], median[thin], linestyle="none", marker="o", markersize=7,
                markerfacecolor="white", markeredgecolor=color, markeredgewidth=1.5,
            )  # fmt: skip
        if counts is not None:
            # Plain Text with an offset transform: much cheaper to draw than annotations.
            above = ax.transData + ScaledTranslation(0, 4 / 72, ax.figure.dpi_scale_trans)
            for x_value, y_value, count in zip(x, median, counts, strict=True):
                ax.text(
                    x_value, y_value, f"{int(count)}", transform=above, ha="center",
                    va="bottom", fontsize=7, color=color,
                )  # fmt: skip
    over_name = {"date": "day", "week": "week (starting Monday, UTC)", "month": "month"}.get(
        over, over.replace("_", " ")
    )
    ax.set_xlabel(over_name[0].upper() + over_name[1:])
    ax.set_ylabel("Match duration (minutes)")
    title = f"Median match duration by {over_name.split(' ')[0]} (bars: middle 50%; numbers: n)"
    if thin_points:
        points = f"{thin_points} point{'s' if thin_points != 1 else ''}"
        title += f"\nhollow: fewer than {min_count} matches ({points}), read with care"
    ax.set_title(title)
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
    return ax
