"""Issue 12: each explorer filter change re-rendered all four tabs (1.5-2.5 s)."""

from __future__ import annotations

import time

from matchkit.names import sample_names
from matchkit.widgets import explore
from tests.analysis.helpers import sample_frames


def test_a_filter_change_draws_the_visible_tab_only():
    panel = explore(sample_frames(), names=sample_names())
    drawn = dict(panel.tab_renders)
    wall, cpu = time.perf_counter(), time.process_time()
    panel.server_type.value = ("QUICK3V3",)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"explorer filter change on the sample set: {wall:.3f} s wall, {cpu:.3f} s CPU")
    assert panel.tab_renders == {**drawn, "durations": drawn["durations"] + 1}
    assert panel.selected_count == int((panel.source.matches["server_type"] == "QUICK3V3").sum())
