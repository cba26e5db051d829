"""Issue 11 item 18: `matchkit fetch --out DIR` checked DIR only after fetching everything (an
hour at 10 requests a minute), and said `overwrite=True` instead of naming the flag."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from matchkit.cli import main
from matchkit.service import RunningService, running


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    with running(store_dir=tmp_path_factory.mktemp("store")) as handle:
        yield handle


def fetch(service: RunningService, out: Path, *extra: str) -> int:
    return main(
        [
            "fetch",
            "--base-url",
            service.base_url,
            "--start",
            "2026-10-01T00:00:00Z",
            "--end",
            "2026-10-30T00:00:00Z",
            "--now",
            "2026-10-31T00:00:00Z",
            "--rate-limit",
            "off",
            "--no-progress",
            "--cache-dir",
            str(out.parent / "cache"),
            "--out",
            str(out),
            *extra,
        ]
    )


def test_a_non_empty_out_is_refused_before_any_request(
    service: RunningService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.csv").write_text("a,b\n")
    before = service.requests.count()
    assert fetch(service, out) == 2
    error = capsys.readouterr().err
    assert "pass --overwrite" in error
    assert "overwrite=True" not in error
    assert service.requests.count() == before  # nothing was fetched
    assert [p.name for p in out.iterdir()] == ["mine.csv"]


def test_overwrite_of_a_folder_that_is_no_data_set_is_refused_before_any_request(
    service: RunningService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.csv").write_text("a,b\n")
    before = service.requests.count()
    assert fetch(service, out, "--overwrite") == 2
    assert "is not a matchkit Parquet data set" in capsys.readouterr().err
    assert service.requests.count() == before
    assert (out / "mine.csv").read_text() == "a,b\n"


def test_a_file_as_out_is_refused_before_any_request(
    service: RunningService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    out = tmp_path / "out.parquet"
    out.write_text("mine")
    before = service.requests.count()
    assert fetch(service, out, "--overwrite") == 2
    assert "exists and is not a folder" in capsys.readouterr().err
    assert service.requests.count() == before
