"""A telemetry event with a cursor beyond 64-bit integers crashed ``to_telemetry_frames``.

The file was read, and the ``files`` table then raised a raw ``OverflowError`` ("Python int too
large to convert to C long") from pandas: no MatchkitError, no match named. Cursors are the
tables' Int64 key and a real file's are about 3e9; one that no 64-bit integer holds means a
broken file, now refused as such when the file is read (found when the cursor sort moved to
numpy).
"""

from __future__ import annotations

import json

import pytest

from matchkit.errors import DocumentError
from matchkit.telemetry import to_telemetry_frames
from matchkit.telemetry.schema import MATCH_START, ROUND_FINISHED

MATCH = "M1"


def file_with_cursors(first: int, second: int) -> bytes:
    data = {"time": 1_700_000_000_000, "matchID": MATCH}
    events = [
        {"cursor": first, "type": MATCH_START, "dataObject": {**data, "version": "1"}},
        {"cursor": second, "type": ROUND_FINISHED, "dataObject": {**data, "round": 0}},
    ]
    return json.dumps(events).encode()  # orjson writes no integer beyond 64 bits


@pytest.mark.parametrize("cursor", [2**63, 2**64 + 5, -(2**63) - 1, -(2**70)])
def test_a_cursor_beyond_64_bits_is_a_document_error_naming_the_match(cursor: int) -> None:
    with pytest.raises(DocumentError, match=rf"match {MATCH} .*cursor {cursor}, beyond 64-bit"):
        to_telemetry_frames({MATCH: file_with_cursors(10, cursor)})


@pytest.mark.parametrize("cursor", [2**63 - 1, -(2**63)])
def test_the_64_bit_limits_themselves_are_read(cursor: int) -> None:
    frames = to_telemetry_frames({MATCH: file_with_cursors(cursor, 0)})
    assert sorted(frames.files[["first_cursor", "last_cursor"]].iloc[0]) == sorted([cursor, 0])
