"""The report's API reference: pdoc, run in a child process, writes it to ``api/`` beside the
pages, and the index links its modules."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from matchkit.errors import ReportError

__all__ = ["API_FOLDER", "ApiReference", "api_modules"]

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
        """Run pdoc to the end (in the caller's thread); raise ReportError if it failed."""
        reference = cls.start(target)
        try:
            reference.finish()
        finally:
            reference.stop()

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
