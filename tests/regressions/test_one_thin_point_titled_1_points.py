"""The duration trend's title said "(1 points)" when one point was thin (seen in the explorer,
filtered to Quick 2v2: patch 2.10 had 10 matches)."""

from __future__ import annotations

import matplotlib

from matchkit.analysis import duration_summary
from matchkit.plots import plot_duration_trend
from matchkit.plots.durations import THIN_GROUP
from tests.analysis.helpers import sample_frames

matplotlib.use("Agg")


def test_one_thin_point_is_written_in_the_singular():
    frames = sample_frames()
    summary = duration_summary(frames, by=["patch_version", "server_type"])
    thin = summary.loc[summary["count"] < THIN_GROUP]
    # One server type with exactly one thin patch: the explorer's Quick 2v2 view.
    per_type = thin.groupby("server_type", observed=True).size()
    server_type = per_type[per_type == 1].index[0]
    selected = frames.filter(frames.matches["server_type"] == server_type)
    ax = plot_duration_trend(selected, over="patch_version")
    assert f"fewer than {THIN_GROUP} matches (1 point), read with care" in ax.get_title()
    assert "points" not in ax.get_title()
