"""Plots of telemetry analyses: battlerite win rates, queue times by hour, rates per minute.

Each takes TelemetryFrames, an archive synced with telemetry, or the matching
:mod:`matchkit.analysis.telemetry` table, draws on ``ax`` (a new Figure's Axes when None, never
pyplot's state), names its units and shows ``n``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
from matplotlib.axes import Axes

from matchkit.analysis import (
    TelemetryTableSource,
    battlerite_win_rates,
    per_minute_rates,
    queue_times,
)
from matchkit.errors import InvalidArgumentError
from matchkit.names import Names
from matchkit.plots._style import SIDE_COLORS, new_axes, percent_axis

__all__ = ["plot_battlerite_win_rates", "plot_per_minute_rates", "plot_queue_times"]

_OFFSET = 0.18
_REGION_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#555555")


def _table(
    data: TelemetryTableSource | pd.DataFrame,
    required: tuple[str, ...],
    build: Callable[..., pd.DataFrame],
    **options: Any,
) -> pd.DataFrame:
    """``data`` when it is the analysis table (with the ``required`` columns), else the table
    ``build`` makes of it (the analysis checks its own input)."""
    if not isinstance(data, pd.DataFrame):
        return build(data, **options)
    missing = [name for name in required if name not in data.columns]
    if missing:
        raise InvalidArgumentError(
            f"the table lacks {missing}: pass TelemetryFrames or the {build.__name__}(...) table",
            parameter="data",
        )
    return data


def plot_battlerite_win_rates(
    data: TelemetryTableSource | pd.DataFrame,
    *,
    character: str,
    ax: Axes | None = None,
    names: Names | Mapping[str, Any] | None = None,
    **style: Any,
) -> Axes:
    """One character's battlerites: win rate of the players who picked each (circle) and of
    those who did not (square), with 95% Wilson intervals, and the 50% line.

    Args:
        data: TelemetryFrames, an archive, or a
            :func:`matchkit.analysis.telemetry.battlerite_win_rates` table.
        character: the character's name or actor id.
        ax: the Axes to draw on.
        names: :class:`matchkit.names.Names` or actor id -> name, when ``data`` is not a table
            (None: no names, ids as text).
        **style: passed to each errorbar.

    Battlerites are labelled by ``battlerite_name`` (without the character's name before it)
    where the table has one, else by id.
    """
    required = ("character", "character_name", "battlerite_type", "win_rate", "picks")
    table = _table(data, required, battlerite_win_rates, names=names)
    rows = table[
        (table["character_name"].astype(str) == str(character))
        | (table["character"].astype(str) == str(character))
    ].reset_index(drop=True)
    if rows.empty:
        raise InvalidArgumentError(
            f"no battlerites of character {character!r}", parameter="character"
        )
    ax = new_axes(ax, figsize=(9.0, 4.5))
    positions = pd.Series(range(len(rows)), dtype="float64")
    for offset, prefix, column, marker, label in (
        (-_OFFSET, "", "win_rate", "o", "picked it"),
        (_OFFSET, "without_", "win_rate_without", "s", "did not"),
    ):
        low = rows[f"{prefix}ci_low"]
        high = rows[f"{prefix}ci_high"]
        ax.errorbar(
            positions + offset,
            rows[column],
            yerr=[rows[column] - low, high - rows[column]],
            fmt=marker,
            color=SIDE_COLORS[1 if not prefix else 2],
            capsize=3,
            label=label,
            **style,
        )
    ax.axhline(0.5, color="#999999", linewidth=1, linestyle="--")
    name = rows.loc[0, "character_name"]
    labels = _battlerite_labels(rows, str(name))
    ax.set_xticks(
        positions,
        [f"{b}\nn={p}/{n}" for b, p, n in zip(labels, rows["picks"], rows["players"], strict=True)],
        fontsize=7,
    )
    percent_axis(ax)
    shown = "name" if (labels != rows["battlerite_type"].astype(str)).any() else "id"
    ax.set_xlabel(f"battlerite ({shown}); n = players who picked it / players of the character")
    ax.set_ylabel("match win rate (95% interval)")
    ax.set_title(f"{name}: win rate by battlerite picked")
    ax.legend(title="players who", loc="upper right", fontsize=8)
    return ax


def _battlerite_labels(rows: pd.DataFrame, character: str) -> pd.Series:
    """Each row's battlerite name without ``"<character>: "``, else its id (as text)."""
    ids = rows["battlerite_type"].astype(str)
    if "battlerite_name" not in rows.columns:
        return ids
    named = rows["battlerite_name"].astype("string").fillna(ids)
    return named.str.removeprefix(f"{character}: ").astype(str)


def plot_queue_times(
    data: TelemetryTableSource | pd.DataFrame, *, ax: Axes | None = None, **style: Any
) -> Axes:
    """Mean seconds in queue by the match's start hour (UTC), one line per match region, with
    its 95% interval as a band; the legend gives each region's n (queued players)."""
    required = ("match_region", "start_hour", "mean_seconds", "ci_low", "ci_high", "n")
    table = _table(data, required, queue_times, by=["match_region", "start_hour"])
    ax = new_axes(ax)
    for index, (region, part) in enumerate(table.groupby("match_region", sort=True)):
        part = part.sort_values("start_hour")
        color = _REGION_COLORS[index % len(_REGION_COLORS)]
        hours = part["start_hour"].astype("int64")
        label = f"{region} (n={int(part['n'].sum()):,})"
        line = {"marker": "o", "markersize": 3, "color": color, "label": label, **style}
        ax.plot(hours, part["mean_seconds"], **line)
        ax.fill_between(hours, part["ci_low"], part["ci_high"], color=color, alpha=0.15)
    ax.set_xticks(range(0, 24, 2))
    ax.set_xlabel("match start, hour of day (UTC)")
    ax.set_ylabel("time in queue, mean (s, 95% interval)")
    ax.set_title("Queue time by region and hour")
    ax.legend(fontsize=8, ncols=2)
    return ax


def plot_per_minute_rates(
    data: TelemetryTableSource | pd.DataFrame,
    *,
    stat: str = "damage_done",
    ax: Axes | None = None,
    names: Names | Mapping[str, Any] | None = None,
    **style: Any,
) -> Axes:
    """One stat per minute alive for each character, with 95% intervals, highest first."""
    required = ("character_name", "stat", "per_minute", "ci_low", "ci_high", "n")
    table = _table(data, required, per_minute_rates, by=["character"], names=names)
    rows = table[table["stat"] == stat].sort_values("per_minute", ascending=False)
    if rows.empty:
        raise InvalidArgumentError(f"the table has no stat {stat!r}", parameter="stat")
    ax = new_axes(ax, figsize=(9.0, 4.5))
    positions = range(len(rows))
    ax.errorbar(
        positions,
        rows["per_minute"],
        yerr=[rows["per_minute"] - rows["ci_low"], rows["ci_high"] - rows["per_minute"]],
        fmt="o",
        color=SIDE_COLORS[1],
        capsize=2,
        **style,
    )
    ax.set_xticks(
        list(positions),
        [f"{name} ({n:,})" for name, n in zip(rows["character_name"], rows["n"], strict=True)],
        rotation=60,
        ha="right",
        fontsize=7,
    )
    label = stat.replace("_", " ")
    ax.set_xlabel("character (n = player-rounds)")
    ax.set_ylabel(f"{label} per minute alive (95% interval)")
    ax.set_title(f"{label.capitalize()} per minute alive, by character")
    return ax
