"""Issue 12: cosmetics and characters appeared as 10-digit ids; shares as 0.413223."""

from __future__ import annotations

import matplotlib

from matchkit.analysis import cosmetic_usage, for_display
from matchkit.names import sample_names
from matchkit.plots import plot_cosmetic_usage
from tests.analysis.helpers import sample_frames

matplotlib.use("Agg")


def test_cosmetic_tables_and_plots_speak_in_names():
    frames = sample_frames()
    names = sample_names()
    usage = cosmetic_usage(frames, kind="mount", top=1, names=names)
    assert usage["character"].iloc[0] == names.name("character", usage["actor"].iloc[0])
    assert not usage["cosmetic"].str.fullmatch(r"\d+").any()
    shown = for_display(usage)
    assert shown["share"].str.fullmatch(r"\d+\.\d%").all()
    ax = plot_cosmetic_usage(frames, kind="mount", top=2, names=names)
    ticks = [label.get_text() for label in ax.get_yticklabels()]
    assert ticks[0] in set(names.names["character"].values())
    inside = [text.get_text() for text in ax.texts]
    assert inside
    assert not any(text.isdigit() for text in inside)
