"""Session 4's note: ``matchkit fetch`` printed a warning as Python does, with the path of the
source file on the user's machine, a line number and the line of code
(``/.../matchkit/cli/commands.py:88: UnlistedValueWarning: ...`` then ``frames =
client.matches(...)``). The command now prints one line naming itself, like its errors."""

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


def test_a_warning_is_one_line_naming_the_command_without_a_source_path(
    service: RunningService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MATCHKIT_API_KEY", service.api_key)
    code = main(
        [
            "fetch",
            "--base-url",
            service.base_url,
            "--start",
            "2026-10-20",
            "--end",
            "2026-10-21",
            "--server-types",
            "league2v2",
            "--now",
            "2026-10-31T00:00:00Z",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-progress",
            "--out",
            str(tmp_path / "frames"),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().err
    warning = next(line for line in printed.splitlines() if "LEAGUE2V2" in line)
    assert warning.startswith("matchkit fetch: warning: server_types LEAGUE2V2 not listed")
    assert ".py" not in printed  # no source path, no line of code
    assert "client.matches(" not in printed
