"""Regression: ``matchkit synth --archive DIR --as-of notadate`` created ``DIR`` and then refused
the date, leaving an empty folder behind. Found by running the CLI with a wrong input."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchkit.cli import main
from matchkit.errors import InvalidArgumentError
from matchkit.synth.archive import write_synthetic_archive


def test_a_bad_as_of_creates_no_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "archive"
    with pytest.raises(InvalidArgumentError) as raised:
        write_synthetic_archive(folder, matches=10, as_of="notadate")
    assert raised.value.parameter == "as_of"
    assert not folder.exists()
    assert main(["synth", "--archive", str(folder), "--matches", "10", "--as-of", "x"]) == 2
    assert "ISO 8601" in capsys.readouterr().err
    assert not folder.exists()
