"""replace_folder: the one way a folder matchkit wrote is replaced (only what its manifest
lists goes), including a replacement cut short."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchkit import MatchFrames, to_frames
from matchkit.errors import InvalidArgumentError, MatchkitError
from matchkit.model.parquet import MANIFEST
from matchkit.model.replace import pending_name, replace_folder
from matchkit.synth import iter_documents


@pytest.fixture(scope="module")
def frames() -> MatchFrames:
    return to_frames(list(iter_documents("global", matches=8)))


def test_a_replacement_cut_short_reads_as_incomplete_and_the_next_overwrite_finishes(
    tmp_path: Path, frames: MatchFrames
) -> None:
    out = tmp_path / "matches"
    frames.to_parquet(out)
    (out / "notes.txt").write_text("mine")
    (out / MANIFEST).rename(out / pending_name(MANIFEST))  # as when cut short mid-exchange
    with pytest.raises(MatchkitError, match="missing"):
        MatchFrames.read_parquet(out)
    with pytest.raises(InvalidArgumentError, match="not empty"):
        frames.to_parquet(out)  # still needs overwrite
    frames.to_parquet(out, overwrite=True)
    assert MatchFrames.read_parquet(out).matches.equals(frames.matches)
    assert not (out / pending_name(MANIFEST)).exists()
    assert (out / "notes.txt").read_text() == "mine"


def test_a_listed_path_outside_the_folder_is_refused(tmp_path: Path) -> None:
    target, staging = tmp_path / "target", tmp_path / "staging"
    for folder in (target, staging):
        folder.mkdir()
        (folder / "m.json").write_text("{}")
    (tmp_path / "outside.txt").write_text("mine")
    with pytest.raises(InvalidArgumentError, match="cannot be read"):
        replace_folder(staging, target, manifest="m.json", listed=lambda _: ["../outside.txt"])
    assert (tmp_path / "outside.txt").read_text() == "mine"
    assert (target / "m.json").exists()
