"""One PUBG match on its map: paths, landings, kills and the safe zone's phases.

The axis is the map's own coordinates (centimetres, (0, 0) at the top left, y down), sized from
:data:`matchkit.telemetry.pubg.MAP_SIZES`; under it a plain grid, or the user's map image when
given its path (matchkit ships no map images: their terms are PUBG's).
"""

from __future__ import annotations

from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.patches import Circle

from matchkit.analysis import TableSource
from matchkit.analysis.pubg import PubgInputs, PubgTelemetryFrames, checked_pubg_inputs, map_sizes
from matchkit.errors import InvalidArgumentError, StorageError
from matchkit.names import Names, as_names
from matchkit.plots._style import new_axes

__all__ = ["plot_match_map"]

_WINNER = "#D55E00"
_OTHER = "#7f7f7f"
_ZONE = "#0072B2"
_KILL = "#CC0000"
_GRID_LINES = 8


def plot_match_map(
    data: TableSource,
    telemetry: PubgTelemetryFrames | None = None,
    match_id: str | None = None,
    *,
    image: str | PathLike[str] | None = None,
    map_size: int | None = None,
    ax: Axes | None = None,
    names: Names | Mapping[str, Any] | None = None,
) -> Axes:
    """One match on its map: every player's path (the winners' in colour), landings, kills
    (a cross where each victim fell, the zone's too) and the safe zone at each phase's start.

    Args:
        data: MatchFrames holding the match, or an archive holding it and its telemetry
            (``plot_match_map(archive, match_id=...)``: only that match's telemetry is read).
        telemetry: PubgTelemetryFrames holding its file (None with an archive).
        match_id: the match (required).
        image: the path of your own image of the map (PNG or JPEG, its whole square), drawn
            under the data; None: a plain grid.
        map_size: the map's size in centimetres, for a map PUBG does not document.
        ax: the Axes to draw on.
        names: map names (kind ``map``) for the title.

    Raises:
        InvalidArgumentError: the match is not in ``data`` or ``telemetry``, or its map's size
            is not known (pass ``map_size=``).
        StorageError: ``image`` cannot be read.
    """
    match_id = _checked_match_id(match_id)
    inputs = checked_pubg_inputs(data, telemetry)
    match = _match_row(inputs, match_id)
    map_id = str(match["map_name"])
    size = _size(map_id, map_size)
    ax = new_axes(ax, figsize=(8.0, 8.0))
    if image is not None:
        ax.imshow(_read_image(image), extent=(0, size, size, 0), origin="upper", zorder=0)
    else:
        _grid(ax, size)
    winners = _winners(inputs, match_id)
    _paths(ax, inputs, match_id, winners)
    _zones(ax, inputs, match_id)
    landings = _of_match(inputs, "landings", match_id, ["player_x", "player_y"])
    ax.scatter(
        landings["player_x"].astype("float64"),
        landings["player_y"].astype("float64"),
        s=10,
        marker="v",
        color="#009E73",
        label=f"landings ({len(landings)})",
        zorder=3,
    )
    kills = _of_match(inputs, "kills", match_id, ["victim_x", "victim_y"])
    ax.scatter(
        kills["victim_x"].astype("float64"),
        kills["victim_y"].astype("float64"),
        s=24,
        marker="x",
        color=_KILL,
        label=f"kills ({len(kills)})",
        zorder=4,
        gid="kills",
    )
    ax.set_xlim(0, size)
    ax.set_ylim(size, 0)
    ax.set_aspect("equal")
    ax.set_xlabel("x (cm)")
    ax.set_ylabel("y (cm)")
    name = as_names(names, kind="map").name("map", map_id)
    ax.set_title(f"{name}, {match['game_mode']}: match {match_id}", fontsize=9)
    ax.legend(loc="upper right", fontsize=7)
    return ax


def _checked_match_id(match_id: object) -> str:
    if not isinstance(match_id, str):
        raise InvalidArgumentError(
            f"match_id={match_id!r} must be a match id (text)", parameter="match_id"
        )
    return match_id


