"""Plots of cosmetic picks: the top picks per character, and heatmaps across characters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes

from matchkit.analysis import COSMETIC_KINDS, TableSource, cosmetic_summary, cosmetic_usage
from matchkit.errors import InvalidArgumentError
from matchkit.model.schema import CosmeticKind
from matchkit.names import Names, as_names
from matchkit.plots._arguments import checked_count
from matchkit.plots._style import new_axes, percent_axis

__all__ = ["plot_cosmetic_heatmap", "plot_cosmetic_summary_heatmap", "plot_cosmetic_usage"]

# The id column of the cosmetic tables (``cosmetic`` is its name).
_ID = "cosmetic_id"
#: The colour of "all other cosmetics" in stacked bars.
REST_COLOR = "#DDDDDD"
_METRIC_LABELS = {
    "non_default_share": "Share of picks that are not the default",
    "default_share": "Share of picks that are the default",
    "diversity": "Diversity (normalized entropy, 0 = one cosmetic, 1 = even)",
}


def _usage(data: TableSource | pd.DataFrame, kind: CosmeticKind) -> pd.DataFrame:
    if isinstance(data, pd.DataFrame) and "share" in data.columns:
        usage = data
        if "cosmetic_kind" in usage.columns:
            usage = usage.loc[usage["cosmetic_kind"] == kind]
        return usage
    return cosmetic_usage(data, kind=kind, by="actor")


def _short(name: str, character: str) -> str:
    """A per-character cosmetic's name without its character (the row already says it)."""
    prefix = f"{character}: "
    return name[len(prefix) :] if name.startswith(prefix) else name


def _most_played(table: pd.DataFrame, max_characters: int | None) -> list[Any]:
    """The ``max_characters`` actors with the most picks in ``table``, most first (None: all)."""
    picks = table.groupby("actor", observed=True)["picks"].sum().sort_values(ascending=False)
    return list(picks.index if max_characters is None else picks.index[:max_characters])


def _checked_max_characters(value: object) -> int | None:
    return None if value is None else checked_count(value, "max_characters")


def _fitted_limits(values: np.ndarray) -> tuple[float, float]:
    """A colour scale fitted to the data: min and max rounded outward to 5%, apart by 10%."""
    known = values[~np.isnan(values)]
    if known.size == 0:
        return 0.0, 1.0
    low = max(0.0, np.floor(known.min() * 20) / 20)
    high = min(1.0, np.ceil(known.max() * 20) / 20)
    if high - low < 0.1:
        low, high = max(0.0, high - 0.1), max(high, low + 0.1)
    return float(low), float(high)


