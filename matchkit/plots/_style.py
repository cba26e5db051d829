"""The shared look of matchkit plots: one colour per server type, units, a fresh Axes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from matchkit.analysis.display import RANKING_TYPE_LABELS, SERVER_TYPE_LABELS, group_label

__all__ = [
    "OTHER_COLOR",
    "RANKING_TYPE_LABELS",
    "SERVER_TYPE_COLORS",
    "SERVER_TYPE_LABELS",
    "SIDE_COLORS",
    "SIDE_MARKERS",
    "group_label",
    "new_axes",
    "percent_axis",
    "server_type_color",
]

#: One colour per server type, used by every plot (Okabe-Ito, readable for colour-blind eyes).
SERVER_TYPE_COLORS: Mapping[str, str] = {
    "QUICK2V2": "#0072B2",
    "QUICK3V3": "#E69F00",
    "ROYALRUMBLESOLO": "#009E73",
    "ROYALRUMBLEDUO": "#CC79A7",
}
#: The colour of a group that is not a known server type (or of a single group).
OTHER_COLOR = "#555555"
#: Colours and markers of the two Arena sides when the groups are not server types.
SIDE_COLORS: Mapping[int, str] = {1: "#56B4E9", 2: "#D55E00"}
SIDE_MARKERS: Mapping[int, str] = {1: "o", 2: "s"}


def server_type_color(value: Any) -> str:
    """The fixed colour of a server type (any case), grey for anything else."""
    return SERVER_TYPE_COLORS.get(str(value).upper(), OTHER_COLOR)


def new_axes(ax: Axes | None, *, figsize: tuple[float, float] = (8.0, 4.5)) -> Axes:
    """``ax`` itself, or the Axes of a new Figure (no pyplot state) with a constrained layout."""
    if ax is not None:
        return ax
    figure = Figure(figsize=figsize, layout="constrained")
    return figure.add_subplot()


def percent_axis(ax: Axes, *, axis: str = "y") -> None:
    """Format an axis holding fractions (0..1) as percentages."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))
