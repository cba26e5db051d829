"""Issue 26, A10: ``matchkit cache clear --older-than inf`` (also ``1e400``, ``1e9``) ended in a
traceback: argparse read any float, and the command turned it into a timedelta, which cannot
hold it. A sibling: ``matchkit synth --seed`` of more than 64 bits wrote the data set's files,
then failed to write its manifest with a raw TypeError. A number option's value is now checked
where it is read (the parser's converter, the seed's range): an argument error, exit 2, with a
message, before anything is done."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchkit.cli.commands import main


def _exit_code(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exit_:  # argparse's argument errors
        return int(exit_.code or 0)


@pytest.mark.parametrize("days", ["inf", "1e400", "-inf", "nan", "-1", "1e9", "ten"])
def test_cache_clear_refuses_an_age_it_cannot_hold(
    days: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _exit_code(["cache", "clear", "--cache-dir", str(tmp_path), "--older-than", days]) == 2
    err = capsys.readouterr().err
    assert "--older-than" in err
    assert "Traceback" not in err


def test_cache_clear_takes_the_largest_age_a_timedelta_holds(tmp_path: Path) -> None:
    argv = ["cache", "clear", "--cache-dir", str(tmp_path), "--older-than", "999999999"]
    assert _exit_code(argv) == 0


def test_synth_refuses_a_seed_beyond_64_bits_before_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "data"
    argv = ["synth", "--out", str(out), "--seed", str(2**70), "--matches", "1"]
    assert _exit_code([*argv, "--na-matches", "0"]) == 2
    assert "seed" in capsys.readouterr().err
    assert not out.exists()
