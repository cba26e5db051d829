"""Regression: ``matchkit.archive.open`` made the lazy Dask DataFrame of every table (eleven, and
each telemetry table: seventeen more for PUBG) when the archive was opened, importing Dask and
planning frames a notebook or a pandas user of ``to_frames()`` never computed: open and
``to_frames()`` of a 2,000-match archive took 1.1-1.2 CPU-s, against 0.27-0.29 once each frame
is made on first use. Found by profiling notebook 10 (PUBG archive with telemetry) with py-spy."""

from __future__ import annotations

from pathlib import Path

import pytest

import matchkit.archive
from matchkit.synth.archive import write_synthetic_archive
from tests.fresh import printed_by


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("archive") / "archive"
    write_synthetic_archive(path, matches=200, days=20, telemetry=True)
    return path


def test_open_and_to_frames_load_no_dask(folder: Path) -> None:
    code = (
        "import sys\n"
        "import matchkit.archive\n"
        f"frames = matchkit.archive.open({str(folder)!r}).to_frames()\n"
        "print(len(frames.matches))\n"
        "print(sorted(m for m in sys.modules if m == 'dask' or m.startswith('dask.')))"
    )
    rows, loaded = printed_by(code).split("\n")[:2]
    assert int(rows) == 200
    assert loaded == "[]"


def test_each_table_is_made_on_first_use_and_kept(folder: Path) -> None:
    opened = matchkit.archive.open(folder)
    assert opened.matches is opened.matches
    assert len(opened.matches) == 200  # a lazy frame, computed here
    assert list(opened.players.columns) == list(opened.tables["players"].columns)
    assert opened.telemetry is not None
    names = dir(opened.telemetry)
    assert set(names) == {
        label.partition("/")[2] for label in opened.versions if label.startswith("telemetry/")
    }
    first = getattr(opened.telemetry, names[0])
    assert first is getattr(opened.telemetry, names[0])
    assert "match_id" in first.columns
    with pytest.raises(AttributeError, match="no table 'nonesuch'"):
        opened.telemetry.nonesuch  # noqa: B018
    with pytest.raises(AttributeError):
        opened.nonesuch  # noqa: B018
