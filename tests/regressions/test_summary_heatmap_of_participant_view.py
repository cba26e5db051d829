"""Found on the way (issue 12): the explorer's "non-default share" view raised KeyError.

The explorer hands the participant view (a DataFrame) to plot_cosmetic_summary_heatmap, which
took any DataFrame for a cosmetic_summary table.
"""

from __future__ import annotations

import matplotlib

from matchkit.plots import plot_cosmetic_summary_heatmap
from tests.analysis.helpers import sample_frames

matplotlib.use("Agg")


def test_a_participant_view_is_summarized_first():
    frames = sample_frames()
    from_view = plot_cosmetic_summary_heatmap(frames.participant_view())
    from_frames = plot_cosmetic_summary_heatmap(frames)
    assert (from_view.images[0].get_array() == from_frames.images[0].get_array()).all()
