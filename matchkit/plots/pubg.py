"""Plots of the PUBG analyses: weapon kill shares, kill distances, landing heatmaps, damage by
placement, the winners against the safe zone.

Each takes ``data`` and ``telemetry`` as its analysis does (MatchFrames of PUBG matches and
their PubgTelemetryFrames), or the analysis table itself as ``data`` (then no telemetry), draws
on ``ax`` (a new Figure's Axes when None, never pyplot's state), names its units and shows
``n``. One match on its map: :func:`matchkit.plots.pubg_map.plot_match_map`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from matchkit.analysis import TableSource
from matchkit.analysis.pubg import (
    PubgTelemetryFrames,
    damage_by_placement,
    kill_distances,
    landing_spots,
    weapon_kill_shares,
    zone_phases,
)
from matchkit.errors import InvalidArgumentError
from matchkit.names import Names
from matchkit.plots._arguments import checked_count
from matchkit.plots._style import SIDE_COLORS, new_axes, percent_axis

__all__ = [
    "plot_damage_by_placement",
    "plot_kill_distances",
    "plot_landing_heatmap",
    "plot_weapon_kill_shares",
    "plot_zone_phases",
]

_COLOR = SIDE_COLORS[1]


def _table(
    data: Any,
    telemetry: Any,
    required: tuple[str, ...],
    build: Callable[..., pd.DataFrame],
    **options: Any,
) -> pd.DataFrame:
    """``data`` when it is the analysis table (with the ``required`` columns), else the table
    ``build`` makes of ``data`` and ``telemetry`` (the analysis checks them)."""
    if not isinstance(data, pd.DataFrame):
        return build(data, telemetry, **options)
    missing = [name for name in required if name not in data.columns]
    if missing:
        raise InvalidArgumentError(
            f"the table lacks {missing}: pass MatchFrames and telemetry, or the "
            f"{build.__name__}(...) table",
            parameter="data",
        )
    return data


def plot_weapon_kill_shares(
    data: TableSource | pd.DataFrame,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    top: int = 15,
    ax: Axes | None = None,
    names: Names | Mapping[str, Any] | None = None,
    **style: Any,
) -> Axes:
    """The ``top`` damage causers by share of the kills made by players, with 95% Wilson
    intervals, most kills at the top; each label gives its kills."""
    top = checked_count(top, "top")
    required = ("damage_causer_name", "kills", "share", "ci_low", "ci_high", "group_kills")
    table = _table(data, telemetry, required, weapon_kill_shares, names=names)
    rows = table.sort_values("kills", ascending=False).head(top).iloc[::-1]
    ax = new_axes(ax, figsize=(7.0, 0.6 + 0.32 * max(len(rows), 3)))
    positions = np.arange(len(rows))
    ax.barh(positions, rows["share"], color=_COLOR, alpha=0.6, **style)
    ax.errorbar(
        rows["share"],
        positions,
        xerr=[rows["share"] - rows["ci_low"], rows["ci_high"] - rows["share"]],
        fmt="none",
        ecolor="#333333",
        capsize=2,
    )
    labels = [
        f"{name} (n={kills:,})"
        for name, kills in zip(rows["damage_causer_name"], rows["kills"], strict=True)
    ]
    ax.set_yticks(positions, labels, fontsize=8)
    percent_axis(ax, axis="x")
    total = int(rows["group_kills"].max()) if len(rows) else 0
    ax.set_xlabel(f"share of kills by players (95% interval; {total:,} kills)")
    ax.set_title("Kills by weapon")
    return ax


def plot_kill_distances(
    data: TableSource | pd.DataFrame,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    top: int = 15,
    ax: Axes | None = None,
    names: Names | Mapping[str, Any] | None = None,
    **style: Any,
) -> Axes:
    """Kill distances of the ``top`` damage causers (most kills first): the 10-90% range as a
    thin line, the 25-75% range as a thick one, the median as a dot with its 95% interval."""
    top = checked_count(top, "top")
    required = ("damage_causer_name", "kills", "q10_m", "q25_m", "q50_m", "q75_m", "q90_m")
    table = _table(data, telemetry, required, kill_distances, names=names)
    rows = table.sort_values("kills", ascending=False).head(top).reset_index(drop=True)
    ax = new_axes(ax, figsize=(9.0, 4.5))
    positions = np.arange(len(rows))
    ax.vlines(positions, rows["q10_m"], rows["q90_m"], color=_COLOR, linewidth=1)
    ax.vlines(positions, rows["q25_m"], rows["q75_m"], color=_COLOR, linewidth=6, alpha=0.6)
    if {"median_ci_low_m", "median_ci_high_m"} <= set(rows.columns):
        ax.errorbar(
            positions,
            rows["q50_m"],
            yerr=[
                rows["q50_m"] - rows["median_ci_low_m"],
                rows["median_ci_high_m"] - rows["q50_m"],
            ],
            fmt="o",
            color="#333333",
            capsize=3,
            markersize=4,
            **style,
        )
    labels = [
        f"{name}\nn={kills:,}"
        for name, kills in zip(rows["damage_causer_name"], rows["kills"], strict=True)
    ]
    ax.set_xticks(positions, labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("kill distance (m)")
    ax.set_xlabel("damage causer (n = kills)")
    ax.set_title("Kill distance by weapon: 10-90%, 25-75%, median (95% interval)")
    return ax


def plot_landing_heatmap(
    data: TableSource | pd.DataFrame,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    map_name: str | None = None,
    bins: int = 32,
    ax: Axes | None = None,
    names: Names | Mapping[str, Any] | None = None,
    map_size: Mapping[str, int] | None = None,
    **style: Any,
) -> Axes:
    """Where players landed on one map: landings per cell of a ``bins`` x ``bins`` grid over
    the map's coordinates (cm, y down as on the map).

    Args:
        data: MatchFrames (with ``telemetry``) or a :func:`landing_spots` table.
        telemetry: the PubgTelemetryFrames, when ``data`` is MatchFrames.
        map_name: the map, by id or name; None when the table holds one map.
        bins: cells per side (when the table is built here).
        ax: the Axes to draw on.
        names: map names, as for :func:`landing_spots`.
        map_size: sizes of maps PUBG does not document.
        **style: passed to ``imshow`` (``cmap``, ...).
    """
    required = ("map_id", "map_name", "map_size", "x_bin", "y_bin", "landings")
    table = _table(
        data, telemetry, required, landing_spots, bins=bins, names=names, map_size=map_size
    )
    maps = list(dict.fromkeys(table["map_id"].astype(str)))
    if map_name is None and len(maps) == 1:
        rows = table
    else:
        chosen = (table["map_id"].astype(str) == str(map_name)) | (
            table["map_name"].astype(str) == str(map_name)
        )
        rows = table[chosen.to_numpy()]
        if rows.empty:
            raise InvalidArgumentError(
                f"map_name={map_name!r}: choose one of the maps with landings: "
                f"{', '.join(maps) or '(none)'}",
                parameter="map_name",
            )
    size = float(rows["map_size"].iloc[0])
    side = int(rows["x_bin"].max()) + 1
    grid = np.zeros((side, side))
    grid[rows["y_bin"].to_numpy(dtype=int), rows["x_bin"].to_numpy(dtype=int)] = rows["landings"]
    ax = new_axes(ax, figsize=(6.5, 5.5))
    image = ax.imshow(grid, extent=(0, size, size, 0), origin="upper", **{"cmap": "magma", **style})
    ax.figure.colorbar(image, ax=ax, label="landings per cell")
    ax.set_xlim(0, size)
    ax.set_ylim(size, 0)
    ax.set_xlabel("x (cm)")
    ax.set_ylabel("y (cm)")
    name = rows["map_name"].iloc[0]
    matches = int(rows["matches"].iloc[0]) if "matches" in rows.columns else 0
    ax.set_title(f"Landings on {name} (n={int(rows['landings'].sum()):,}; {matches:,} matches)")
    return ax


def plot_damage_by_placement(
    data: TableSource | pd.DataFrame,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    ax: Axes | None = None,
    **style: Any,
) -> Axes:
    """Mean damage dealt by the roster's placement, with 95% intervals (1 = the winners)."""
    required = ("rank", "players", "mean_damage", "ci_low", "ci_high")
    table = _table(data, telemetry, required, damage_by_placement)
    rows = table.sort_values("rank")
    ax = new_axes(ax)
    mean = rows["mean_damage"]
    ax.errorbar(
        rows["rank"],
        mean,
        yerr=[(mean - rows["ci_low"]).fillna(0), (rows["ci_high"] - mean).fillna(0)],
        fmt="o",
        color=_COLOR,
        capsize=2,
        markersize=4,
        **style,
    )
    ax.set_xlabel(f"placement (roster rank; n = {int(rows['players'].sum()):,} players)")
    ax.set_ylabel("damage dealt, mean (95% interval)")
    ax.set_title("Damage dealt by placement")
    return ax


