"""plot_player_form on a hand-built history: the rolling rate, its band, the characters' rows.

The image comparison runs with ``--mpl`` (baseline in tests/plots/baseline/, regenerate with
``pytest tests/plots/test_player_form.py --mpl-generate-path=tests/plots/baseline``).
"""

from __future__ import annotations

import matplotlib
import pandas as pd
import pytest
from matplotlib.figure import Figure

from matchkit.analysis import player_history
from matchkit.errors import InvalidArgumentError
from matchkit.names import sample_names
from matchkit.plots import plot_player_form
from matchkit.plots.players import rolling_win_rate
from tests.analysis.helpers import sample_frames, wilson

matplotlib.use("Agg")

MPL = {"baseline_dir": "baseline", "remove_text": True, "tolerance": 2, "style": "default"}
RESULTS = [True, False, True, True, None, False, False, True, True, True, False, True]
PLAYED = ["Ashwind", "Ashwind", "Bramble", "Ashwind", "Cinder", "Dusk"] * 2


@pytest.fixture
def history() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "match_id": [f"M{index}" for index in range(len(RESULTS))],
            "created_at": pd.date_range("2026-10-01", periods=len(RESULTS), freq="D", tz="UTC"),
            "actor": [f"a{name}" for name in PLAYED],
            "character": PLAYED,
            "won": pd.array(RESULTS, dtype="boolean"),
        }
    )


def test_rolling_rate_counts_the_last_decided_matches(history):
    rates = rolling_win_rate(history, window=4)
    decided = [won for won in RESULTS if won is not None]
    assert len(rates) == len(decided)  # the undecided match is left out
    for position in range(len(decided)):
        last = decided[max(0, position - 3) : position + 1]
        row = rates.iloc[position]
        assert (row["matches"], row["wins"]) == (len(last), sum(last))
        low, high = wilson(sum(last), len(last))
        assert (row["ci_low"], row["ci_high"]) == (pytest.approx(low), pytest.approx(high))


def test_the_line_starts_once_the_window_is_full_and_names_the_characters(history):
    ax = plot_player_form(history, window=4, top=2, label="Mieth678")
    line = next(line for line in ax.get_lines() if line.get_label().startswith("won, last 4"))
    rates = rolling_win_rate(history, window=4)
    assert list(line.get_ydata()) == pytest.approx(list(rates["win_rate"].iloc[3:]))
    assert ax.get_title() == "Form of Mieth678: 12 matches"
    assert isinstance(ax.figure, Figure)
    (strip,) = [other for other in ax.figure.axes if other is not ax]
    labels = [label.get_text() for label in strip.get_yticklabels()]
    assert labels == ["Ashwind (6)", "Bramble (2)", "other (4)"]  # Cinder and Dusk: 2 each
    points = sum(len(collection.get_offsets()) for collection in strip.collections)
    assert points == len(RESULTS)


def test_drawing_on_a_given_axes_returns_it(history):
    figure = Figure()
    ax = figure.add_subplot()
    assert plot_player_form(history, ax=ax) is ax
    assert len(ax.child_axes) == 1  # the characters, below it


def test_frames_with_a_player_id_plot_their_history():
    frames = sample_frames("global")
    player_id = str(frames.participants["player_id"].dropna().iloc[0])
    history = player_history(frames, player_id, names=sample_names())
    ax = plot_player_form(frames, player_id=player_id, names=sample_names())
    assert ax.get_title() == f"Form of one player: {len(history):,} matches"
    (strip,) = [other for other in ax.figure.axes if other is not ax]
    shown = [label.get_text().rsplit(" (", 1)[0] for label in strip.get_yticklabels()]
    assert not any(name.isdigit() for name in shown)  # names, not ids


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"window": 0}, "window"),
        ({"top": 1.5}, "top"),
        ({"data": pd.DataFrame({"won": []})}, "data"),
        ({"data": "frames"}, "player_id"),
    ],
)
def test_bad_arguments(history, options, parameter):
    data = options.pop("data", history)
    with pytest.raises(InvalidArgumentError) as raised:
        plot_player_form(data, **options)
    assert raised.value.parameter == parameter


@pytest.mark.mpl_image_compare(**MPL)
def test_image_player_form(history):
    return plot_player_form(history, window=4, top=3, label="Mieth678").figure