def _match_row(inputs: PubgInputs, match_id: str) -> pd.Series:
    rows = inputs.all_matches[inputs.all_matches["match_id"] == match_id]
    if rows.empty:
        raise InvalidArgumentError(
            f"match {match_id} is not in data: pass one of data.matches.match_id",
            parameter="match_id",
        )
    if match_id not in set(inputs.matches["match_id"]):
        raise InvalidArgumentError(
            f"telemetry holds no file of match {match_id}: read its file "
            "(client.telemetry or to_pubg_telemetry_frames) and pass it",
            parameter="match_id",
        )
    return rows.iloc[0]


def _size(map_id: str, map_size: int | None) -> float:
    if map_size is not None:
        return float(map_sizes({map_id: map_size})[map_id])
    sizes = map_sizes()
    if map_id not in sizes:
        raise InvalidArgumentError(
            f"the size of map {map_id} is not known: pass map_size= (its side in centimetres)",
            parameter="map_size",
        )
    return float(sizes[map_id])


def _read_image(path: object) -> np.ndarray:
    from matplotlib import image as mpimage

    if not isinstance(path, str | PathLike):
        raise InvalidArgumentError(
            f"image={path!r} must be the path of your map image (a PNG or JPEG file)",
            parameter="image",
        )
    try:
        return np.asarray(mpimage.imread(Path(path)))
    except (OSError, ValueError, SyntaxError) as error:
        raise StorageError(f"cannot read the map image {path}: {error}") from None


def _grid(ax: Axes, size: float) -> None:
    ax.set_facecolor("#f4f4ef")
    ticks = np.linspace(0, size, _GRID_LINES + 1)
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.tick_params(labelsize=7)
    ax.grid(True, color="#cccccc", linewidth=0.6)


def _of_match(inputs: PubgInputs, table: str, match_id: str, columns: list[str]) -> pd.DataFrame:
    """The ``columns`` of one match's rows of a telemetry table (an archive reads only those)."""
    return inputs.table(table, match_id, columns=columns)


def _winners(inputs: PubgInputs, match_id: str) -> set[str]:
    participants, rosters = inputs.match_tables(
        {
            "participants": ["match_id", "roster_id", "player_id"],
            "rosters": ["match_id", "roster_id", "rank"],
        }
    )
    rosters = rosters[(rosters["match_id"] == match_id).to_numpy()]
    won = set(rosters.loc[rosters["rank"] == 1, "roster_id"])
    chosen = (participants["match_id"] == match_id) & participants["roster_id"].isin(won)
    return set(participants.loc[chosen.to_numpy(), "player_id"].dropna())


def _paths(ax: Axes, inputs: PubgInputs, match_id: str, winners: set[str]) -> None:
    positions = _of_match(
        inputs, "positions", match_id, ["player_id", "time", "player_x", "player_y"]
    ).sort_values("time", kind="stable")
    lines: dict[bool, list[np.ndarray]] = {True: [], False: []}
    for player, path in positions.groupby("player_id", sort=True):
        points = path[["player_x", "player_y"]].to_numpy(dtype="float64")
        lines[player in winners].append(points)
    for winner, color, width, label in (
        (False, _OTHER, 0.6, "paths"),
        (True, _WINNER, 1.6, "the winners' paths"),
    ):
        if lines[winner]:
            collection = LineCollection(
                lines[winner], colors=color, linewidths=width, alpha=0.8, label=label, zorder=2
            )
            ax.add_collection(collection)


def _zones(ax: Axes, inputs: PubgInputs, match_id: str) -> None:
    states = _of_match(
        inputs,
        "game_states",
        match_id,
        ["time", "phase", "safe_zone_x", "safe_zone_y", "safe_zone_radius"],
    ).sort_values("time", kind="stable")
    firsts = states[states["safe_zone_radius"].astype("float64") > 0].drop_duplicates("phase")
    for number, (_, state) in enumerate(firsts.iterrows()):
        ax.add_patch(
            Circle(
                (float(state["safe_zone_x"]), float(state["safe_zone_y"])),
                float(state["safe_zone_radius"]),
                fill=False,
                edgecolor=_ZONE,
                linewidth=1,
                alpha=0.8,
                label="safe zone at each phase" if number == 0 else None,
                zorder=2,
            )
        )