def plot_cosmetic_usage(
    data: TableSource | pd.DataFrame,
    *,
    ax: Axes | None = None,
    kind: CosmeticKind = "mount",
    top: int = 5,
    max_characters: int | None = 15,
    names: Names | Mapping[str, Any] | None = None,
    **style: Any,
) -> Axes:
    """The top ``top`` picks of each character as stacked shares (one bar per character).

    Segment 1 is the character's most picked cosmetic (its default, see
    :mod:`matchkit.analysis.cosmetics`), segment 2 the next, ...; grey is every other cosmetic.
    Each segment is labelled with the cosmetic's name (its id when it has none) when it is
    wide enough.

    Args:
        data: the normalized matches, or an archive, or a
            :func:`matchkit.analysis.cosmetic_usage` table grouped by ``actor``.
        ax: the Axes to draw on; a new Figure's Axes when None.
        kind: the cosmetic kind (attachment, emote, mount, outfit).
        top: segments per bar.
        max_characters: show this many characters, the most played (None: all).
        names: display names of characters and cosmetics (:mod:`matchkit.names`); ids
            without a name stay ids.
        **style: passed to each ``barh`` call (``height``, ``edgecolor``, ...).

    Returns:
        The Axes, characters from most picked (top) to least.
    """
    top = checked_count(top, "top")
    max_characters = _checked_max_characters(max_characters)
    catalogue = as_names(names)
    usage = _usage(data, kind)
    if "actor" not in usage.columns:
        raise InvalidArgumentError(
            "the usage table must be grouped by actor (cosmetic_usage(..., by='actor'))",
            parameter="data",
        )
    order = _most_played(usage, max_characters)
    height = max(2.5, 0.32 * len(order) + 1.5)
    ax = new_axes(ax, figsize=(10.0, height))
    colors = colormaps["viridis"](np.linspace(0.15, 0.85, top))
    rows = np.arange(len(order))
    left = np.zeros(len(order))
    shown = usage.loc[usage["rank"] <= top].set_index(["actor", "rank"])
    for rank in range(1, top + 1):
        widths = np.array(
            [shown["share"].get((actor, rank), 0.0) for actor in order], dtype="float64"
        )
        ids = [shown[_ID].get((actor, rank), None) for actor in order]
        name = "most picked (default)" if rank == 1 else f"#{rank}"
        options = {"color": colors[rank - 1], "edgecolor": "white", "label": name, **style}
        bars = ax.barh(rows, widths, left=left, **options)
        for bar, actor, cosmetic, width in zip(bars, order, ids, widths, strict=True):
            if cosmetic is not None and width >= 0.09:
                text = _short(catalogue.name(kind, cosmetic), catalogue.name("character", actor))
                ax.text(
                    bar.get_x() + width / 2,
                    bar.get_y() + bar.get_height() / 2,
                    text,
                    ha="center",
                    va="center",
                    fontsize=6.5,
                    color="white" if rank <= top / 2 else "black",
                )
        left = left + widths
    ax.barh(rows, 1.0 - left, left=left, color=REST_COLOR, edgecolor="white", label="others")
    ax.set_yticks(rows, [catalogue.name("character", actor) for actor in order])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    percent_axis(ax, axis="x")
    ax.set_xlabel(f"Share of the character's {kind} picks (in the bars: the {kind})")
    ax.set_ylabel("Character (most played first)")
    ax.set_title(f"Top {top} {kind}s of each character")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", title="Pick rank")
    return ax


def plot_cosmetic_heatmap(
    data: TableSource | pd.DataFrame,
    *,
    ax: Axes | None = None,
    kind: CosmeticKind = "mount",
    top: int = 12,
    max_characters: int | None = 15,
    names: Names | Mapping[str, Any] | None = None,
    **style: Any,
) -> Axes:
    """Characters x cosmetics: the share of each character's picks that go to each cosmetic.

    Best for cosmetics every character can use (mounts); for per-character cosmetics the matrix
    is mostly empty, and :func:`plot_cosmetic_summary_heatmap` compares characters instead.

    Args:
        data: the normalized matches, or an archive, or a
            :func:`matchkit.analysis.cosmetic_usage` table grouped by ``actor``.
        ax: the Axes to draw on; a new Figure's Axes when None.
        kind: the cosmetic kind.
        top: the most picked cosmetics overall become the columns.
        max_characters: the rows: this many characters, the most played (None: all).
        names: display names of characters and cosmetics (:mod:`matchkit.names`); ids
            without a name stay ids.
        **style: passed to ``imshow`` (``cmap``, ``vmax``, ...).

    Returns:
        The Axes, with a colour bar and the share written in each cell.
    """
    top = checked_count(top, "top")
    max_characters = _checked_max_characters(max_characters)
    catalogue = as_names(names)
    usage = _usage(data, kind)
    matrix = usage.pivot_table(
        index="actor",
        columns=_ID,
        values="share",
        aggfunc="sum",
        fill_value=0.0,
        observed=True,
    )
    column_picks = usage.groupby(_ID)["picks"].sum().sort_values(ascending=False)
    columns = list(column_picks.index[:top])
    rows = _most_played(usage, max_characters)
    matrix = matrix.reindex(index=rows, columns=columns, fill_value=0.0)
    ax = new_axes(ax, figsize=(max(6.0, 0.6 * len(columns) + 3), max(3.0, 0.35 * len(rows) + 2)))
    options = {
        "cmap": "Blues",
        "vmin": 0.0,
        "vmax": max(float(matrix.to_numpy().max()), 0.01),
        "aspect": "auto",
        **style,
    }
    image = ax.imshow(matrix.to_numpy(), **options)
    _annotate(ax, matrix.to_numpy(), threshold=options["vmax"] * 0.6)
    ax.set_xticks(
        range(len(columns)),
        [catalogue.name(kind, value) for value in columns],
        rotation=45,
        ha="right",
    )
    ax.set_yticks(range(len(rows)), [catalogue.name("character", actor) for actor in rows])
    ax.set_xlabel(f"{kind.capitalize()} (most picked overall first)")
    ax.set_ylabel("Character (most played first)")
    ax.set_title(f"Share of each character's {kind} picks")
    colorbar = ax.figure.colorbar(image, ax=ax, format=lambda value, _: f"{value:.0%}")
    colorbar.set_label("Share of the character's picks")
    return ax


