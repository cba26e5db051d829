"""Tried as a newcomer: `matchkit archive sync DIR --start 2026-13-01` started the embedded
service (and printed its line) before reading the date, as `fetch` once did (issue 12); so did a
bad filter (`--ranking-type SOMETIMES`, a filter of the other shard) and a bad `--buckets`.
Every argument is now checked before the client starts anything: the times and buckets as they
are read, the filters by an offline client, which starts nothing and sends nothing."""

from __future__ import annotations

from typing import Any

import pytest

import matchkit.service
from matchkit.cli import main


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--start", "2026-13-01"], "ISO 8601"),
        (["--now", "yesterday"], "now"),
        (["--ranking-type", "SOMETIMES"], "RANKED"),
        (["--game-modes", "casual"], "game_modes"),  # a filter of the na shard only
        (["--shard", "na", "--server-types", "QUICK2V2"], "server_types"),
        (["--buckets", "0"], "buckets"),
    ],
)
def test_a_bad_argument_is_refused_before_the_service_starts(
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
