"""The report's API reference is built once per code (a fingerprint of matchkit's sources, pdoc
and Python) in matchkit's cache folder, and copied into each report."""

from __future__ import annotations

from pathlib import Path

import pytest

from matchkit.errors import ReportError
from matchkit.report import api_reference
from matchkit.report.api_reference import ApiReference, fingerprint


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder holding one build of this code, a build of other code and a stranger."""
    folder = tmp_path_factory.mktemp("cache") / "api-reference"
    (folder / ("0" * 64)).mkdir(parents=True)  # another code's build
    (folder / "notes.txt").write_text("not matchkit's")
    ApiReference.built(folder)
    return folder


def test_the_reference_is_built_under_the_codes_fingerprint(root: Path) -> None:
    built = root / fingerprint()
    assert (built / "matchkit.html").is_file()
    assert (built / "matchkit" / "archive.html").is_file()


def test_builds_of_other_code_go_and_nothing_else(root: Path) -> None:
    assert sorted(path.name for path in root.iterdir()) == sorted([fingerprint(), "notes.txt"])


def test_a_second_report_copies_the_build_without_running_pdoc(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_pdoc(target: Path) -> ApiReference:
        raise AssertionError("pdoc ran again for the same code")

    monkeypatch.setattr(ApiReference, "start", no_pdoc)
    monkeypatch.setenv("MATCHKIT_CACHE_DIR", str(root.parent))  # its api-reference/ is root
    target = tmp_path / "report" / "api"
    ApiReference.write(target)
    built = root / fingerprint()
    assert (target / "matchkit.html").read_bytes() == (built / "matchkit.html").read_bytes()


def test_a_changed_source_is_another_fingerprint(monkeypatch: pytest.MonkeyPatch) -> None:
    before = fingerprint()
    monkeypatch.setattr(api_reference, "_API_SCRIPT", api_reference._API_SCRIPT + "\n")
    assert fingerprint() != before


def test_a_failed_build_leaves_nothing_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api_reference, "_API_SCRIPT", "raise SystemExit('planted pdoc failure')")
    with pytest.raises(ReportError, match="planted pdoc failure"):
        ApiReference.built(tmp_path)
    assert list(tmp_path.iterdir()) == []