def plot_cosmetic_summary_heatmap(
    data: TableSource | pd.DataFrame,
    *,
    ax: Axes | None = None,
    metric: str = "non_default_share",
    max_characters: int | None = 15,
    names: Names | Mapping[str, Any] | None = None,
    **style: Any,
) -> Axes:
    """Characters x cosmetic kinds, coloured by a :func:`cosmetic_summary` metric.

    Args:
        data: the normalized matches, their participant view, an archive, or a
            :func:`matchkit.analysis.cosmetic_summary` table grouped by ``actor`` over several
            kinds.
        ax: the Axes to draw on; a new Figure's Axes when None.
        metric: ``"non_default_share"``, ``"default_share"`` or ``"diversity"``.
        max_characters: the rows: this many characters, the most played (None: all).
        names: display names of characters and cosmetics (:mod:`matchkit.names`); ids
            without a name stay ids.
        **style: passed to ``imshow``.

    Returns:
        The Axes, with a colour bar and the value written in each cell.
    """
    max_characters = _checked_max_characters(max_characters)
    catalogue = as_names(names)
    if metric not in _METRIC_LABELS:
        raise InvalidArgumentError(
            f"metric={metric!r}: use one of {', '.join(_METRIC_LABELS)}", parameter="metric"
        )
    if isinstance(data, pd.DataFrame) and metric in data.columns:
        summary = data
    else:  # MatchFrames, their participant view or an archive
        summary = cosmetic_summary(data, kind=COSMETIC_KINDS, by="actor")
    matrix = summary.pivot_table(
        index="actor", columns="cosmetic_kind", values=metric, aggfunc="first", observed=True
    )
    rows = _most_played(summary, max_characters)
    matrix = matrix.reindex(index=rows)
    values = matrix.to_numpy(dtype="float64")
    low, high = _fitted_limits(values)
    ax = new_axes(ax, figsize=(7.0, max(3.0, 0.35 * len(rows) + 2)))
    options = {"cmap": "Purples", "vmin": low, "vmax": high, "aspect": "auto", **style}
    image = ax.imshow(values, **options)
    _annotate(ax, values, threshold=options["vmin"] + (options["vmax"] - options["vmin"]) * 0.6)
    ax.set_xticks(range(matrix.shape[1]), [str(kind) for kind in matrix.columns])
    ax.set_yticks(range(len(rows)), [catalogue.name("character", actor) for actor in rows])
    ax.set_xlabel("Cosmetic kind")
    ax.set_ylabel("Character (most played first)")
    ax.set_title(_METRIC_LABELS[metric].split(" (")[0] + ", per character and kind")
    colorbar = ax.figure.colorbar(image, ax=ax, format=lambda value, _: f"{value:.0%}")
    colorbar.set_label(
        f"{_METRIC_LABELS[metric]}\n(scale fitted to the data: {low:.0%}-{high:.0%})"
    )
    return ax


def _annotate(ax: Axes, values: np.ndarray, *, threshold: float) -> None:
    for (row, column), value in np.ndenumerate(values):
        if np.isnan(value):
            continue
        ax.text(
            column,
            row,
            f"{value:.0%}",
            ha="center",
            va="center",
            fontsize=7,
            color="white" if value > threshold else "black",
        )
