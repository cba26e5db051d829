"""The web files the report's pages load, pinned, from the npm registry, placed beside the pages.

nbconvert's pages load require.js, MathJax and the Jupyter widget manager from public CDNs (the
widget manager at an unpinned version), so a report read without the internet shows an empty
widget panel. :func:`install_assets` fetches each package at a pinned version with ``npm pack``
(the npm registry's own client), checks the tarball against its pinned ``sha512`` integrity and
extracts the files the pages need into a build folder; :func:`copy_assets` puts them beside the
pages, and :data:`PAGE_URLS` are the relative URLs the exporter writes into them.

Run ``python -m matchkit.report.assets`` (``make assets``) once per checkout; ``make report`` and
``make test`` do it for you.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from matchkit.errors import ReportError, StorageError

__all__ = [
    "PACKAGES",
    "PAGE_URLS",
    "STATIC_FOLDER",
    "WebPackage",
    "assets_path",
    "copy_assets",
    "install_assets",
    "missing_assets",
    "require_assets",
]

#: The folder of a report that holds the web files (beside the pages).
STATIC_FOLDER = "_static"


@dataclass(frozen=True)
class WebPackage:
    """One npm package the pages need: its pinned version, integrity and the files taken from it.

    Attributes:
        name: the npm package name.
        version: the exact version fetched.
        integrity: the registry's ``sha512-...`` integrity of that version's tarball.
        files: glob patterns (relative to the package root) of the files kept.
        folder: the folder under :data:`STATIC_FOLDER` they are placed in.
    """

    name: str
    version: str
    integrity: str
    files: tuple[str, ...]
    folder: str

    @property
    def stamp(self) -> str:
        """What an install of exactly this package and these files records."""
        return f"{self.integrity} {' '.join(self.files)}"

    @property
    def spec(self) -> str:
        """``name@version``, as ``npm pack`` takes it."""
        return f"{self.name}@{self.version}"


PACKAGES = (
    WebPackage(
        "@jupyter-widgets/html-manager",
        "1.0.15",  # the embed bundle of ipywidgets 8.1 (widget state version 2)
        "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1y"
        "p47bCrJ3CQA==",
        # The AMD bundle and the icon fonts it loads from beside itself (webpack public path).
        (
            "package.json",
            "dist/embed-amd.js",
            "dist/*.LICENSE.txt",
            "dist/*.woff*",
            "dist/*.ttf",
            "dist/*.eot",
            "dist/*.svg",
        ),
        "html-manager",
    ),
    WebPackage(
        "requirejs",
        "2.3.8",
        "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFly"
        "QXSowL6Mw==",
        ("package.json", "require.js"),
        "requirejs",
    ),
    WebPackage(
        "mathjax",
        "2.7.7",  # the MathJax 2 API that nbconvert's pages configure (MathJax.Hub)
        "sha512-OOl0B2/0tSJAtAZarXnQuLDBLgTNRqiI9VqHTQzPsxf4okT2iIpDrvaklK9x2QEMD1sDj4yRn11Y"
        "gci41DxMAQ==",
        # The TeX-AMS_CHTML-full configuration and what it loads; not the 60 MB of other outputs.
        (
            "package.json",
            "LICENSE",
            "MathJax.js",
            "config/TeX-AMS_CHTML-full.js",
            "config/Safe.js",
            "extensions/*",
            "jax/input/TeX/*",
            "jax/output/CommonHTML/*",
            "jax/element/*",
            "fonts/HTML-CSS/TeX/woff/*",
            "localization/en/*",
        ),
        "mathjax",
    ),
)

#: The URLs, relative to a page, that the HTML exporter writes for each web file.
PAGE_URLS = {
    "require_js_url": f"{STATIC_FOLDER}/requirejs/require.js",
    "widget_renderer_url": f"{STATIC_FOLDER}/html-manager/dist/embed-amd.js",
    "mathjax_url": f"{STATIC_FOLDER}/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
}

_STAMP = ".installed"


def assets_path() -> Path:
    """The build folder the web files are installed in (``build/report-assets`` of the checkout)."""
    return Path(__file__).resolve().parents[2] / "build" / "report-assets"


def missing_assets(folder: str | Path | None = None) -> list[str]:
    """The ``name@version`` of each pinned package not (or not at that version) in ``folder``."""
    folder = Path(folder) if folder is not None else assets_path()
    return [
        package.spec
        for package in PACKAGES
        if _read_stamp(folder / package.folder) != package.stamp
    ]


def install_assets(folder: str | Path | None = None, *, npm: str = "npm") -> Path:
    """Fetch each pinned package with ``npm pack`` and extract the files the pages need.

    A package already installed at its pinned integrity is left as it is.

    Args:
        folder: where to install (default :func:`assets_path`).
        npm: the npm command.

    Returns:
        The folder.

    Raises:
        ReportError: npm is missing or failed, or a tarball does not match its pinned integrity.
    """
    folder = Path(folder) if folder is not None else assets_path()
    wanted = [p for p in PACKAGES if p.spec in missing_assets(folder)]
    if not wanted:
        return folder
    if shutil.which(npm) is None:
        raise ReportError(
            f"the report's web files ({', '.join(p.spec for p in wanted)}) are not installed in "
            f"{folder} and {npm!r} is not on PATH: install Node.js's npm "
            "(Debian: apt-get install npm), then run `make assets`"
        )
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="matchkit-npm-") as scratch:
        for package in wanted:
            tarball = _npm_pack(npm, package, Path(scratch))
            _require_integrity(package, tarball)
            _extract(package, tarball, folder / package.folder)
    return folder


def copy_assets(out: Path, *, folder: str | os.PathLike[str] | None = None) -> Path:
    """Copy the installed web files into ``out/_static``.

    Raises:
        ReportError: a pinned package is not installed (the message says how to install it).
    """
    folder = Path(folder) if folder is not None else assets_path()
    require_assets(folder)
    target = out / STATIC_FOLDER
    for package in PACKAGES:
        shutil.copytree(
            folder / package.folder,
            target / package.folder,
            ignore=shutil.ignore_patterns(_STAMP),
        )
    return target


def require_assets(folder: str | os.PathLike[str] | None = None) -> None:
    """Raise unless every pinned package is installed in ``folder`` (default: :func:`assets_path`).

    Raises:
        ReportError: a pinned package is not installed (the message says how to install it).
    """
    folder = Path(folder) if folder is not None else assets_path()
    missing = missing_assets(folder)
    if missing:
        raise ReportError(
            f"the report's web files {', '.join(missing)} are not installed in {folder}: run "
            "`make assets` (or `python -m matchkit.report.assets`), which fetches them from the "
            "npm registry at pinned versions"
        )


def _npm_pack(npm: str, package: WebPackage, scratch: Path) -> Path:
    command = [npm, "pack", package.spec, "--json", "--pack-destination", str(scratch)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=scratch, check=False)
    if result.returncode != 0:
        raise ReportError(
            f"`npm pack {package.spec}` failed (exit {result.returncode}): "
            f"{result.stderr.strip()[-600:]}"
        )
    try:
        filename = json.loads(result.stdout)[0]["filename"]
    except (ValueError, LookupError, TypeError):
        raise ReportError(
            f"`npm pack {package.spec}` printed no tarball name: {result.stdout[-300:]!r}"
        ) from None
    # npm names a scoped package's tarball without the @ and with - for /.
    return scratch / filename.lstrip("@").replace("/", "-")


def _require_integrity(package: WebPackage, tarball: Path) -> None:
    digest = base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if f"sha512-{digest}" != package.integrity:
        raise ReportError(
            f"{package.spec}: the tarball npm fetched has integrity sha512-{digest}, not the "
            f"pinned {package.integrity}; refusing to use it (check the npm registry or mirror)"
        )


def _extract(package: WebPackage, tarball: Path, target: Path) -> None:
    staging = target.with_name(f".{target.name}.installing")
    shutil.rmtree(staging, ignore_errors=True)
    with tarfile.open(tarball, "r:gz") as archive:
        members = [
            member
            for member in archive.getmembers()
            if member.isfile() and _wanted(package.files, member.name)
        ]
        for member in members:
            member.name = member.name.removeprefix("package/")
        archive.extractall(staging, members=members, filter="data")
    for pattern in package.files:
        if not any(staging.glob(pattern)):
            shutil.rmtree(staging, ignore_errors=True)
            raise ReportError(f"{package.spec} has no file matching {pattern!r}")
    (staging / _STAMP).write_text(package.stamp + "\n", encoding="utf-8")
    if target.exists():
        if _read_stamp(target) is None:
            shutil.rmtree(staging, ignore_errors=True)
            raise StorageError(
                f"{target} exists and was not written by matchkit: move it away", path=target
            )
        shutil.rmtree(target)  # an older install of this module, stamped
    staging.rename(target)


def _wanted(patterns: Sequence[str], name: str) -> bool:
    relative = name.removeprefix("package/")
    return any(fnmatch.fnmatchcase(relative, pattern) for pattern in patterns)


def _read_stamp(folder: Path) -> str | None:
    try:
        return (folder / _STAMP).read_text(encoding="utf-8").strip()
    except OSError:
        return None


if __name__ == "__main__":
    print(f"report web files installed in {install_assets()}", file=sys.stderr)
