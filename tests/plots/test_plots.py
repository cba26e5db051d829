"""Plots rendered with Agg on hand-built matches: their content, plus image comparisons.

The image comparisons (pytest-mpl, baselines in tests/plots/baseline/) run with ``--mpl``;
regenerate
the baselines with ``pytest tests/plots/test_plots.py --mpl-generate-path=tests/plots/baseline``
after an intended change, and look at them before committing.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.image import AxesImage

from matchkit.analysis import cosmetic_usage, duration_summary, side_win_rates
from matchkit.errors import InvalidArgumentError
from matchkit.plots import (
    SERVER_TYPE_COLORS,
    plot_cosmetic_heatmap,
    plot_cosmetic_summary_heatmap,
    plot_cosmetic_usage,
    plot_duration_distribution,
    plot_duration_trend,
    plot_side_win_rates,
)

matplotlib.use("Agg")

MPL = {"baseline_dir": "baseline", "remove_text": True, "tolerance": 2, "style": "default"}


def test_new_figure_without_pyplot_state(frames):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    ax = plot_duration_distribution(frames)
    assert isinstance(ax.figure, Figure)
    assert plt.get_fignums() == before


def test_drawing_on_a_given_axes_returns_it(frames):
    figure = Figure()
    ax = figure.add_subplot()
    assert plot_side_win_rates(frames, ax=ax) is ax
    assert plot_duration_trend(frames, ax=ax) is ax


def test_duration_ecdf_has_one_line_per_server_type_in_its_colour(frames):
    ax = plot_duration_distribution(frames)
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == {"Quick 2v2 (n=6)", "Quick 3v3 (n=3)", "Royal Rumble solo (n=1)"}
    quick2 = lines["Quick 2v2 (n=6)"]
    assert matplotlib.colors.same_color(quick2.get_color(), SERVER_TYPE_COLORS["QUICK2V2"])
    x, y = quick2.get_data()
    # minutes: 5 .. 10; the ECDF climbs to 1
    assert min(x) == pytest.approx(5)
    assert max(x) == pytest.approx(10)
    assert max(y) == pytest.approx(1)
    assert "minutes" in ax.get_xlabel()
    assert ax.get_title() == "Match duration by server type"
    assert ax.get_legend() is not None


def test_duration_histogram_draws_outlines(frames):
    ax = plot_duration_distribution(frames, kind="hist", bins=5)
    assert len(ax.patches) == 3  # one outlined step patch per server type
    assert "Density" in ax.get_ylabel()
    with pytest.raises(InvalidArgumentError):
        plot_duration_distribution(frames, kind="violin")


def test_duration_trend_by_week_plots_medians_in_minutes(frames):
    ax = plot_duration_trend(frames, over="week")
    lines = {line.get_label(): line for line in ax.get_lines()}
    quick2 = lines["Quick 2v2 (median)"]
    # week of 2026-09-28: 300, 360, 420 -> median 360 s; week of 2026-10-05: 480..600 -> 540 s
    assert quick2.get_ydata().tolist() == [6.0, 9.0]
    # Every point is thin here (a handful of matches): hollow, no range, and the title says so.
    assert "hollow: fewer than 30 matches" in ax.get_title()
    ranges = [item for item in ax.collections if isinstance(item, LineCollection)]
    assert len(ranges) == 3
    assert all(len(item.get_segments()) == 0 for item in ranges)
    assert ax.get_ylabel() == "Match duration (minutes)"


def test_duration_trend_shows_n_beside_each_point_and_ranges_of_full_points(frames):
    ax = plot_duration_trend(frames, over="week", min_count=0)
    summary = duration_summary(frames, by=["week", "server_type"])
    numbers = sorted(int(text.get_text()) for text in ax.texts)
    assert numbers == sorted(summary["count"].tolist())
    assert "hollow" not in ax.get_title()
    ranges = [item for item in ax.collections if isinstance(item, LineCollection)]
    segments = [segment for item in ranges for segment in item.get_segments()]
    assert len(segments) == len(summary)
    # Each range runs from q1 to q3 in minutes.
    spans = sorted(value for s in segments for value in (float(s[0][1]), float(s[1][1])))
    expected = sorted([*(summary["q1"] / 60), *(summary["q3"] / 60)])
    assert spans == pytest.approx(expected)


def test_duration_trend_reads_a_summary_in_minutes(frames):
    seconds = plot_duration_trend(frames, over="patch_version")
    summary = duration_summary(frames, by=["patch_version", "server_type"], unit="minutes")
    minutes = plot_duration_trend(summary, over="patch_version")
    for first, second in zip(seconds.get_lines(), minutes.get_lines(), strict=True):
        assert first.get_ydata().tolist() == second.get_ydata().tolist()


def test_duration_trend_orders_patches_numerically(frames):
    ax = plot_duration_trend(frames, over="patch_version")
    assert [label.get_text() for label in ax.get_xticklabels()] == ["2.9", "2.10"]
    quick2 = next(line for line in ax.get_lines() if line.get_label() == "Quick 2v2 (median)")
    assert quick2.get_ydata().tolist() == [6.0, 9.0]


def test_duration_trend_accepts_a_summary(frames):
    summary = duration_summary(frames, by=["patch_version", "server_type"])
    ax = plot_duration_trend(summary, over="patch_version")
    medians = [line for line in ax.get_lines() if line.get_label().endswith("(median)")]
    assert len(medians) == 3
    with pytest.raises(InvalidArgumentError):
        plot_duration_trend(summary, over="week")


def test_side_win_rates_points_intervals_and_half_line(frames):
    rates = side_win_rates(frames, by="server_type")
    ax = plot_side_win_rates(rates)
    containers = [item for item in ax.containers if isinstance(item, ErrorbarContainer)]
    assert len(containers) == 4  # two server types x two sides
    points = sorted(
        (float(c.lines[0].get_xdata()[0]), float(c.lines[0].get_ydata()[0])) for c in containers
    )
    # Quick 2v2: side 1 won A1, A2, A4, A5 of 6; Quick 3v3: side 2 won all 3.
    assert [y for _, y in points] == pytest.approx([4 / 6, 2 / 6, 0.0, 1.0])
    half = [line for line in ax.get_lines() if list(line.get_ydata()) == [0.5, 0.5]]
    assert len(half) == 1
    low, high = ax.get_ylim()
    assert low <= rates["ci_low"].min()
    assert high >= rates["ci_high"].max()
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert labels == ["Quick 2v2\n6 matches", "Quick 3v3\n3 matches"]
    colors = {matplotlib.colors.to_hex(c.lines[0].get_color()) for c in containers}
    assert colors == {
        SERVER_TYPE_COLORS["QUICK2V2"].lower(),
        SERVER_TYPE_COLORS["QUICK3V3"].lower(),
    }
    assert "95%" in ax.get_ylabel()


def test_side_win_rates_by_patch_are_in_patch_order(frames):
    ax = plot_side_win_rates(frames, by="patch_version")
    labels = [label.get_text() for label in ax.get_xticklabels()]
    # Quick 2v2 matches A0-A2 (and both Quick 3v3) on 2.9, A3-A5 on 2.10.
    assert labels == ["2.9\n6 matches", "2.10\n3 matches"]


def test_side_win_rates_with_many_groups_use_short_counts(frames):
    ax = plot_side_win_rates(frames, by=["date", "server_type"])
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert len(labels) > 4
    assert all(label.split("\n")[1].startswith("n=") for label in labels)


def test_side_win_rates_without_groups_from_frames(frames):
    ax = plot_side_win_rates(frames, by=None, level="round")
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert labels == ["all matches\n18 rounds"]  # 6 Quick 2v2 matches x 3 rounds
    with pytest.raises(InvalidArgumentError):
        plot_side_win_rates(duration_summary(frames))


def test_cosmetic_usage_bars_are_the_shares(frames):
    usage = cosmetic_usage(frames, kind="mount")
    ax = plot_cosmetic_usage(usage, top=2, names={"character": {"10": "Ten"}})
    bars = [item for item in ax.containers if isinstance(item, BarContainer)]
    assert len(bars) == 3  # rank 1, rank 2, the rest
    characters = [label.get_text() for label in ax.get_yticklabels()]
    # Character 10 is picked 12 times (mounts 1 x 6, 3 x 6), 20 and 30 six times each.
    assert characters[0] == "Ten"
    widths = {rank: [patch.get_width() for patch in bars[rank]] for rank in range(3)}
    assert widths[0][0] == pytest.approx(0.5)
    assert widths[1][0] == pytest.approx(0.5)
    assert widths[2][0] == pytest.approx(0.0)
    assert ax.get_xlim() == (0.0, 1.0)
    assert "mount" in ax.get_xlabel()


def test_cosmetic_heatmap_cells_are_the_shares(frames):
    ax = plot_cosmetic_heatmap(frames, kind="mount", top=4)
    image = next(item for item in ax.get_children() if isinstance(item, AxesImage))
    values = np.asarray(image.get_array())
    rows = [label.get_text() for label in ax.get_yticklabels()]
    columns = [label.get_text() for label in ax.get_xticklabels()]
    # Picks of mount 1: 6 by character 10, 3 by 20, 6 by 30; mount 31: the 10 players of the
    # Quick 3v3 and Royale matches (character 100); mount 3: 6 by 10; mount 2: 3 by 20.
    assert columns == ["1", "31", "3", "2"]
    assert rows[:2] == ["10", "100"]
    assert values[rows.index("20")].tolist() == pytest.approx([0.5, 0, 0, 0.5])
    assert values[rows.index("10")].tolist() == pytest.approx([0.5, 0, 0.5, 0])


def test_cosmetic_summary_heatmap(frames):
    ax = plot_cosmetic_summary_heatmap(frames, metric="non_default_share")
    image = next(item for item in ax.get_children() if isinstance(item, AxesImage))
    values = np.asarray(image.get_array())
    assert [label.get_text() for label in ax.get_xticklabels()] == [
        "attachment",
        "emote",
        "mount",
        "outfit",
    ]
    rows = [label.get_text() for label in ax.get_yticklabels()]
    # every attachment, emote and outfit is the builder's default; char 10's mounts 1 and 3
    # are picked 6 times each, so half of its picks are not its default.
    assert values[rows.index("10")].tolist() == pytest.approx([0, 0, 0.5, 0])
    with pytest.raises(InvalidArgumentError):
        plot_cosmetic_summary_heatmap(frames, metric="popularity")


@pytest.mark.mpl_image_compare(**MPL)
def test_image_side_win_rates(frames):
    return plot_side_win_rates(frames).figure


@pytest.mark.mpl_image_compare(**MPL)
def test_image_duration_distribution(frames):
    return plot_duration_distribution(frames).figure


@pytest.mark.mpl_image_compare(**MPL)
def test_image_cosmetic_usage(frames):
    return plot_cosmetic_usage(frames, kind="mount", top=3).figure


@pytest.mark.mpl_image_compare(**MPL)
def test_image_duration_trend(frames):
    return plot_duration_trend(frames, over="week", min_count=2).figure


@pytest.mark.mpl_image_compare(**MPL)
def test_image_cosmetic_summary_heatmap(frames):
    return plot_cosmetic_summary_heatmap(frames, metric="non_default_share").figure
