"""Found by the clean-clone lint after the merge of issue 27's branches: ``matchkit synth
--telemetry`` without ``--archive`` raised ``NameError`` (the argument error's class was not
imported where the merge left the check), and no test ran that path."""

from __future__ import annotations

from matchkit.cli import main


def test_synth_telemetry_without_archive_is_an_argument_error(tmp_path, capsys) -> None:
    out = tmp_path / "data"
    assert main(["synth", "--out", str(out), "--telemetry"]) == 2
    assert "--telemetry goes with --archive" in capsys.readouterr().err
    assert not out.exists()  # refused before anything was written
