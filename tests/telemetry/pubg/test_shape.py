"""The reader is chosen by the file's own shape: PUBG's ``_T``/``_D`` events, or Gamelocker's
``{cursor, type, dataObject}``."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from matchkit.errors import DocumentError
from matchkit.telemetry import PubgTelemetryFrames, TelemetryFrames, to_telemetry_frames
from matchkit.telemetry.parse import parse_file
from matchkit.telemetry.shape import telemetry_shape
from tests.telemetry.pubg.files import EXCERPT, WHOLE, WHOLE_MATCH, raw_events, recorded
from tests.telemetry.test_parse import small_file as gamelocker_file


def test_shapes(tmp_path: Path) -> None:
    pubg = recorded(EXCERPT).read_bytes()
    gamelocker = orjson.dumps(gamelocker_file())
    packed = tmp_path / "telemetry.json.gz"
    packed.write_bytes(gzip.compress(pubg))
    assert (
        telemetry_shape(pubg) == telemetry_shape(packed) == telemetry_shape(str(packed)) == "pubg"
    )
    assert telemetry_shape(pubg.decode()) == telemetry_shape(raw_events(EXCERPT)) == "pubg"
    assert telemetry_shape(gamelocker) == telemetry_shape(gamelocker_file()) == "gamelocker"
    assert telemetry_shape(b"[]") is None
    assert telemetry_shape(tmp_path / "missing.json") is None


@pytest.mark.parametrize("form", ["path", "bytes", "gzip", "mapping", "list", "parsed"])
def test_to_telemetry_frames_reads_a_pubg_file(form: str) -> None:
    path = recorded(WHOLE)
    telemetry = {
        "path": path,
        "bytes": path.read_bytes(),
        "gzip": gzip.compress(path.read_bytes()),
        "mapping": {WHOLE_MATCH: path},
        "list": [path],
        "parsed": raw_events(WHOLE),
    }[form]
    frames = to_telemetry_frames(telemetry)
    assert isinstance(frames, PubgTelemetryFrames)
    assert frames.match_ids == [WHOLE_MATCH]
    assert len(frames.kills) == 34
    assert frames.problems == ()


def test_a_gamelocker_file_still_goes_to_its_reader() -> None:
    assert isinstance(to_telemetry_frames(gamelocker_file()), TelemetryFrames)


def test_the_gamelocker_reader_names_the_pubg_reader() -> None:
    with pytest.raises(DocumentError, match=r"it is PUBG telemetry .*matchkit\.telemetry\.pubg"):
        parse_file(recorded(EXCERPT), match_id=WHOLE_MATCH)
