"""Found while checking MatchFrames.concat's twin (session 10): TelemetryFrames.concat joined
its tables with a plain ``pd.concat``, so an event field that one match's telemetry held as an
integer and another's as text became an object column of mixed Python values, and
``to_parquet`` then raised Arrow's raw ``ArrowInvalid``. Such a column is now settled as the
normalizer settles it (text), as MatchFrames.concat does (model/combine.py).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pandas as pd

from matchkit.telemetry import to_telemetry_frames
from matchkit.telemetry.frames import TelemetryFrames
from tests.conftest import shared_path

MATCH = "4810AA4CC2C34FDCBA34C7E8915EAFD4"


def _telemetry(match_id: str, value: Any) -> TelemetryFrames:
    """The recorded telemetry file as match ``match_id``'s, its match start carrying an extra
    field ``zzExtra`` of ``value``."""
    raw = shared_path("telemetry", f"telemetry-{MATCH}.json").read_bytes()
    events = orjson.loads(raw.replace(MATCH.encode(), match_id.encode()))
    for event in events:
        if event["type"].endswith("MatchStart"):
            event["dataObject"]["zzExtra"] = copy.deepcopy(value)
    return to_telemetry_frames({match_id: orjson.dumps(events)})


def test_an_event_field_of_different_kinds_is_text_and_can_be_saved(tmp_path: Path) -> None:
    combined = TelemetryFrames.concat([_telemetry("A", 3), _telemetry("B", "x")])
    [(name, column)] = [
        (name, column)
        for name, table in combined.tables.items()
        for column in table.columns
        if column == "zz_extra"
    ]
    values = combined.tables[name][column]
    assert values.dtype == "string"
    assert values.dropna().tolist() == ["3", "x"]
    combined.to_parquet(tmp_path / "set")
    back = TelemetryFrames.read_parquet(tmp_path / "set")
    pd.testing.assert_series_equal(back.tables[name][column], values)
