"""Where a report is written: never over anything matchkit did not write.

A report folder carries a marker file (:data:`MARKER`) listing the files matchkit wrote into it.
A new report goes to a staging folder beside the target and is moved in when complete
(:func:`matchkit.model.replace.replace_folder`, shared with the Parquet writers), so a failed run
leaves the previous report (or nothing) in place. The target may be missing or an empty folder;
with ``overwrite`` it may also be a previous report: exactly the files its marker lists are
replaced, and any other file in it (notes, a data set in a subfolder) stays. A folder without a
marker (an unrelated file, a folder of other things), the current folder or one holding it is
refused before any work starts.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from matchkit.errors import InvalidArgumentError, StorageError
from matchkit.model.replace import replace_folder, written_by_matchkit

__all__ = ["MARKER", "ReportFolder"]

#: The file that marks a folder as a matchkit report (a JSON list of the files matchkit wrote).
MARKER = ".matchkit-report"

_FORMAT = "matchkit-report/2"
"""The marker's format: it lists every file matchkit wrote (paths with ``/``)."""


@dataclass(frozen=True)
class ReportFolder:
    """The checked target of a report and the staging folder the new report is written to.

    Use :meth:`prepare` (which checks the target), write into :attr:`staging`, then
    :meth:`commit` (which checks again and swaps) or :meth:`discard`.
    """

    target: Path
    staging: Path
    overwrite: bool

    @classmethod
    def prepare(cls, out: str | os.PathLike[str], *, overwrite: bool = False) -> ReportFolder:
        """Check that ``out`` may receive a report and create the staging folder beside it.

        Raises:
            InvalidArgumentError: ``out`` holds something matchkit did not write, or a previous
                report while ``overwrite`` is false, or is the current folder or holds it.
        """
        target = Path(out).resolve()
        _check(target, overwrite=overwrite)
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.writing-", dir=target.parent))
        staging.chmod(0o755)  # mkdtemp makes it owner-only; a report is for reading
        return cls(target, staging, overwrite)

    def commit(self) -> Path:
        """Mark the staging folder as a report and move it in place of the target, replacing
        only the files of the previous report (:func:`replace_folder`).

        Returns:
            The target folder.

        Raises:
            InvalidArgumentError: the target changed meanwhile into something matchkit may not
                write over, or a new file would land on a file matchkit did not write.
            StorageError: the file system refused a write (a replacement cut short reads as no
                report, and the next run with ``overwrite`` finishes it).
        """
        files = sorted(
            path.relative_to(self.staging).as_posix()
            for path in self.staging.rglob("*")
            if path.is_file()
        )
        marker = {"format": _FORMAT, "entries": [MARKER, *files]}
        _check(self.target, overwrite=self.overwrite)  # again: it may have changed meanwhile
        try:
            (self.staging / MARKER).write_text(json.dumps(marker, indent=1) + "\n", "utf-8")
            replace_folder(
                self.staging, self.target, manifest=MARKER, listed=_listed, parameter="out"
            )
        except OSError as error:
            raise StorageError(
                f"could not write the report to {self.target}: {error.strerror or error}"
                f"{f' ({error.filename})' if error.filename else ''}; run it again (with "
                "--overwrite when a part of it was written)",
                path=self.target,
            ) from None
        return self.target

    def discard(self) -> None:
        """Remove the staging folder (a run that failed); the target is left as it was."""
        shutil.rmtree(self.staging, ignore_errors=True)


def _check(target: Path, *, overwrite: bool) -> None:
    cwd = Path.cwd().resolve()
    if target == cwd or target in cwd.parents:
        raise InvalidArgumentError(
            f"the report folder {target} is the current folder or holds it; a report replaces "
            "its folder as a whole, so choose a folder of its own, e.g. --out reports",
            parameter="out",
        )
    if not target.exists():
        return
    if not target.is_dir():
        raise InvalidArgumentError(
            f"{target} exists and is not a folder; choose another report folder", parameter="out"
        )
    if not any(target.iterdir()):
        return
    if not written_by_matchkit(target, MARKER) or _written(target) is None:
        raise InvalidArgumentError(
            f"{target} is not empty and is not a matchkit report (no {MARKER} file); matchkit "
            "never replaces what it did not write: choose a new or empty folder",
            parameter="out",
        )
    if not overwrite:
        raise InvalidArgumentError(
            f"{target} holds a previous matchkit report; pass --overwrite (overwrite=True in "
            "Python) to replace it, or choose a new folder",
            parameter="out",
        )


def _written(folder: Path) -> list[str] | None:
    """The files the folder's marker (or the pending one of a replacement cut short) lists."""
    marker_path = folder / MARKER
    if not marker_path.is_file():
        marker_path = folder / f".{MARKER}.replacing"
    try:
        return _listed(marker_path)
    except (OSError, ValueError):
        return None


def _listed(marker_path: Path) -> list[str]:
    """The files a marker lists.

    Raises:
        ValueError: the marker is not one matchkit wrote.
    """
    marker = json.loads(marker_path.read_text(encoding="utf-8"))
    if not isinstance(marker, dict):
        raise ValueError(f"{marker_path} is not a matchkit report marker")
    entries = marker.get("entries")
    if marker.get("format") != _FORMAT or not isinstance(entries, list):
        raise ValueError(f"{marker_path} is not a matchkit report marker")
    if not all(isinstance(entry, str) for entry in entries):
        raise ValueError(f"{marker_path} lists something that is not a path")
    return entries
