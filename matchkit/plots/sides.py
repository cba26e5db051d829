"""Plot of each side's win rate per group, with its interval and the 50% line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from matchkit.analysis import SIDES, Level, TableSource, side_win_rates
from matchkit.errors import InvalidArgumentError
from matchkit.names import NAME_COLUMNS
from matchkit.plots._style import (
    SIDE_COLORS,
    SIDE_MARKERS,
    group_label,
    new_axes,
    percent_axis,
    server_type_color,
)

__all__ = ["plot_side_win_rates"]

_OFFSET = 0.15
_REQUIRED = ("side", "wins", "win_rate", "ci_low", "ci_high")


_FULL_COUNT_GROUPS = 4


def plot_side_win_rates(
    data: TableSource | pd.DataFrame,
    *,
    ax: Axes | None = None,
    by: str | Sequence[str] | None = "server_type",
    level: Level = "match",
    **style: Any,
) -> Axes:
    """Each side's win rate per group: a point with its 95% interval, and the 50% line.

    Side 1 is drawn as a circle, side 2 as a square, next to each other in each group; their
    rates mirror each other around 50% because one side wins each match. Groups that are server
    types take the server-type colours; other groups are coloured by side.

    Args:
        data: the normalized matches, an archive, or a
            :func:`matchkit.analysis.side_win_rates` table.
        ax: the Axes to draw on; a new Figure's Axes when None.
        by: grouping keys when ``data`` is not a table (a table carries its own groups: every
            column before ``side``).
        level: ``"match"`` or ``"round"`` when ``data`` is not a table.
        **style: passed to each errorbar (``capsize``, ``markersize``, ...).

    Returns:
        The Axes; tick labels name each group and its number of matches (or rounds).
    """
    if isinstance(data, pd.DataFrame):
        rates = data
        missing = [name for name in _REQUIRED if name not in rates.columns]
        if missing:
            raise InvalidArgumentError(
                f"the table lacks {missing}: pass MatchFrames or a side_win_rates(...) result",
                parameter="data",
            )
    else:
        rates = side_win_rates(data, by=by, level=level)
    count_column = "rounds" if "rounds" in rates.columns else "matches"
    keys = list(rates.columns[: list(rates.columns).index("side")])
    ax = new_axes(ax)
    if keys:
        grouped = rates.groupby(keys, observed=True, dropna=False, sort=False)
        groups = [(tuple(values), rows) for values, rows in grouped]
    else:
        groups = [((), rates)] if len(rates) else []
    by_server_type = keys == ["server_type"]
    # An id column with its name column beside it (map_id, map) is labelled by the name.
    shown = [key for key in keys if not (key in NAME_COLUMNS and NAME_COLUMNS[key][1] in keys)]
    labels = []
    for position, (values, rows) in enumerate(groups):
        label = " / ".join(
            group_label(value) for key, value in zip(keys, values, strict=True) if key in shown
        )
        count = int(rows[count_column].max())
        # Beyond a few groups the full "1,234 matches" would run into its neighbours.
        counted = (
            f"{count:,} {count_column}" if len(groups) <= _FULL_COUNT_GROUPS else f"n={count:,}"
        )
        labels.append(f"{label or 'all matches'}\n{counted}")
        group_color = server_type_color(values[0]) if by_server_type else None
        _draw_sides(ax, position, rows, group_color, style)
    ax.axhline(0.5, color="black", linestyle="--", linewidth=1, label="50% (no advantage)")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlim(-0.6, max(len(labels) - 0.4, 0.6))
    _set_rate_limits(ax, rates)
    percent_axis(ax)
    unit = "rounds" if count_column == "rounds" else "matches"
    ax.set_ylabel(f"Share of {unit} won (95% interval)")
    title_by = f" by {', '.join(key.replace('_', ' ') for key in keys)}" if keys else ""
    ax.set_title(f"Arena win rate of each side{title_by}")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(handles=_legend_handles(by_server_type), loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax


def _draw_sides(
    ax: Axes, position: int, rows: pd.DataFrame, color: str | None, style: dict[str, Any]
) -> None:
    """One group's two points beside ``position`` (side 1 left, a circle; side 2 right, a
    square) with their intervals, in ``color`` (None: each side's colour)."""
    for side in SIDES:
        side_rows = rows.loc[rows["side"] == side]
        if side_rows.empty:
            continue
        row = side_rows.iloc[0]
        shade = color or SIDE_COLORS[side]
        options = {
            "fmt": SIDE_MARKERS[side],
            "color": shade,
            "markersize": 8,
            "capsize": 5,
            "elinewidth": 2,
            "markerfacecolor": shade if side == 1 else "white",
            "markeredgewidth": 2,
            "label": f"side {side}",
            **style,
        }
        ax.errorbar(
            [position + (_OFFSET if side == 2 else -_OFFSET)],
            [row["win_rate"]],
            yerr=[[row["win_rate"] - row["ci_low"]], [row["ci_high"] - row["win_rate"]]],
            **options,
        )


def _set_rate_limits(ax: Axes, rates: pd.DataFrame) -> None:
    """Zoom around 50% so small advantages are visible, always keeping 50% and every interval."""
    low = min([0.5, *rates["ci_low"].dropna().tolist()])
    high = max([0.5, *rates["ci_high"].dropna().tolist()])
    margin = max(0.02, (high - low) * 0.15)
    # A little room past 0% or 100% so that a marker sitting there is not cut in half.
    ax.set_ylim(max(-0.03, low - margin), min(1.03, high + margin))


def _legend_handles(by_server_type: bool) -> list[Line2D]:
    neutral = "#333333"
    handles = []
    for side in SIDES:
        color = neutral if by_server_type else SIDE_COLORS[side]
        handles.append(
            Line2D(
                [],
                [],
                marker=SIDE_MARKERS[side],
                linestyle="none",
                color=color,
                markerfacecolor=color if side == 1 else "white",
                markeredgewidth=2,
                markersize=8,
                label=f"side {side}",
            )
        )
    handles.append(Line2D([], [], color="black", linestyle="--", label="50% (no advantage)"))
    return handles
