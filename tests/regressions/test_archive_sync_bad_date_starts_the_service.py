"""Tried as a newcomer: `matchkit archive sync DIR --start 2026-13-01` started the embedded
service (and printed its line) before reading the date, as `fetch` once did (issue 12). The
times are now checked before a client starts anything."""

from __future__ import annotations

from typing import Any

import pytest

import matchkit.service
from matchkit.cli import main


@pytest.mark.parametrize(
    ("arguments", "message"),
    [(["--start", "2026-13-01"], "ISO 8601"), (["--now", "yesterday"], "now")],
)
def test_a_bad_time_is_refused_before_the_service_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path, capsys, arguments: list[str], message: str
) -> None:
    started: list[dict[str, Any]] = []

    def refuse(**options: Any) -> Any:
        started.append(options)
        raise AssertionError("the embedded service was started before the arguments were read")

    monkeypatch.setattr(matchkit.service, "running", refuse)
    monkeypatch.delenv("MATCHKIT_BASE_URL", raising=False)
    folder = tmp_path / "archive"
    assert main(["archive", "sync", str(folder), *arguments]) == 2
    assert message in capsys.readouterr().err
    assert started == []
    assert not folder.exists()
