"""Issue 12: the explorer's date readout was cut off ("2026-07-03-2026-10-3"); "RANKED" sat
beside "Quick 2v2"; there was no reset."""

from __future__ import annotations

from matchkit.widgets import explore
from tests.analysis.helpers import sample_frames


def test_dates_in_full_labels_alike_and_a_reset():
    panel = explore(sample_frames())
    assert panel.date_range.readout is False
    assert "2026-07-03 to 2026-10-30 (120 days, UTC)" in panel.date_readout.value
    assert [label for label, _ in panel.ranking_type.options] == ["Ranked", "Unranked"]
    panel.ranking_type.value = ("RANKED",)
    panel.reset.click()
    assert panel.ranking_type.value == ()
    assert panel.selected_count == len(panel.source)