def plot_zone_phases(
    data: TableSource | pd.DataFrame,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    ax: Axes | None = None,
    **style: Any,
) -> Axes:
    """Where the winners stood by safe zone phase: their mean distance to the safe zone's
    centre over its radius (1 = its edge), with 95% intervals; each tick gives n positions."""
    required = ("phase", "positions", "mean_relative_distance", "mean_ci_low", "mean_ci_high")
    table = _table(data, telemetry, required, zone_phases)
    rows = table.sort_values("phase").reset_index(drop=True)
    ax = new_axes(ax)
    positions = np.arange(len(rows))
    mean = rows["mean_relative_distance"]
    ax.errorbar(
        positions,
        mean,
        yerr=[(mean - rows["mean_ci_low"]).fillna(0), (rows["mean_ci_high"] - mean).fillna(0)],
        fmt="o-",
        color=_COLOR,
        capsize=3,
        **style,
    )
    ax.axhline(1.0, color="#999999", linestyle="--", linewidth=1, label="the safe zone's edge")
    labels = [
        f"{phase:g}\nn={n:,}" for phase, n in zip(rows["phase"], rows["positions"], strict=True)
    ]
    ax.set_xticks(positions, labels, fontsize=7)
    ax.set_xlabel("phase (common.isGame: n.0 waiting, n.5 shrinking; n = winner positions)")
    ax.set_ylabel("distance to zone centre / radius (mean, 95%)")
    ax.set_title("Where the winners stood, by safe zone phase")
    ax.legend(fontsize=8)
    return ax
