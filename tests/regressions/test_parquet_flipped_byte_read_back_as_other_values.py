"""A flipped byte in a Parquet file read back as other values, with no error.

Found by flipping one bit at 61 places in each of two files of a written sample data set: in
``players/part-0.parquet`` 26 flips read back as other values (a changed ``player_id``, say) and
29 raised; in a ``participants`` partition 16 read back changed and 16 raised. Parquet's readers
check no content by default, and the manifest held row counts only. Now the manifest records
every file's SHA-256 (MatchFrames format 3, TelemetryFrames format 2) and reading refuses a file
whose bytes differ, naming it; data sets written before, without digests, read as before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from matchkit import MatchFrames, MatchkitError, StorageError, to_frames
from matchkit.model.parquet import MANIFEST
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from matchkit.telemetry.parquet import MANIFEST as TELEMETRY_MANIFEST
from tests.builders.resources import arena, page
from tests.telemetry.test_parse import MATCH, small_file

FLIPS = 24  # places per file, evenly spread from the magic number to the footer


@pytest.fixture
def written(tmp_path: Path) -> tuple[MatchFrames, Path]:
    frames = to_frames(
        page(*(arena(f"m{n}", created_at=f"2026-10-{28 + n % 3}T1{n}:00:00Z") for n in range(9)))
    )
    frames.to_parquet(tmp_path / "out")
    return frames, tmp_path / "out"


def assert_every_flip_refused(path: Path, read: Callable[[], object], error: type) -> None:
    """Flip one bit at ``FLIPS`` places of ``path`` in turn: ``read`` must refuse each, naming
    the file; the intact file is put back."""
    raw = path.read_bytes()
    for offset in range(4, len(raw) - 4, max(1, (len(raw) - 8) // FLIPS)):
        data = bytearray(raw)
        data[offset] ^= 0x01
        path.write_bytes(bytes(data))
        with pytest.raises(error, match="SHA-256") as raised:
            read()
        assert str(path) in str(raised.value)
    path.write_bytes(raw)


@pytest.mark.parametrize("file", ["players/part-0.parquet", "participants/date=2026-10-29"])
def test_every_flipped_byte_of_a_data_file_is_refused_naming_the_file(
    written: tuple[MatchFrames, Path], file: str
) -> None:
    frames, out = written
    path = out / file
    if path.is_dir():
        path = next(path.glob("*.parquet"))
    assert_every_flip_refused(path, lambda: MatchFrames.read_parquet(out), MatchkitError)
    back = MatchFrames.read_parquet(out)
    assert (
        back.players.sort_values("player_id")
        .reset_index(drop=True)
        .equals(frames.players.sort_values("player_id").reset_index(drop=True))
    )


def test_a_manifest_of_a_format_without_digests_is_refused(
    written: tuple[MatchFrames, Path],
) -> None:
    _, out = written
    manifest = orjson.loads((out / MANIFEST).read_bytes())
    manifest["format"] = "matchkit-frames/2"
    for spec in manifest["tables"].values():
        del spec["sha256"]
    (out / MANIFEST).write_bytes(orjson.dumps(manifest))
    with pytest.raises(MatchkitError, match="has format 'matchkit-frames/2'; this matchkit reads"):
        MatchFrames.read_parquet(out)


def test_a_current_manifest_without_a_digest_is_refused(written: tuple[MatchFrames, Path]) -> None:
    _, out = written
    manifest = orjson.loads((out / MANIFEST).read_bytes())
    del manifest["tables"]["players"]["sha256"]
    (out / MANIFEST).write_bytes(orjson.dumps(manifest))
    with pytest.raises(MatchkitError, match=r"records no SHA-256 of .*players"):
        MatchFrames.read_parquet(out)


def test_telemetry_frames_refuse_a_flipped_byte_too(tmp_path: Path) -> None:
    frames = to_telemetry_frames(orjson.dumps(small_file()), match_ids=[MATCH])
    out = tmp_path / "telemetry"
    frames.to_parquet(out)
    path = out / "round_player_stats.parquet"
    assert_every_flip_refused(path, lambda: TelemetryFrames.read_parquet(out), StorageError)
    back = TelemetryFrames.read_parquet(out)
    assert back.round_player_stats.equals(frames.round_player_stats)
    manifest = orjson.loads((out / TELEMETRY_MANIFEST).read_bytes())
    del manifest["tables"]["deaths"]["sha256"]
    (out / TELEMETRY_MANIFEST).write_bytes(orjson.dumps(manifest))
    with pytest.raises(StorageError, match=r"records no SHA-256 of .*deaths\.parquet"):
        TelemetryFrames.read_parquet(out)
    manifest["format"] = "matchkit-telemetry/1"
    (out / TELEMETRY_MANIFEST).write_bytes(orjson.dumps(manifest))
    with pytest.raises(MatchkitError, match="has format 'matchkit-telemetry/1'; this matchkit"):
        TelemetryFrames.read_parquet(out)
