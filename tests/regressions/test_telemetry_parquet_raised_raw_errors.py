"""TelemetryFrames.read_parquet let Arrow's, orjson's and Python's own errors through.

Found while checking flipped bytes (``test_parquet_flipped_byte_read_back_as_other_values``):
a damaged file of telemetry frames raised a raw ``OSError`` from Arrow, a manifest that was not
JSON a raw ``JSONDecodeError``, one that was a list an ``AttributeError``, and a manifest
without a column's dtype a ``KeyError``. MatchFrames had been hardened against these (issue 11,
item 16); the telemetry reader had not. Now each is a MatchkitError that names the file.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from matchkit import MatchkitError, StorageError
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from matchkit.telemetry.parquet import MANIFEST
from tests.telemetry.test_parse import MATCH, small_file


@pytest.fixture
def written(tmp_path: Path) -> Path:
    out = tmp_path / "telemetry"
    to_telemetry_frames(orjson.dumps(small_file()), match_ids=[MATCH]).to_parquet(out)
    return out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "is not valid JSON"),
        (b"[]", "has format None"),
        (b'{"format": "matchkit-telemetry/2"}', "no readable 'tables'"),
    ],
)
def test_a_broken_manifest_is_a_matchkit_error(written: Path, content: bytes, message: str) -> None:
    (written / MANIFEST).write_bytes(content)
    with pytest.raises(MatchkitError, match=message):
        TelemetryFrames.read_parquet(written)


def test_a_damaged_file_is_a_storage_error_naming_it(written: Path) -> None:
    path = written / "deaths.parquet"
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    with pytest.raises(StorageError, match=r"deaths\.parquet is not the file matchkit wrote"):
        TelemetryFrames.read_parquet(written)


def test_a_manifest_without_a_dtype_is_a_storage_error(written: Path) -> None:
    manifest = orjson.loads((written / MANIFEST).read_bytes())
    del manifest["tables"]["deaths"]["dtypes"]["cursor"]
    (written / MANIFEST).write_bytes(orjson.dumps(manifest))
    with pytest.raises(StorageError, match=r"deaths\.parquet cannot be read .*KeyError"):
        TelemetryFrames.read_parquet(written)
