"""The report's API reference: pdoc, run in a child process, writes it to ``api/`` beside the
pages, and the index links its modules.

pdoc's pages depend only on matchkit's sources, pdoc and the Python that runs it: they are built
once for each fingerprint of those (:func:`fingerprint`) in matchkit's cache folder
(``api-reference/``, :func:`matchkit.cachedir.cache_root`) and copied into each report, so that a
report run again on the same code does not run pdoc again (4-10 CPU-seconds)."""

from __future__ import annotations

import hashlib
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from matchkit.cachedir import cache_root
from matchkit.errors import ReportError

__all__ = ["API_FOLDER", "ApiReference", "api_modules", "fingerprint"]

#: The folder of the report that holds the API reference.
API_FOLDER = "api"


# Run in a child process: pdoc imports every module and configures its renderer globally, neither
# of which should happen in the caller. Names a package loads lazily (module ``__getattr__``) are
# resolved first, so that pdoc documents them where ``__all__`` lists them.
_API_SCRIPT = """
import importlib, pkgutil, sys
import matchkit
from pdoc.__main__ import cli
names = ["matchkit"] + sorted(
    "matchkit." + m.name for m in pkgutil.iter_modules(matchkit.__path__)
    if not m.name.startswith("_")
)
for name in names:
    module = importlib.import_module(name)
    for member in getattr(module, "__all__", ()):
        if member not in vars(module):
            setattr(module, member, getattr(module, member))
cli(["--docformat", "google", "--no-search", "-o", sys.argv[1], *names])
"""


@dataclass(frozen=True)
class ApiReference:
    """pdoc writing the API reference in a child process, beside the notebooks.

    Its output goes to a temporary file: a pipe nobody reads until the end could fill and block.
    """

    target: Path
    process: subprocess.Popen[bytes]
    output: IO[bytes]

    @classmethod
    def start(cls, target: Path) -> ApiReference:
        output = tempfile.TemporaryFile()  # noqa: SIM115 (closed by finish or stop)
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _API_SCRIPT, str(target)],
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        except BaseException:
            output.close()
            raise
        return cls(target, process, output)

    @classmethod
    def write(cls, target: Path) -> None:
        """Write the API reference to ``target`` (in the caller's thread): a copy of the one
        built for this code, built now (pdoc to the end) if there is none; raise ReportError if
        pdoc failed."""
        shutil.copytree(cls.built(), target)

    @classmethod
    def built(cls, root: Path | None = None) -> Path:
        """The folder of the API reference of this code in ``root`` (default: ``api-reference/``
        in matchkit's cache folder), built there first if it is not: into a folder of its own,
        then renamed into place, so that a folder of that name is always a whole reference.
        Builds of other code in ``root`` are removed once this one is there."""
        root = cache_root() / "api-reference" if root is None else root
        key = fingerprint()
        built = root / key
        if (built / "matchkit.html").is_file():
            return built
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
        try:
            reference = cls.start(staging / "api")
            try:
                reference.finish()
            finally:
                reference.stop()
            try:
                (staging / "api").rename(built)
            except OSError:  # another report built it meanwhile: theirs is the same
                if not (built / "matchkit.html").is_file():
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        for other in root.iterdir():
            if other != built and _BUILD_NAME.fullmatch(other.name):
                shutil.rmtree(other, ignore_errors=True)
        return built

    def finish(self) -> None:
        """Wait for pdoc; raise ReportError with what it printed if it failed."""
        self.process.wait()
        self.output.seek(0)
        printed = self.output.read().decode(errors="replace")
        self.output.close()
        if self.process.returncode != 0 or not (self.target / "matchkit.html").exists():
            raise ReportError(
                f"the API reference (pdoc) failed with exit {self.process.returncode}: "
                f"{printed.strip()[-800:]}"
            )

    def stop(self) -> None:
        """End pdoc if it still runs (the report failed)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.output.close()


_BUILD_NAME = re.compile(r"[0-9a-f]{64}")
"""The name of a build in the cache: its fingerprint."""


def fingerprint() -> str:
    """What pdoc's pages are made from, hashed: every source file of matchkit (path and bytes),
    the script that runs pdoc, and the versions of Python, pdoc and the libraries it renders
    with."""
    digest = hashlib.sha256()
    for part in (
        sys.version,
        _API_SCRIPT,
        *(f"{name} {importlib.metadata.version(name)}" for name in _RENDERERS),
    ):
        digest.update(part.encode() + b"\0")
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


_RENDERERS = ("pdoc", "jinja2", "pygments", "markupsafe")


def api_modules(report: Path) -> list[str]:
    """The top-level modules the API reference documents (paths relative to the report)."""
    api = report / API_FOLDER
    if not api.exists():
        return []
    return [
        f"{API_FOLDER}/{path.relative_to(api).as_posix()}"
        for path in [api / "matchkit.html", *sorted((api / "matchkit").glob("*.html"))]
        if path.is_file()
    ]
