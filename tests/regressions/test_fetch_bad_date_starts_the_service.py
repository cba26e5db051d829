"""Issue 12: `matchkit fetch --start 2026-13-01` started the embedded service (and printed its
line) before reading the dates. Every argument is now checked before a service starts or a
request is sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import matchkit.service
from matchkit.cli import main


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The embedded services the command starts (none may start: a start fails the test)."""
    calls: list[dict[str, Any]] = []

    def refuse(**options: Any) -> Any:
        calls.append(options)
        raise AssertionError("the embedded service was started before the arguments were read")

    monkeypatch.setattr(matchkit.service, "running", refuse)
    monkeypatch.delenv("MATCHKIT_BASE_URL", raising=False)
    return calls


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--start", "2026-13-01"], "ISO 8601"),
        (["--start", "2026-10-05", "--end", "2026-10-01"], "earlier than end"),
        (["--end", "2027-06-01", "--start", "2027-05-01"], "no match can exist yet"),
        (["--ranking-type", "SOMETIMES"], "ranking_type"),
        (["--player-names", "alice"], "player_names"),
        (["--max-matches", "0"], "max_matches"),
        (["--now", "yesterday"], "now"),
    ],
)
def test_a_bad_argument_is_reported_before_any_service_starts(
    started: list[dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    arguments: list[str],
    message: str,
) -> None:
    out = tmp_path / "out"
    command = ["fetch", "--no-progress", "--cache-dir", str(tmp_path / "cache"), "--out", str(out)]
    assert main([*command, *arguments]) == 2
    error = capsys.readouterr().err
    assert error.startswith("matchkit fetch: ")
    assert message in error
    assert started == []
    assert "embedded reference service" not in caplog.text
    assert not out.exists()


def test_good_arguments_still_start_the_service(
    started: list[dict[str, Any]], tmp_path: Path
) -> None:
    command = ["fetch", "--start", "2026-10-01", "--end", "2026-10-02", "--no-progress"]
    with pytest.raises(AssertionError, match="embedded service was started"):
        main([*command, "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "o")])
    assert len(started) == 1
