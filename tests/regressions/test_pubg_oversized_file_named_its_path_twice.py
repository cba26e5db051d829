"""Regression: a PUBG telemetry file on disk larger than ``max_bytes`` was refused with its path
written twice ("telemetry file 0 (/x.json) (/x.json) is larger than ..."): the reader's label
already named the path and the path reader added it again. Found while making the one-piece and
the streamed reads one reader (``matchkit/telemetry/pubg/source.py``)."""

from __future__ import annotations

import gzip
from pathlib import Path

import orjson
import pytest

from matchkit.errors import DocumentError
from matchkit.telemetry.pubg import read_pubg_file

EVENTS = [{"_T": "LogMatchStart", "_D": "2025-07-12T17:12:02.807Z", "pad": "x" * 4_000}]


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzip"])
def test_an_oversized_file_is_named_once(tmp_path: Path, packed: bool) -> None:
    content = orjson.dumps(EVENTS)
    path = tmp_path / ("telemetry.json.gz" if packed else "telemetry.json")
    path.write_bytes(gzip.compress(content) if packed else content)
    with pytest.raises(DocumentError, match="is larger than max_bytes=1,000") as raised:
        read_pubg_file(path, max_bytes=1_000)
    assert str(raised.value).count(str(path)) == 1, raised.value
