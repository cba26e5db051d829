"""MatchFrames <-> Parquet: layout, identical dtypes, atomic writes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pandas as pd
import pyarrow.dataset as ds
import pytest

import matchkit.model.parquet
from matchkit import InvalidArgumentError, MatchFrames, MatchkitError, to_frames
from matchkit.model.parquet import MANIFEST
from matchkit.model.schema import TABLE_NAMES, TABLES
from tests.builders.resources import arena, page


@pytest.fixture
def frames() -> MatchFrames:
    first, included = arena("m1", created_at="2026-10-30T23:59:59Z")
    included[0]["attributes"]["stats"].update(
        itemGrants={"b": 1, "a": 2}, farm=1.25, winner=True, bigValue=2**40
    )
    included.append({"type": "participant", "id": "stray"})  # no roster, no match: null date
    return to_frames(
        page(
            (first, included),
            arena("m2", created_at="2026-10-31T00:00:00Z"),
            arena("m3", created_at="2026-10-31T18:00:00Z"),
        )
    )


def _sorted(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    key = list(TABLES[name].key)
    return frame.sort_values(key, ignore_index=True) if len(frame) else frame


def test_round_trip_has_identical_values_and_dtypes(tmp_path: Path, frames: MatchFrames) -> None:
    frames.to_parquet(tmp_path / "out")
    back = MatchFrames.read_parquet(tmp_path / "out")
    assert back.problems == frames.problems
    for name in TABLE_NAMES:
        original, restored = frames.tables[name], back.tables[name]
        assert list(restored.columns) == list(original.columns), name
        assert restored.dtypes.to_dict() == original.dtypes.to_dict(), name
        pd.testing.assert_frame_equal(_sorted(restored, name), _sorted(original, name))


def test_layout_is_hive_partitioned_by_match_date(tmp_path: Path, frames: MatchFrames) -> None:
    out = tmp_path / "out"
    frames.to_parquet(out)
    assert (out / MANIFEST).is_file()
    partitions = sorted(p.name for p in (out / "matches").iterdir())
    assert partitions == ["date=2026-10-30", "date=2026-10-31"]
    participant_partitions = sorted(p.name for p in (out / "participants").iterdir())
    assert "date=2026-10-30" in participant_partitions
    assert len(participant_partitions) == 3  # two dates and the stray's null partition
    assert [p.name for p in (out / "players").iterdir()] == ["part-0.parquet"]
    # Readers that know nothing of matchkit see the partition column.
    table = ds.dataset(out / "rosters", format="parquet", partitioning="hive").to_table()
    dates = {str(value) for value in table.column("date").to_pylist()}
    assert dates == {"2026-10-30", "2026-10-31"}
    assert table.num_rows == len(frames.rosters)


def test_empty_frames_round_trip(tmp_path: Path) -> None:
    MatchFrames.empty().to_parquet(tmp_path / "empty")
    back = MatchFrames.read_parquet(tmp_path / "empty")
    for name in TABLE_NAMES:
        assert back.tables[name].empty
        assert (
            back.tables[name].dtypes.to_dict() == MatchFrames.empty().tables[name].dtypes.to_dict()
        )


def test_filtered_frames_keep_their_categories(tmp_path: Path, frames: MatchFrames) -> None:
    kept = frames.filter(frames.matches["match_id"] == "m1")
    kept.to_parquet(tmp_path / "kept")
    back = MatchFrames.read_parquet(tmp_path / "kept")
    assert back.matches["server_type"].dtype == kept.matches["server_type"].dtype
    assert back.participants["kind"].dtype == kept.participants["kind"].dtype


def test_existing_folder_needs_overwrite(tmp_path: Path, frames: MatchFrames) -> None:
    out = tmp_path / "out"
    frames.to_parquet(out)
    with pytest.raises(InvalidArgumentError, match="overwrite=True"):
        frames.to_parquet(out)
    smaller = frames.filter([True, False, False])
    smaller.to_parquet(out, overwrite=True)
    assert len(MatchFrames.read_parquet(out)) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # nothing left beside it


def test_refuses_to_replace_a_folder_that_is_not_a_data_set(
    tmp_path: Path, frames: MatchFrames
) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("keep me")
    with pytest.raises(InvalidArgumentError, match="not a matchkit Parquet data set"):
        frames.to_parquet(tmp_path / "notes", overwrite=True)
    assert (tmp_path / "notes" / "todo.txt").read_text() == "keep me"


def test_an_interrupted_write_leaves_nothing_that_reads_as_complete(
    tmp_path: Path, frames: MatchFrames, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = matchkit.model.parquet._write_table
    written = []

    def failing(frame: pd.DataFrame, folder: Path, dates: object) -> dict[str, int]:
        if folder.name == "rounds":
            raise KeyboardInterrupt
        files = original(frame, folder, dates)
        written.append(folder.name)
        return files

    monkeypatch.setattr(matchkit.model.parquet, "_write_table", failing)
    with pytest.raises(KeyboardInterrupt):
        frames.to_parquet(tmp_path / "out")
    assert written  # it got part of the way
    assert list(tmp_path.iterdir()) == []  # no target, no staging folder


def test_an_interrupted_overwrite_keeps_the_old_data(
    tmp_path: Path, frames: MatchFrames, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    frames.to_parquet(out)

    def failing(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(matchkit.model.parquet, "_write_table", failing)
    with pytest.raises(MatchkitError, match="disk full") as raised:
        frames.filter([True, False, False]).to_parquet(out, overwrite=True)
    assert isinstance(raised.value.__cause__, OSError)  # the file system's own error, kept
    assert len(MatchFrames.read_parquet(out)) == 3
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left


def test_reading_a_folder_without_manifest(tmp_path: Path, frames: MatchFrames) -> None:
    frames.to_parquet(tmp_path / "out")
    (tmp_path / "out" / MANIFEST).unlink()
    with pytest.raises(MatchkitError, match="interrupted write"):
        MatchFrames.read_parquet(tmp_path / "out")


def test_recorded_samples_round_trip(tmp_path: Path, samples_dir: Path) -> None:
    frames = to_frames(path.read_bytes() for path in sorted(samples_dir.rglob("*.json")))
    frames.to_parquet(tmp_path / "samples")
    back = MatchFrames.read_parquet(tmp_path / "samples")
    for name in TABLE_NAMES:
        pd.testing.assert_frame_equal(
            _sorted(back.tables[name], name), _sorted(frames.tables[name], name)
        )


def test_rows_of_unknown_matches_only(tmp_path: Path) -> None:
    """Every match-bound row in the null partition: nothing to infer the date type from."""
    frames = to_frames({"data": [], "included": [{"type": "participant", "id": "p"}]})
    frames.to_parquet(tmp_path / "out")
    back = MatchFrames.read_parquet(tmp_path / "out")
    assert list(back.participants["participant_id"]) == ["p"]
    assert back.participants.dtypes.to_dict() == frames.participants.dtypes.to_dict()


def test_an_existing_empty_folder_is_a_fine_target(tmp_path: Path, frames: MatchFrames) -> None:
    (tmp_path / "out").mkdir()
    frames.to_parquet(tmp_path / "out")
    assert len(MatchFrames.read_parquet(tmp_path / "out")) == 3


def test_the_manifest_lists_every_file_with_its_rows(tmp_path: Path, frames: MatchFrames) -> None:
    out = tmp_path / "out"
    frames.to_parquet(out)
    manifest = orjson.loads((out / MANIFEST).read_bytes())
    assert manifest["format"] == "matchkit-frames/3"
    for name in TABLE_NAMES:
        spec = manifest["tables"][name]
        on_disk = sorted(
            path.relative_to(out / name).as_posix() for path in (out / name).rglob("*.parquet")
        )
        assert sorted(spec["files"]) == on_disk, name
        assert sum(spec["files"].values()) == spec["rows"] == len(frames.tables[name]), name
        assert spec["sha256"] == {
            file: hashlib.sha256((out / name / file).read_bytes()).hexdigest() for file in on_disk
        }, name
    assert manifest["tables"]["matches"]["files"] == {
        "date=2026-10-30/part-0.parquet": 1,
        "date=2026-10-31/part-0.parquet": 2,
    }
