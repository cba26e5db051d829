"""Session 4's note: ``matchkit fetch`` printed a warning as Python does, with the path of the
source file on the user's machine, a line number and the line of code
(``/.../matchkit/cli/commands.py:88: UnlistedValueWarning: ...`` then ``frames =
client.matches(...)``). The command now prints one line naming itself, like its errors."""

from __future__ import annotations

from matchkit.cli import main
from tests.regressions.commands import fetch_argv


def test_a_warning_is_one_line_naming_the_command_without_a_source_path(keyed, tmp_path, capsys):
    argv = fetch_argv(
        keyed,
        tmp_path / "frames",
        "--no-progress",
        "--server-types",
        "league2v2",
        start="2026-10-20",
        end="2026-10-21",
    )
    assert main(argv) == 0
    printed = capsys.readouterr().err
    warning = next(line for line in printed.splitlines() if "LEAGUE2V2" in line)
    assert warning.startswith("matchkit fetch: warning: server_types LEAGUE2V2 not listed")
    assert ".py" not in printed  # no source path, no line of code
    assert "client.matches(" not in printed
