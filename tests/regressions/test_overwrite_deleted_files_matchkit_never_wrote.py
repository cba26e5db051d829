"""Issue 26, A9: an overwrite deleted files that matchkit never wrote.

``to_parquet(overwrite=True)`` and ``matchkit fetch --overwrite`` renamed the old folder away and
deleted it whole, with a notes file and a telemetry data set in a subfolder; the report folder
refused such a folder instead. Every writer now replaces a folder through one function
(``matchkit.model.replace``), which deletes exactly the files the old manifest lists and nothing
else, and refuses (deleting nothing) when a new file would land among files it did not write.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from matchkit import MatchFrames, to_frames
from matchkit.cli import main
from matchkit.errors import InvalidArgumentError
from matchkit.report.folder import MARKER, ReportFolder
from matchkit.service import RunningService
from matchkit.synth import iter_documents
from matchkit.telemetry import TelemetryFrames, to_telemetry_frames
from tests.conftest import shared_path
from tests.regressions.commands import fetch_argv

REAL_MATCH = "4810AA4CC2C34FDCBA34C7E8915EAFD4"


@pytest.fixture(scope="module")
def frames() -> MatchFrames:
    return to_frames(list(iter_documents("global", matches=30)))


@pytest.fixture(scope="module")
def telemetry() -> TelemetryFrames:
    path = shared_path("telemetry", f"telemetry-{REAL_MATCH}.json")
    return to_telemetry_frames({REAL_MATCH: path.read_bytes()})


def _users_files(out: Path, telemetry: TelemetryFrames) -> None:
    (out / "notes.txt").write_text("my notes")
    telemetry.to_parquet(out / "telemetry")


def _still_there(out: Path, telemetry: TelemetryFrames) -> None:
    assert (out / "notes.txt").read_text() == "my notes"
    kept = TelemetryFrames.read_parquet(out / "telemetry")
    assert kept.round_player_stats.equals(telemetry.round_player_stats)


def test_match_frames_overwrite_keeps_a_notes_file_and_a_telemetry_data_set(
    tmp_path: Path, frames: MatchFrames, telemetry: TelemetryFrames
) -> None:
    out = tmp_path / "matches"
    frames.to_parquet(out)
    _users_files(out, telemetry)
    fewer = frames.filter(frames.matches.index < 3)  # fewer dates: old partitions must go
    fewer.to_parquet(out, overwrite=True)
    _still_there(out, telemetry)
    again = MatchFrames.read_parquet(out)
    assert len(again) == 3
    assert again.matches.equals(MatchFrames.read_parquet(out).matches)
    dates = {path.name for path in (out / "matches").iterdir()}
    assert len(dates) == fewer.matches["created_at"].dt.date.nunique()  # no stale partition
    assert sorted(path.name for path in tmp_path.iterdir()) == ["matches"]  # nothing hidden left


def test_a_file_matchkit_did_not_write_inside_its_table_folder_stops_the_overwrite(
    tmp_path: Path, frames: MatchFrames
) -> None:
    out = tmp_path / "matches"
    frames.to_parquet(out)
    (out / "players" / "mine.csv").write_text("a,b\n")
    with pytest.raises(InvalidArgumentError, match=r"players/mine\.csv, which matchkit did not"):
        frames.to_parquet(out, overwrite=True)
    assert (out / "players" / "mine.csv").read_text() == "a,b\n"
    (out / "players" / "mine.csv").unlink()
    assert MatchFrames.read_parquet(out).matches.equals(frames.matches)  # the old one, whole
    assert sorted(path.name for path in tmp_path.iterdir()) == ["matches"]


def test_telemetry_frames_overwrite_keeps_a_notes_file(
    tmp_path: Path, telemetry: TelemetryFrames
) -> None:
    out = tmp_path / "telemetry"
    telemetry.to_parquet(out)
    (out / "notes.txt").write_text("my notes")
    TelemetryFrames.empty().to_parquet(out, overwrite=True)
    assert (out / "notes.txt").read_text() == "my notes"
    assert len(TelemetryFrames.read_parquet(out)) == 0


def test_report_overwrite_keeps_a_notes_file_and_a_data_set(
    tmp_path: Path, telemetry: TelemetryFrames
) -> None:
    out = tmp_path / "report"
    for page in ("a.html", "b.html"):
        folder = ReportFolder.prepare(out, overwrite=True)
        (folder.staging / page).write_text(page)
        folder.commit()
        if page == "a.html":
            _users_files(out, telemetry)
    _still_there(out, telemetry)
    assert not (out / "a.html").exists()
    assert json.loads((out / MARKER).read_text())["entries"] == [MARKER, "b.html"]


def test_fetch_overwrite_keeps_a_notes_file_and_a_telemetry_data_set(
    keyed: RunningService, tmp_path: Path, telemetry: TelemetryFrames
) -> None:
    out = tmp_path / "out"
    window = {"start": "2026-10-01T00:00:00Z", "end": "2026-10-01T06:00:00Z"}
    assert main(fetch_argv(keyed, out, "--no-progress", **window)) == 0
    _users_files(out, telemetry)
    assert main(fetch_argv(keyed, out, "--no-progress", "--overwrite", **window)) == 0
    _still_there(out, telemetry)
    assert len(MatchFrames.read_parquet(out)) > 0


def test_synth_out_keeps_other_files_and_a_failed_run_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import matchkit.synth as synth
    from matchkit.sampledata.dataset import open_dataset

    out = tmp_path / "data"
    synth.write_dataset(out, matches=5, na_matches=1)
    (out / "notes.txt").write_text("my notes")
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    real = synth.write_shard_file

    def failing(path: Path, documents):  # the na shard fails, after global was written
        if path.name.startswith("na"):
            raise OSError(28, "No space left on device")
        return real(path, documents)

    monkeypatch.setattr(synth, "write_shard_file", failing)
    with pytest.raises(OSError, match="No space left"):
        synth.write_dataset(out, matches=7, na_matches=1, seed=3)
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["data"]
    monkeypatch.setattr(synth, "write_shard_file", real)
    synth.write_dataset(out, matches=7, na_matches=1, seed=3)
    assert (out / "notes.txt").read_text() == "my notes"
    assert open_dataset(out).manifest["shards"]["global"]["matches"] == 7
