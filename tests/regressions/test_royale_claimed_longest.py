"""Issue 12: 02-durations said "Royale matches last longest" under a table showing the opposite."""

from __future__ import annotations

from matchkit.analysis import duration_summary
from tests.analysis.helpers import sample_frames
from tests.analysis.notebook_claims import LABELS, load, rendered_prose, static_prose


def test_the_durations_notebook_names_the_longest_mode_from_the_data():
    notebook = load("02-durations.ipynb")
    assert "last longest" not in static_prose(notebook)
    modes = duration_summary(sample_frames(), by="server_type").set_index("server_type")
    longest = LABELS[str(modes["median"].idxmax())]
    prose = " ".join(rendered_prose(notebook))
    assert f"{longest} matches last longest" in prose
    assert "Royale matches last longest" not in prose
