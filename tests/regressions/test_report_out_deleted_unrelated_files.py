"""Issue 11 item 17: `matchkit report --out DIR` deleted what DIR held; `--out .` wiped the
current folder. A folder matchkit did not write is refused before any notebook runs, and
`--overwrite` replaces only a previous report."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchkit.cli import main
from matchkit.report.folder import MARKER


def test_an_unrelated_file_in_out_is_kept_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "thesis.tex").write_text("two years of work")
    for overwrite in ([], ["--overwrite"]):
        assert main(["report", "--out", str(out), *overwrite]) == 2
        error = capsys.readouterr().err
        assert "is not a matchkit report" in error
        assert "choose a new or empty folder" in error
    assert [p.name for p in out.iterdir()] == ["thesis.tex"]
    assert (out / "thesis.tex").read_text() == "two years of work"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging folder left


def test_out_dot_does_not_wipe_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.md").write_text("keep me")
    (tmp_path / MARKER).write_text('{"format": "matchkit-report/2", "entries": ["notes.md"]}')
    monkeypatch.chdir(tmp_path)
    for out in (".", str(tmp_path), ".."):
        assert main(["report", "--out", out, "--overwrite"]) == 2
        assert "is the current folder or holds it" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == [MARKER, "notes.md"]
    assert (tmp_path / "notes.md").read_text() == "keep me"


def test_a_file_as_out_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.html"
    target.write_text("mine")
    assert main(["report", "--out", str(target), "--overwrite"]) == 2
    assert "is not a folder" in capsys.readouterr().err
    assert target.read_text() == "mine"
