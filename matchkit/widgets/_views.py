"""What each tab of the explorer shows, as display outputs (PNG or HTML) of one selection.

Pure functions of the selected data and the tab's options; :mod:`matchkit.widgets.explorer`
calls them for the tab on show.
"""

from __future__ import annotations

import base64
import html
import io
from typing import TYPE_CHECKING, Any

import pandas as pd
from matplotlib.figure import Figure, SubFigure

from matchkit.analysis import Level, duration_summary, group_label, side_win_rates
from matchkit.model.schema import CosmeticKind
from matchkit.names import Names
from matchkit.plots import (
    plot_cosmetic_heatmap,
    plot_cosmetic_summary_heatmap,
    plot_cosmetic_usage,
    plot_duration_distribution,
    plot_duration_trend,
    plot_side_win_rates,
)

if TYPE_CHECKING:
    from matchkit.model.frames import MatchFrames

__all__ = [
    "TABLE_ROWS",
    "cosmetics_view",
    "durations_view",
    "figure_output",
    "html_output",
    "sides_view",
    "table_view",
]

TABLE_ROWS = 20
_DPI = 90


def durations_view(matches: pd.DataFrame) -> dict[str, Any]:
    """The duration distribution and the median per patch of the selected matches."""
    # Fixed margins: a constrained layout would draw the figure twice.
    figure = Figure(figsize=(13, 4.8))
    figure.subplots_adjust(left=0.05, right=0.79, bottom=0.12, top=0.86, wspace=0.18)
    left, right = figure.subplots(1, 2, width_ratios=(1, 1.25))
    plot_duration_distribution(matches, ax=left)
    plot_duration_trend(matches, ax=right, over="patch_version")
    return figure_output(figure, "match durations")


def sides_view(frames: MatchFrames, *, by: str, level: Level) -> dict[str, Any]:
    """Each side's win rate per group."""
    ax = plot_side_win_rates(frames, by=by, level=level)
    return figure_output(ax.figure, "side win rates")


def cosmetics_view(
    view: pd.DataFrame, *, kind: CosmeticKind, mode: str, names: Names
) -> dict[str, Any]:
    """Cosmetic picks of a participant view: ``mode`` is usage, heatmap or summary."""
    if mode == "usage":
        ax = plot_cosmetic_usage(view, kind=kind, names=names)
    elif mode == "heatmap":
        ax = plot_cosmetic_heatmap(view, kind=kind, names=names)
    else:
        ax = plot_cosmetic_summary_heatmap(view, names=names)
    return figure_output(ax.figure, f"{kind} usage")


def table_view(frames: MatchFrames) -> dict[str, Any]:
    """An overview by server type (durations in minutes, side 1 win rate) and the latest matches."""
    durations = duration_summary(frames, by="server_type", unit="minutes")
    durations = durations[["server_type", "count", "median", "q1", "q3"]]
    rates = side_win_rates(frames, by="server_type")
    side_one = rates.loc[rates["side"] == 1, ["server_type", "win_rate", "ci_low", "ci_high"]]
    overview = durations.merge(side_one, on="server_type", how="left")
    overview["server_type"] = overview["server_type"].map(group_label)
    overview = overview.rename(
        columns={
            "server_type": "server type",
            "count": "matches",
            "median": "median duration (min)",
            "q1": "q1 (min)",
            "q3": "q3 (min)",
            "win_rate": "side 1 win rate",
            "ci_low": "95% low",
            "ci_high": "95% high",
        }
    )
    columns = [
        "match_id",
        "created_at",
        "server_type",
        "ranking_type",
        "patch_version",
        "region",
        "duration",
    ]
    recent = frames.matches.sort_values("created_at", ascending=False)[columns]
    recent = recent.assign(
        server_type=recent["server_type"].astype(object).map(group_label),
        ranking_type=recent["ranking_type"].astype(object).map(group_label),
        duration=(recent["duration"].astype("float64") / 60).round(1),
    ).rename(columns={"duration": "duration (min)"})
    percent = "{:.1%}".format
    overview_html = overview.to_html(
        index=False,
        na_rep="–",
        formatters={name: percent for name in ("side 1 win rate", "95% low", "95% high")},
        float_format="{:.1f}".format,
    )
    excluded = rates.attrs["excluded"]["royale_matches"]
    note = (
        "<p><i>Side win rates count Arena matches only: Royale matches have no sides "
        f"({excluded:,} left out).</i></p>"
    )
    body = (
        f"<h4>Overview by server type</h4>{overview_html}{note}"
        f"<h4>Latest {TABLE_ROWS} matches</h4>"
        f"{recent.head(TABLE_ROWS).to_html(index=False, na_rep='–')}"
    )
    return html_output(body)


def figure_output(figure: Figure | SubFigure, description: str) -> dict[str, Any]:
    """A display output holding ``figure`` as PNG (a subfigure's: the whole figure)."""
    buffer = io.BytesIO()
    figure.figure.savefig(buffer, format="png", dpi=_DPI)
    return {
        "output_type": "display_data",
        "data": {
            "image/png": base64.b64encode(buffer.getvalue()).decode("ascii"),
            "text/plain": f"<plot of {description}>",
        },
        "metadata": {},
    }


def html_output(body: str) -> dict[str, Any]:
    """A display output holding ``body`` as HTML (and as text)."""
    text = html.unescape(body)
    return {
        "output_type": "display_data",
        "data": {"text/html": body, "text/plain": text},
        "metadata": {},
    }
