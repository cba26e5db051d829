"""The report's web files: pinned, integrity-checked, extracted selectively, copied beside pages."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
from pathlib import Path

import pytest

from matchkit.errors import MatchkitError
from matchkit.report.assets import (
    PACKAGES,
    PAGE_URLS,
    STATIC_FOLDER,
    WebPackage,
    _extract,
    _require_integrity,
    copy_assets,
    install_assets,
    missing_assets,
)


def tarball(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def test_every_package_is_pinned_to_one_version_and_integrity() -> None:
    for package in PACKAGES:
        assert package.version.count(".") == 2, package
        assert all(part.isdigit() for part in package.version.split(".")), package
        assert package.integrity.startswith("sha512-"), package
        assert len(base64.b64decode(package.integrity.removeprefix("sha512-"))) == 64
    folders = {package.folder for package in PACKAGES}
    for url in PAGE_URLS.values():
        assert url.startswith(f"{STATIC_FOLDER}/")
        assert url.split("/")[1] in folders
        assert "//" not in url


def test_a_tarball_of_another_integrity_is_refused(tmp_path: Path) -> None:
    path = tarball(tmp_path / "x.tgz", {"a.js": b"1"})
    package = WebPackage("x", "1.0.0", "sha512-" + "A" * 86 + "==", ("a.js",), "x")
    with pytest.raises(MatchkitError, match=r"x@1\.0\.0: .* not the pinned .* refusing"):
        _require_integrity(package, path)
    _require_integrity(WebPackage("x", "1.0.0", integrity(path), ("a.js",), "x"), path)


def test_only_the_wanted_files_are_extracted_and_stamped(tmp_path: Path) -> None:
    path = tarball(
        tmp_path / "x.tgz",
        {"dist/embed.js": b"e", "dist/font.woff2": b"f", "dist/big.map": b"m", "README.md": b"r"},
    )
    package = WebPackage("x", "1.0.0", integrity(path), ("dist/*.js", "dist/*.woff2"), "x")
    folder = tmp_path / "assets"
    folder.mkdir()
    _extract(package, path, folder / "x")
    files = sorted(p.relative_to(folder / "x").as_posix() for p in (folder / "x").rglob("*"))
    assert files == [".installed", "dist", "dist/embed.js", "dist/font.woff2"]
    assert (folder / "x" / ".installed").read_text().strip() == package.stamp


def test_a_pattern_matching_nothing_is_an_error(tmp_path: Path) -> None:
    path = tarball(tmp_path / "x.tgz", {"a.js": b"1"})
    package = WebPackage("x", "1.0.0", integrity(path), ("a.js", "missing/*"), "x")
    with pytest.raises(MatchkitError, match=r"no file matching 'missing/\*'"):
        _extract(package, path, tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_a_folder_matchkit_did_not_write_is_not_replaced(tmp_path: Path) -> None:
    path = tarball(tmp_path / "x.tgz", {"a.js": b"1"})
    package = WebPackage("x", "1.0.0", integrity(path), ("a.js",), "x")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "mine.txt").write_text("mine")
    with pytest.raises(MatchkitError, match="was not written by matchkit"):
        _extract(package, path, tmp_path / "x")
    assert (tmp_path / "x" / "mine.txt").read_text() == "mine"


def test_missing_files_are_named_with_the_way_to_install_them(tmp_path: Path) -> None:
    assert missing_assets(tmp_path) == [package.spec for package in PACKAGES]
    with pytest.raises(MatchkitError, match=r"@jupyter-widgets/html-manager@1\.0\.15.*make assets"):
        copy_assets(tmp_path / "out", folder=tmp_path)
    assert not (tmp_path / "out").exists()


def test_without_npm_the_install_says_what_to_install(tmp_path: Path) -> None:
    with pytest.raises(MatchkitError, match=r"'no-such-npm' is not on PATH: install"):
        install_assets(tmp_path / "assets", npm="no-such-npm")
    assert not (tmp_path / "assets").exists()
