"""Every plot takes what its analysis takes: an archive draws the figure MatchFrames draw (and
an archive's telemetry the figure of TelemetryFrames), pixel for pixel."""

from __future__ import annotations

import io
from types import SimpleNamespace

import dask.dataframe as dd
import matplotlib
import pytest
from matplotlib.axes import Axes

from matchkit.plots import (
    plot_battlerite_win_rates,
    plot_cosmetic_heatmap,
    plot_cosmetic_summary_heatmap,
    plot_cosmetic_usage,
    plot_duration_distribution,
    plot_duration_trend,
    plot_per_minute_rates,
    plot_player_form,
    plot_queue_times,
    plot_side_win_rates,
)
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from matchkit.telemetry.schema import TABLES
from tests.analysis.lazy import lazy_tables
from tests.builders.telemetry import sample_telemetry_files

matplotlib.use("Agg")


def _png(ax: Axes) -> bytes:
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=50)
    return buffer.getvalue()


MATCH_PLOTS = {
    "side win rates": lambda data: plot_side_win_rates(data, by="patch_version"),
    "duration ecdf": lambda data: plot_duration_distribution(data),
    "duration histogram": lambda data: plot_duration_distribution(data, kind="hist", bins=4),
    "duration trend": lambda data: plot_duration_trend(data, over="week", min_count=2),
    "cosmetic usage": lambda data: plot_cosmetic_usage(data, top=2),
    "cosmetic heatmap": lambda data: plot_cosmetic_heatmap(data, top=3),
    "cosmetic summary": lambda data: plot_cosmetic_summary_heatmap(data),
    "player form": lambda data: plot_player_form(data, player_id="A0-1-0", window=2),
}


@pytest.mark.parametrize("plot", list(MATCH_PLOTS), ids=str)
def test_an_archive_draws_the_figure_of_matchframes(frames, plot: str) -> None:
    draw = MATCH_PLOTS[plot]
    expected = _png(draw(frames))
    assert _png(draw(lazy_tables(frames, npartitions=3))) == expected


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    return to_telemetry_frames(sample_telemetry_files(limit=12))


TELEMETRY_PLOTS = {
    "battlerites": lambda data, character: plot_battlerite_win_rates(data, character=character),
    "queue times": lambda data, character: plot_queue_times(data),
    "rates per minute": lambda data, character: plot_per_minute_rates(data),
}


@pytest.mark.parametrize("plot", list(TELEMETRY_PLOTS), ids=str)
def test_an_archives_telemetry_draws_the_figure_of_telemetryframes(telemetry, plot) -> None:
    archive = SimpleNamespace(
        matches=None,
        telemetry=SimpleNamespace(
            **{
                name: dd.from_pandas(telemetry.tables[name], npartitions=2, sort=False)
                for name in TABLES
            }
        ),
    )
    character = str(telemetry.battlerite_picks["character"].iloc[0])
    draw = TELEMETRY_PLOTS[plot]
    assert _png(draw(archive, character)) == _png(draw(telemetry, character))
