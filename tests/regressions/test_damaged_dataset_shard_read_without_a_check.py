"""A data set's shard was read without checking it against its manifest.

The manifest records each shard's line count and the SHA-256 of its lines, but nothing read them:
a shard edited since it was written (valid gzip, one digit changed) was served as it was, and a
flipped byte of the gzip raised gzip's own ``BadGzipFile`` or ``zlib.error`` (30 of 30 flips in
the sample set's global shard) rather than a MatchkitError saying what to do. Now a shard read to
its end is checked, and every failure is a MatchkitError naming the file and the way out.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from matchkit import MatchkitError
from matchkit.sampledata.dataset import open_dataset
from tests.builders.datasets import build_dataset


@pytest.fixture
def shard(tmp_path: Path) -> Path:
    build_dataset(tmp_path, global_matches=40, na_matches=10)
    return tmp_path / "global.jsonl.gz"


def _read(folder: Path) -> int:
    return sum(1 for _ in open_dataset(folder).iter_lines("global"))


def test_an_intact_shard_reads_whole(shard: Path) -> None:
    assert _read(shard.parent) == 40


def test_an_edited_shard_is_refused(shard: Path) -> None:
    lines = gzip.decompress(shard.read_bytes()).split(b"\n")
    lines[7] = lines[7].replace(b'"duration":', b'"duration":1', 1)  # one more digit
    shard.write_bytes(gzip.compress(b"\n".join(lines)))
    with pytest.raises(MatchkitError, match="not the shard its manifest describes") as raised:
        _read(shard.parent)
    assert str(shard) in str(raised.value)


def test_a_flipped_byte_is_a_matchkit_error_naming_the_shard(shard: Path) -> None:
    raw = shard.read_bytes()
    for offset in range(20, len(raw) - 8, max(1, len(raw) // 16)):
        data = bytearray(raw)
        data[offset] ^= 0x01
        shard.write_bytes(bytes(data))
        with pytest.raises(MatchkitError, match="git checkout") as raised:
            _read(shard.parent)
        assert str(shard) in str(raised.value)


def test_a_missing_shard_is_a_matchkit_error(shard: Path) -> None:
    shard.unlink()
    with pytest.raises(MatchkitError, match="is missing"):
        _read(shard.parent)
