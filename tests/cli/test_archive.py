"""`matchkit archive sync | info | compact` against the reference service over loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchkit.cli import main
from tests.archive.conftest import NOW_A


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_sync_info_compact(service_a, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", service_a.api_key)
    folder = str(tmp_path / "archive")
    common = [
        "--base-url",
        service_a.base_url,
        "--now",
        NOW_A,
        "--rate-limit",
        "off",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--window-days",
        "1",
    ]
    code, out, err = run(capsys, "archive", "sync", folder, "--start", "2026-10-29", *common)
    assert code == 0, err
    assert "added" in out
    assert "matches from 2026-10-29T00:00:00Z to 2026-10-31T00:00:00Z" in out
    assert "batch 2: 2026-10-30T00:00:00Z to 2026-10-31T00:00:00Z" in err  # progress lines
    assert service_a.api_key not in out + err
    code, out, _ = run(capsys, "archive", "sync", folder, *common)
    assert code == 0
    assert "added 0 matches from 2026-10-30T18:00:00Z" in out  # the settle period, again
    assert "none added twice" in out
    assert "not sent by the service" not in out
    code, _, err = run(capsys, "archive", "sync", folder, "--server-types", "QUICK2V2", *common)
    assert code == 2
    assert "--change-scope" in err
    code, out, _ = run(capsys, "archive", "info", folder)
    assert code == 0
    assert "scope: shard global; filters: none; telemetry: no" in out
    assert "final up to: 2026-10-30T18:00:00Z (the next sync starts there)" in out
    assert "synced to 2026-10-31T00:00:00Z" in out
    assert "batch 3\n" in out  # the second sync was a batch too (it added nothing)
    code, out, _ = run(capsys, "archive", "compact", folder)
    assert code == 0
    assert "2 files compacted into 1" in out
    code, _, err = run(capsys, "archive", "info", str(tmp_path / "nothing"))
    assert code == 2
    assert "not an archive" in err


@pytest.mark.parametrize("action", ["sync", "info", "compact"])
def test_help_has_examples(action: str, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["archive", action, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out
    assert f"matchkit archive {action}" in out


def test_settle_sets_where_the_archive_is_final(service_a, tmp_path: Path, capsys, monkeypatch):
    monkeypatch.setenv("MATCHKIT_API_KEY", service_a.api_key)
    folder = str(tmp_path / "archive")
    common = [
        "--base-url",
        service_a.base_url,
        "--now",
        NOW_A,
        "--rate-limit",
        "off",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--start",
        "2026-10-30",
    ]
    code, _, err = run(capsys, "archive", "sync", folder, "--settle", "-1", *common)
    assert code == 2
    assert "--settle -1.0 must be from 0" in err
    code, out, err = run(capsys, "archive", "sync", folder, "--settle", "2", *common)
    assert code == 0, err
    assert "final up to 2026-10-30T22:00:00Z" in out
    code, out, _ = run(capsys, "archive", "info", folder)
    assert "final up to: 2026-10-30T22:00:00Z" in out
