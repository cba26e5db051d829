"""Matplotlib plots of matchkit analyses.

Every function has the shape ``fn(data, *, ax=None, **style) -> Axes``: it draws on ``ax`` or,
when None, on a new :class:`matplotlib.figure.Figure` (never pyplot's global state), and
returns the Axes (``ax.figure`` is its Figure: ``ax.figure.savefig("plot.png")``). ``data`` is
what the plot's analysis takes (:data:`matchkit.analysis.TableSource`: MatchFrames or an
archive; :data:`matchkit.analysis.TelemetryTableSource` for telemetry), or the analysis table
itself. The PUBG plots take MatchFrames and their PubgTelemetryFrames (or the analysis
table); ``plot_match_map`` draws one match on its map. Server types keep the colours of
:data:`SERVER_TYPE_COLORS` in every plot.
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
from matchkit.plots.pubg import (
    plot_damage_by_placement,
    plot_kill_distances,
    plot_landing_heatmap,
    plot_weapon_kill_shares,
    plot_zone_phases,
)
from matchkit.plots.pubg_map import plot_match_map
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
    "plot_damage_by_placement",
    "plot_duration_distribution",
    "plot_duration_trend",
    "plot_kill_distances",
    "plot_landing_heatmap",
    "plot_match_map",
    "plot_per_minute_rates",
    "plot_player_form",
    "plot_queue_times",
    "plot_side_win_rates",
    "plot_weapon_kill_shares",
    "plot_zone_phases",
    "server_type_color",
]
