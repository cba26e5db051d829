"""``names=None`` meant two things: "no names" in the analyses of matches, and "the sample set's
catalogue" in the analyses of telemetry (``analysis/telemetry.py``), so that real telemetry got
the sample game's character names. Now None means no names everywhere: each id is its own name.
"""

from __future__ import annotations

import pandas as pd
import pytest

from matchkit.analysis import battlerite_win_rates, cosmetic_usage, per_minute_rates
from matchkit.analysis.telemetry import battlerite_labels, character_labels
from matchkit.names import sample_names
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.analysis.helpers import sample_frames
from tests.builders.telemetry import sample_telemetry_files


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    return to_telemetry_frames(sample_telemetry_files(limit=6))


def test_telemetry_tables_without_names_show_ids(telemetry: TelemetryFrames) -> None:
    table = battlerite_win_rates(telemetry)
    assert len(table) > 0
    assert table["character_name"].tolist() == table["character"].astype(str).tolist()
    assert table["battlerite_name"].tolist() == table["battlerite_type"].astype(str).tolist()
    rates = per_minute_rates(telemetry, by=["character"])
    assert rates["character_name"].tolist() == rates["character"].astype(str).tolist()


def test_the_sample_catalogue_is_asked_for_by_name(telemetry: TelemetryFrames) -> None:
    named = battlerite_win_rates(telemetry, names=sample_names())
    assert not named["character_name"].str.fullmatch(r"\d+").any()


def test_labels_without_names_are_the_ids() -> None:
    ids = pd.Series([1749055646, None], dtype="Int64")
    assert character_labels(ids).tolist()[0] == "1749055646"
    assert battlerite_labels(ids).tolist()[0] == "1749055646"


def test_match_and_telemetry_tables_read_none_alike() -> None:
    usage = cosmetic_usage(sample_frames(), "mount")
    assert usage["character"].tolist() == usage["actor"].astype(str).tolist()
