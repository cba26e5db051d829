"""What an analysis takes as ``data``: MatchFrames or an archive (TableSource), checked before
any work, and a real archive is what ArchiveTables says an analysis reads."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import matchkit.archive as archive
from matchkit.analysis import ArchiveTables, side_win_rates
from matchkit.analysis.inputs import checked_table_source, is_archive, require_match_frames
from matchkit.errors import InvalidArgumentError
from matchkit.synth.archive import write_synthetic_archive
from tests.analysis.helpers import frames_of
from tests.analysis.lazy import lazy_tables
from tests.builders.matches import arena_match


@pytest.fixture(scope="module")
def frames():
    return frames_of(arena_match("A"), arena_match("B", winner=2))


def test_matchframes_and_archives_are_sources_and_come_back_as_given(frames) -> None:
    lazy = lazy_tables(frames)
    assert checked_table_source(frames) is frames
    assert checked_table_source(lazy) is lazy
    assert is_archive(lazy)
    assert not is_archive(frames)


@pytest.mark.parametrize("data", [None, 3, "frames", pd.DataFrame({"x": [1]}), [1]])
def test_anything_else_is_refused_naming_data(data) -> None:
    with pytest.raises(InvalidArgumentError, match="MatchFrames") as raised:
        checked_table_source(data)
    assert raised.value.parameter == "data"
    with pytest.raises(InvalidArgumentError) as raised:
        side_win_rates(data)
    assert raised.value.parameter == "data"


def test_what_reads_pandas_only_refuses_an_archive_with_the_way_out(frames) -> None:
    assert require_match_frames(frames) is None
    with pytest.raises(InvalidArgumentError, match=r"archive\.to_frames") as raised:
        require_match_frames(lazy_tables(frames))
    assert raised.value.parameter == "data"


def test_a_real_archive_has_every_table_an_analysis_reads(tmp_path: Path) -> None:
    write_synthetic_archive(tmp_path / "archive", matches=60, days=20)
    opened = archive.open(tmp_path / "archive")
    assert isinstance(opened, ArchiveTables)
    assert is_archive(opened)
    assert checked_table_source(opened) is opened
    assert not isinstance(object(), ArchiveTables)
