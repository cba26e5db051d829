"""Issue 11 item 18: `matchkit fetch --out DIR` checked DIR only after fetching everything (an
hour at 10 requests a minute), and said `overwrite=True` instead of naming the flag."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchkit.cli import main
from matchkit.service import RunningService
from tests.regressions.commands import fetch_argv


def fetch(service: RunningService, out: Path, *extra: str) -> int:
    return main(fetch_argv(service, out, "--no-progress", *extra))


def test_a_non_empty_out_is_refused_before_any_request(
    keyed: RunningService,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.csv").write_text("a,b\n")
    before = keyed.requests.count()
    assert fetch(keyed, out) == 2
    error = capsys.readouterr().err
    assert "pass --overwrite" in error
    assert "overwrite=True" not in error
    assert keyed.requests.count() == before  # nothing was fetched
    assert [p.name for p in out.iterdir()] == ["mine.csv"]


def test_overwrite_of_a_folder_that_is_no_data_set_is_refused_before_any_request(
    keyed: RunningService,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.csv").write_text("a,b\n")
    before = keyed.requests.count()
    assert fetch(keyed, out, "--overwrite") == 2
    assert "is not a matchkit Parquet data set" in capsys.readouterr().err
    assert keyed.requests.count() == before
    assert (out / "mine.csv").read_text() == "a,b\n"


def test_a_file_as_out_is_refused_before_any_request(
    keyed: RunningService,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out.parquet"
    out.write_text("mine")
    before = keyed.requests.count()
    assert fetch(keyed, out, "--overwrite") == 2
    assert "exists and is not a folder" in capsys.readouterr().err
    assert keyed.requests.count() == before
