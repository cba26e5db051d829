"""Session 5, running ``matchkit fetch`` as a newcomer with its output piped into a file: the
progress bar wrote dozens of carriage-return redraws (``matchkit global ...: 11page [...]``)
into the log. The bar is now drawn only on a terminal (``--no-progress`` still turns it off
there)."""

from __future__ import annotations

from matchkit.cli import main
from tests.regressions.commands import fetch_argv


def test_no_progress_bar_when_standard_error_is_not_a_terminal(keyed, tmp_path, capsys):
    argv = fetch_argv(keyed, tmp_path / "frames", start="2026-10-20", end="2026-10-22")
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "matches" in captured.out  # the summary is printed
    assert "page/s" not in captured.err
    assert "\r" not in captured.err
