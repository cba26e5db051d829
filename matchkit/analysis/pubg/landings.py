"""Where players land, by map: parachute landings binned on a square grid for a heatmap."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from matchkit.analysis.inputs import TableSource
from matchkit.analysis.pubg.inputs import (
    PubgTelemetryFrames,
    checked_pubg_inputs,
    map_labels,
    map_sizes,
)
from matchkit.errors import InvalidArgumentError
from matchkit.names import Names

__all__ = ["landing_spots"]


def landing_spots(
    data: TableSource,
    telemetry: PubgTelemetryFrames | None = None,
    *,
    bins: int = 32,
    names: Names | Mapping[str, Any] | None = None,
    map_size: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """Parachute landings (LogParachuteLanding) per map, counted in a ``bins`` x ``bins`` grid.

    The grid covers each map's coordinates, 0 to its size in centimetres (x to the right, y
    down, as telemetry has them). Every cell of a map with a landing is a row, empty cells
    too, so that the table pivots straight into a heatmap. A map whose size is not known
    (:data:`matchkit.telemetry.pubg.MAP_SIZES`; pass ``map_size={"Neon_Main": 816000}``)
    and a landing outside its map are left out and counted in ``attrs["excluded"]``.

    Args:
        data: MatchFrames of the PUBG matches, or an archive of them synced with telemetry.
        telemetry: their PubgTelemetryFrames (None with an archive: it reads its own).
        bins: cells per side.
        names: Names with kind ``map``, or map id -> name; an id without one stays the id.
        map_size: sizes of maps PUBG does not document, map id -> centimetres.

    Returns:
        One row per map and cell: ``map_name`` (its name), ``map_id``, ``map_size``,
        ``x_bin``, ``y_bin`` (0-based, from the top left), ``x_low``, ``x_high``, ``y_low``,
        ``y_high`` (the cell's edges, cm), ``landings``, ``share`` (of the map's landings),
        ``matches`` (of the map).
    """
    inputs = checked_pubg_inputs(data, telemetry)
    if isinstance(bins, bool) or not isinstance(bins, int) or not 1 <= bins <= 1024:
        raise InvalidArgumentError(
            f"bins={bins!r} must be a whole number from 1 to 1024", parameter="bins"
        )
    sizes = map_sizes(map_size)
    landings = inputs.table("landings", columns=["match_id", "player_x", "player_y"]).merge(
        inputs.matches[["match_id", "map_name"]], on="match_id", how="left"
    )
    maps = inputs.matches.groupby("map_name").size()
    unknown_map = ~landings["map_name"].isin(sizes).to_numpy()
    parts = []
    outside = 0
    for map_id, group in landings[~unknown_map].groupby("map_name"):
        size = sizes[str(map_id)]
        x = group["player_x"].to_numpy(dtype="float64")
        y = group["player_y"].to_numpy(dtype="float64")
        inside = (x >= 0) & (x <= size) & (y >= 0) & (y <= size)
        outside += int((~inside).sum())
        counts, _, _ = np.histogram2d(y[inside], x[inside], bins=bins, range=[[0, size], [0, size]])
        parts.append(_cells(str(map_id), size, counts, int(maps[map_id])))
    columns = [
        "map_id", "map_size", "x_bin", "y_bin", "x_low", "x_high", "y_low", "y_high",
        "landings", "share", "matches",
    ]  # fmt: skip
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
    table.insert(0, "map_name", map_labels(table["map_id"], names))
    table.attrs["excluded"] = {
        **inputs.excluded,
        "landings on maps of unknown size": int(unknown_map.sum()),
        "landings outside their map": outside,
    }
    return table


def _cells(map_id: str, size: int, counts: np.ndarray, matches: int) -> pd.DataFrame:
    """The grid of one map as rows (``counts`` indexed [y, x])."""
    bins = counts.shape[0]
    edges = np.linspace(0, size, bins + 1)
    y_bin, x_bin = np.divmod(np.arange(bins * bins), bins)
    landings = counts.reshape(-1).astype("int64")
    total = landings.sum()
    return pd.DataFrame(
        {
            "map_id": pd.array([map_id] * len(landings), dtype="string"),
            "map_size": size,
            "x_bin": x_bin,
            "y_bin": y_bin,
            "x_low": edges[x_bin],
            "x_high": edges[x_bin + 1],
            "y_low": edges[y_bin],
            "y_high": edges[y_bin + 1],
            "landings": landings,
            "share": landings / total if total else np.zeros(len(landings)),
            "matches": matches,
        }
    )
