"""Issue 12: the cosmetics heatmap mapped 39-63% onto a 0-100% colour scale."""

from __future__ import annotations

import matplotlib

from matchkit.analysis import COSMETIC_KINDS, cosmetic_summary
from matchkit.plots import plot_cosmetic_summary_heatmap
from tests.analysis.helpers import sample_frames

matplotlib.use("Agg")


def test_the_colour_scale_spans_the_values_shown():
    summary = cosmetic_summary(sample_frames(), kind=COSMETIC_KINDS, by="actor")
    ax = plot_cosmetic_summary_heatmap(summary, metric="non_default_share", max_characters=None)
    low, high = ax.images[0].get_clim()
    values = summary["non_default_share"]
    assert low <= values.min() < low + 0.05
    assert high - 0.05 < values.max() <= high
    assert (low, high) != (0.0, 1.0)
