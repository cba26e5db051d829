"""Issue 36: matchkit's telemetry reader rejected every PUBG telemetry file with a DocumentError
on its first event (it read only Gamelocker's ``{cursor, type, dataObject}`` events). The reader
is now chosen by the file's own shape: a PUBG file (events keyed by ``_T`` and ``_D``) becomes
PubgTelemetryFrames, with every event in a table."""

from __future__ import annotations

from matchkit.telemetry import PubgTelemetryFrames, to_telemetry_frames
from tests.telemetry.pubg.files import EXCERPT, EXCERPT_MATCH, raw_events, recorded


def test_a_pubg_file_reads_into_tables() -> None:
    frames = to_telemetry_frames(recorded(EXCERPT))
    assert isinstance(frames, PubgTelemetryFrames)
    assert frames.match_ids == [EXCERPT_MATCH]
    assert int(frames.event_counts["events"].sum()) == len(raw_events(EXCERPT)) == 29
    assert frames.problems == ()
