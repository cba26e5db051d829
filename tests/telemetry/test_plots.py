"""Telemetry plots: units, n and names on the axes; bad input is an argument error."""

from __future__ import annotations

import pytest

from matchkit.errors import InvalidArgumentError
from matchkit.names import load_names
from matchkit.plots import plot_battlerite_win_rates, plot_per_minute_rates, plot_queue_times
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.conftest import shared_path

MATCH_ID = "4810AA4CC2C34FDCBA34C7E8915EAFD4"


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    return to_telemetry_frames(shared_path("telemetry", f"telemetry-{MATCH_ID}.json"))


def test_battlerite_plot_names_the_character_and_counts(telemetry: TelemetryFrames) -> None:
    ax = plot_battlerite_win_rates(
        telemetry, character="Stormbringer", names={"1749055646": "Stormbringer"}
    )
    assert ax.get_title() == "Stormbringer: win rate by battlerite picked"
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert len(labels) == 5
    assert all("n=1/1" in label for label in labels)
    assert "win rate" in ax.get_ylabel()
    assert "battlerite (id)" in ax.get_xlabel()  # no names given for this file's battlerites
    with pytest.raises(InvalidArgumentError, match="no battlerites"):
        plot_battlerite_win_rates(telemetry, character="Nobody")


def test_battlerite_plot_labels_battlerites_by_name(telemetry: TelemetryFrames) -> None:
    picks = telemetry.battlerite_picks
    first, second = sorted(picks.loc[picks["character"] == 1749055646, "battlerite_type"])[:2]
    names = load_names(
        {
            "character": {"1749055646": "Stormbringer"},
            "battlerite": {str(first): "Stormbringer: Tidal Surge", str(second): "Gust"},
        }
    )
    ax = plot_battlerite_win_rates(telemetry, character="Stormbringer", names=names)
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert labels[0].startswith("Tidal Surge\nn=")  # the character's name is not repeated
    assert labels[1].startswith("Gust\nn=")
    assert sum(label.split("\n")[0].isdigit() for label in labels) == 3  # unnamed: their ids
    assert "battlerite (name)" in ax.get_xlabel()


def test_queue_plot_has_units_and_n(telemetry: TelemetryFrames) -> None:
    ax = plot_queue_times(telemetry)
    assert "(s," in ax.get_ylabel()
    assert "UTC" in ax.get_xlabel()
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ["us_southeast (n=6)"]


def test_rates_plot_has_units_and_n(telemetry: TelemetryFrames) -> None:
    ax = plot_per_minute_rates(telemetry, stat="healing_done", names={})
    assert ax.get_ylabel() == "healing done per minute alive (95% interval)"
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert len(labels) == 5  # five characters (one is played twice)
    assert all(label.endswith(")") for label in labels)
    with pytest.raises(InvalidArgumentError, match="no stat"):
        plot_per_minute_rates(telemetry, stat="luck")
    with pytest.raises(InvalidArgumentError, match="TelemetryFrames"):
        plot_per_minute_rates([1, 2])
