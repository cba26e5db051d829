"""The report folder: written beside, swapped in whole, never over what matchkit did not write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from matchkit.errors import InvalidArgumentError
from matchkit.report.folder import MARKER, ReportFolder


def write_report(out: Path, *, overwrite: bool = False, pages: tuple[str, ...] = ("a.html",)):
    folder = ReportFolder.prepare(out, overwrite=overwrite)
    for page in pages:
        (folder.staging / page).write_text(page)
    return folder.commit()


def test_a_new_report_is_marked_with_what_was_written(tmp_path: Path) -> None:
    out = write_report(tmp_path / "report", pages=("a.html", "index.html"))
    marker = json.loads((out / MARKER).read_text())
    assert marker == {
        "format": "matchkit-report/2",
        "entries": [MARKER, "a.html", "index.html"],
    }
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def test_staging_is_beside_the_target_and_discard_leaves_the_previous_report(
    tmp_path: Path,
) -> None:
    out = write_report(tmp_path / "report")
    folder = ReportFolder.prepare(out, overwrite=True)
    assert folder.staging.parent == tmp_path
    (folder.staging / "b.html").write_text("b")
    folder.discard()
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "a.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def test_overwrite_swaps_the_whole_report(tmp_path: Path) -> None:
    out = write_report(tmp_path / "report")
    write_report(out, overwrite=True, pages=("b.html",))
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "b.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]  # nothing replaced left


def test_a_file_added_while_the_report_was_written_is_kept(tmp_path: Path) -> None:
    out = write_report(tmp_path / "report")
    folder = ReportFolder.prepare(out, overwrite=True)
    (out / "notes.txt").write_text("added meanwhile")
    (folder.staging / "b.html").write_text("b")
    folder.commit()
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "b.html", "notes.txt"]
    assert (out / "notes.txt").read_text() == "added meanwhile"


def test_a_new_page_on_a_file_matchkit_did_not_write_stops_the_swap(tmp_path: Path) -> None:
    out = write_report(tmp_path / "report")
    folder = ReportFolder.prepare(out, overwrite=True)
    (out / "b.html").write_text("mine")
    (folder.staging / "b.html").write_text("b")
    with pytest.raises(InvalidArgumentError, match=r"holds b\.html, which matchkit did not write"):
        folder.commit()
    folder.discard()
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "a.html", "b.html"]
    assert (out / "b.html").read_text() == "mine"


@pytest.mark.parametrize(
    "marker",
    [
        "not json",
        json.dumps({"format": "other/1", "entries": []}),
        json.dumps({"format": "matchkit-report/1", "entries": [MARKER, "api"]}),  # never released
        json.dumps([1, 2]),
    ],
)
def test_a_marker_matchkit_did_not_write_does_not_count(tmp_path: Path, marker: str) -> None:
    out = tmp_path / "report"
    out.mkdir()
    (out / MARKER).write_text(marker)
    with pytest.raises(InvalidArgumentError, match="is not a matchkit report"):
        ReportFolder.prepare(out, overwrite=True)
    assert [p.name for p in tmp_path.iterdir()] == ["report"]


def test_a_folder_holding_the_current_one_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)
    for out in (".", "..", str(tmp_path)):
        with pytest.raises(InvalidArgumentError, match="the current folder or holds it"):
            ReportFolder.prepare(out, overwrite=True)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["b"]
