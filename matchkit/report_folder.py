"""Where a report is written: never over anything matchkit did not write.

A report folder carries a marker file (:data:`MARKER`) listing the entries matchkit wrote into
it. A new report goes to a staging folder beside the target and is swapped in when complete, so
a failed run leaves the previous report (or nothing) in place. The target may be missing or an
empty folder; with ``overwrite`` it may also be a previous report whose entries are all listed in
its marker. Anything else (an unrelated file, a folder of other things, the current folder or one
holding it) is refused before any work starts.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from matchkit.errors import InvalidArgumentError

__all__ = ["MARKER", "ReportFolder"]

#: The file that marks a folder as a matchkit report (a JSON list of what matchkit wrote).
MARKER = ".matchkit-report"

_FORMAT = "matchkit-report/1"


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
    def prepare(cls, out: str | Path, *, overwrite: bool = False) -> ReportFolder:
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
        """Mark the staging folder as a report and put it in place of the target (atomically).

        Returns:
            The target folder.
        """
        entries = sorted(path.name for path in self.staging.iterdir())
        marker = {"format": _FORMAT, "entries": [MARKER, *entries]}
        (self.staging / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")
        _check(self.target, overwrite=self.overwrite)  # again: it may have changed meanwhile
        if not self.target.exists():
            self.staging.rename(self.target)
        elif not any(self.target.iterdir()):
            self.target.rmdir()  # empty: nothing to keep
            self.staging.rename(self.target)
        else:
            # A previous report, every entry of it listed in its marker (checked above).
            replaced = Path(
                tempfile.mkdtemp(prefix=f".{self.target.name}.replaced-", dir=self.target.parent)
            )
            old = replaced / self.target.name
            self.target.rename(old)
            self.staging.rename(self.target)
            shutil.rmtree(replaced)
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
    present = {path.name for path in target.iterdir()}
    if not present:
        return
    written = _written(target)
    if written is None:
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
    foreign = sorted(present - written)
    if foreign:
        raise InvalidArgumentError(
            f"{target} holds a previous matchkit report and also {', '.join(foreign)}, which "
            "matchkit did not write; move them away or choose a new folder",
            parameter="out",
        )


def _written(folder: Path) -> set[str] | None:
    try:
        marker = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(marker, dict) or marker.get("format") != _FORMAT:
        return None
    entries = marker.get("entries")
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        return None
    return set(entries)
