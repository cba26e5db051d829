"""Found by the telemetry helper in session 5: an event ``time`` further than a timestamp reaches
from 1970 (about 285,000 years in milliseconds) made ``to_telemetry_frames`` raise pandas'
``OutOfBoundsDatetime``, an error outside matchkit's that names neither the file nor the field.
Such a time is now missing (NaT) and reported in ``problems``, as a time that is not a number
is; every other event and time is kept."""

from __future__ import annotations

import pandas as pd
import pytest

from matchkit.telemetry import to_telemetry_frames
from tests.telemetry.test_parse import small_file

FAR = [10**16, -(10**16), 2**63 - 1, -(2**63)]


@pytest.mark.parametrize("far", FAR)
def test_a_time_beyond_timestamps_is_missing_and_reported(far):
    events = small_file("m1")
    events[2]["dataObject"]["time"] = far  # a death, cursor 20
    frames = to_telemetry_frames({"m1": events})
    deaths = frames.deaths.sort_values("cursor")
    assert len(deaths) == 2  # nothing dropped
    assert pd.isna(deaths["time"].iloc[0])
    assert deaths["time"].iloc[1] == pd.Timestamp(1_700_000_000_000, unit="ms", tz="UTC")
    (reported,) = [text for text in frames.problems if "further than a timestamp" in text]
    assert reported.startswith("deaths.time: 1 value(s) are further")
    assert f"e.g. {far} ms" in reported
