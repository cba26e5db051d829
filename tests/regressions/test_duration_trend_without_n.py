"""Issue 12: the duration trend by patch showed no n; the last patch's 8-24 matches looked like a
step."""

from __future__ import annotations

import matplotlib

from matchkit.analysis import duration_summary
from matchkit.plots import plot_duration_trend
from matchkit.plots.durations import THIN_GROUP
from tests.analysis.helpers import sample_frames

matplotlib.use("Agg")


def test_each_point_shows_n_and_thin_points_are_marked():
    frames = sample_frames()
    summary = duration_summary(frames, by=["patch_version", "server_type"])
    ax = plot_duration_trend(frames, over="patch_version")
    assert sorted(int(text.get_text()) for text in ax.texts) == sorted(summary["count"])
    thin = int((summary["count"] < THIN_GROUP).sum())
    assert thin > 0
    assert f"fewer than {THIN_GROUP} matches ({thin} points)" in ax.get_title()
