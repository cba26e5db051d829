"""Matplotlib plots of matchkit analyses.

Every function has the shape ``fn(data, *, ax=None, **style) -> Axes``: it draws on ``ax`` or,
when None, on a new :class:`matplotlib.figure.Figure` (never pyplot's global state), and
returns the Axes (``ax.figure`` is its Figure: ``ax.figure.savefig("plot.png")``). ``data`` is
what the plot's analysis takes (:data:`matchkit.analysis.TableSource`: MatchFrames or an
archive; :data:`matchkit.analysis.TelemetryTableSource` for telemetry), or the analysis table
itself. Server types keep the colours of :data:`SERVER_TYPE_COLORS` in every plot.
"""

from __future__ import annotations

from matchkit.plots._style import (
    OTHER_COLOR,
    SERVER_TYPE_COLORS,
    SERVER_TYPE_LABELS,
    SIDE_COLORS,
    server_type_color,
)
from matchkit.plots.cosmetics import (
    plot_cosmetic_heatmap,
    plot_cosmetic_summary_heatmap,
    plot_cosmetic_usage,
)
from matchkit.plots.durations import plot_duration_distribution, plot_duration_trend
from matchkit.plots.players import plot_player_form
from matchkit.plots.sides import plot_side_win_rates
from matchkit.plots.telemetry import (
    plot_battlerite_win_rates,
    plot_per_minute_rates,
    plot_queue_times,
)

__all__ = [
    "OTHER_COLOR",
    "SERVER_TYPE_COLORS",
    "SERVER_TYPE_LABELS",
    "SIDE_COLORS",
    "plot_battlerite_win_rates",
    "plot_cosmetic_heatmap",
    "plot_cosmetic_summary_heatmap",
    "plot_cosmetic_usage",
    "plot_duration_distribution",
    "plot_duration_trend",
    "plot_per_minute_rates",
    "plot_player_form",
    "plot_queue_times",
    "plot_side_win_rates",
    "server_type_color",
]
