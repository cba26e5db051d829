"""``matchkit fetch``: fetch through the client and write the MatchFrames as Parquet."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from matchkit.cli import main
from matchkit.client.client import Client
from matchkit.model.frames import MatchFrames
from matchkit.service import RunningService, running
from tests.client.conftest import assert_same_frames


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    with running(store_dir=tmp_path_factory.mktemp("store")) as handle:
        yield handle


def test_fetch_writes_parquet_and_prints_a_summary(
    service: RunningService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    out = tmp_path / "frames"
    span = ["--start", "2026-10-20T00:00:00Z", "--end", "2026-10-25T00:00:00Z"]
    code = main(
        [
            "fetch",
            "--base-url",
            service.base_url,
            *span,
            "--server-types",
            "quick2v2,quick3v3",
            "--now",
            "2026-10-31T00:00:00Z",
            "--rate-limit",
            "off",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-progress",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed
    written = MatchFrames.read_parquet(out)
    with Client(
        service.base_url,
        api_key=service.api_key,
        cache_dir=tmp_path / "other-cache",
        now="2026-10-31T00:00:00Z",
        rate_limit="off",
        progress=False,
    ) as client:
        expected = client.matches(span[1], span[3], server_types=["QUICK2V2", "QUICK3V3"])
    assert len(written) == len(expected) > 0
    assert f"{len(expected):>9,} rows" in printed
    assert set(written.matches["server_type"].astype(str)) <= {"QUICK2V2", "QUICK3V3"}
    assert_same_frames(written, expected)
    assert service.api_key not in printed


def test_fetch_reports_a_bad_argument_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "fetch",
            "--base-url",
            "http://127.0.0.1:9",
            "--start",
            "not-a-time",
            "--cache-dir",
            str(tmp_path),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert code == 2
    assert "start='not-a-time' is not an ISO 8601 timestamp" in capsys.readouterr().err
