"""``matchkit archive sync --profile pubg`` and ``archive info`` against the PUBG double."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchkit.cli import main
from tests.archive.pubg.conftest import SHARD, set_now

NOW = "2026-11-12T00:00:00Z"


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_sync_and_info_of_days(pubg_double, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", pubg_double.api_key)
    set_now(pubg_double, NOW)
    folder = str(tmp_path / "archive")
    common = [
        "--profile",
        "pubg",
        "--shard",
        SHARD,
        "--base-url",
        pubg_double.base_url,
        "--now",
        NOW,
        "--rate-limit",
        "off",
        "--cache-dir",
        str(tmp_path / "cache"),
    ]
    code, out, err = run(capsys, "archive", "sync", folder, "--start", "2026-11-10", *common)
    assert code == 0, err
    assert "matches from 2026-11-10T00:00:00Z to 2026-11-12T00:00:00Z in 2 batches" in out
    assert "final up to 2026-11-11T00:00:00Z" in out
    assert "day 2026-11-11 not final yet: the next sync reads it again" in out
    assert "batch 2: 2026-11-11T00:00:00Z to 2026-11-12T00:00:00Z" in err  # progress lines
    assert pubg_double.api_key not in out + err
    code, out, _ = run(capsys, "archive", "info", folder)
    assert code == 0
    assert "scope: profile pubg; shard console; filters: none; telemetry: no" in out
    assert f"  {NOW}: 2026-11-10, 2026-11-11: +" in out
    assert "days with no sample (nothing listed): none" in out
    # Another scope (a player-centred one) is refused without --change-scope.
    code, _, err = run(capsys, "archive", "sync", folder, "--player-names", "someone", *common)
    assert code == 2
    assert "--change-scope" in err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--shard", "global"], "'global' is a shard of the gamelocker profile"),
        (["--player-names", ",".join(f"p{n}" for n in range(11))], "at most 10"),
        (["--player-names", *(f"p{n}" for n in range(11))], "at most 10"),
        (["--window-days", "2"], "leave window out (--window-days)"),
        (["--start", "2026-11-40"], "start="),
        (["--server-types", "QUICK3V3"], "takes the filters player_names"),
    ],
)
def test_bad_input_fails_before_any_request(
    pubg_double, tmp_path: Path, capsys, arguments: list[str], message: str
) -> None:
    before = len(pubg_double.requests.entries)
    folder = tmp_path / "archive"
    code, _, err = run(
        capsys, "archive", "sync", str(folder), "--profile", "pubg", "--base-url",
        pubg_double.base_url, *arguments,
    )  # fmt: skip
    assert code == 2
    assert message in err
    assert len(pubg_double.requests.entries) == before
    assert not folder.exists()
