"""Replace a folder matchkit wrote: delete only what its own manifest lists, nothing else.

Every writer of a folder (MatchFrames' and TelemetryFrames' Parquet data sets, the HTML report)
writes its new content into a hidden staging folder beside the target, then hands it to
:func:`replace_folder`, which is the one place where a target's old content is removed:

- a missing or empty target: the staging folder is renamed into place (atomic);
- a folder matchkit wrote: the files its manifest lists (and the manifest) are deleted, the new
  files moved in, the new manifest last, and folders left empty by the deletion removed. Any
  other file (a notes file, a telemetry data set in a subfolder) stays where it is.

Nothing is deleted when the new content would collide with what matchkit did not write (a file
of the same path, or a file inside a folder matchkit writes whose manifest does not list it, so
that reading the new data set would refuse it): that is an InvalidArgumentError, raised before
any change. While files are exchanged the old manifest is kept under a hidden name
(:func:`pending_name`), so a replacement cut short leaves a folder that readers refuse (no
manifest) and that the next ``overwrite`` still recognises as matchkit's and finishes.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

from matchkit.errors import InvalidArgumentError, MatchkitError

__all__ = ["Listed", "files_under", "pending_name", "replace_folder", "written_by_matchkit"]

Listed = Callable[[Path], Iterable[str]]
"""Reads a manifest file and returns the paths (relative to its folder, with ``/``) of the files
it lists; raises MatchkitError or OSError when it cannot be read."""


def pending_name(manifest: str) -> str:
    """The hidden name a manifest has while its folder's files are being exchanged."""
    return f".{manifest}.replacing"


def written_by_matchkit(target: Path, manifest: str) -> bool:
    """Whether ``target`` holds ``manifest``, or the pending one of a replacement cut short."""
    return (target / manifest).is_file() or (target / pending_name(manifest)).is_file()


def files_under(folder: Path, relative: str) -> list[str]:
    """Every file under ``folder / relative`` as paths relative to ``folder`` (for a manifest
    that owns a whole subfolder)."""
    root = folder / relative
    if root.is_file():
        return [relative]
    return sorted(path.relative_to(folder).as_posix() for path in root.rglob("*") if path.is_file())


def replace_folder(
    staging: Path,
    target: Path,
    *,
    manifest: str,
    listed: Listed,
    parameter: str = "path",
    adopt: bool = False,
) -> None:
    """Put the finished ``staging`` folder's files in ``target``, replacing only what the
    target's own manifest lists (see the module docs).

    Args:
        staging: the complete new content, ``manifest`` among it (moved last).
        target: the folder to write; missing, empty, or written by matchkit (checked before).
        manifest: the manifest's file name, in both folders.
        listed: reads a manifest and returns the files it lists.
        parameter: the argument the errors name.
        adopt: also write into a folder without a manifest, keeping all it holds (a data set
            folder beside its README); the new files still never land on its files.

    Raises:
        InvalidArgumentError: ``target`` holds something else than an empty folder or a folder
            matchkit wrote, or the new files collide with files matchkit did not write; nothing
            was changed.
        OSError: the file system refused a move (the caller reports it).
    """
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
    if not target.exists():
        staging.rename(target)
        return
    pending = target / pending_name(manifest)
    current = target / manifest if (target / manifest).is_file() else pending
    try:
        found = listed(current) if current.is_file() or not adopt else ()
        old = {_relative(path) for path in found}
    except (MatchkitError, OSError, ValueError) as error:
        raise InvalidArgumentError(
            f"{target} has a manifest ({current.name}) that cannot be read ({error}); matchkit "
            "replaces only the files a readable manifest lists: move the folder away",
            parameter=parameter,
        ) from None
    new = _files(staging)
    _refuse_collisions(target, old, new, manifest=manifest, parameter=parameter)
    if current != pending and current.is_file():
        current.rename(pending)  # from here on, the folder reads as incomplete
    for relative in sorted(old - {manifest, pending.name}):
        path = target / relative
        if path.is_file() or path.is_symlink():
            path.unlink()
    _prune(target, old)
    for relative in sorted(new - {manifest}):
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / relative, target / relative)
    os.replace(staging / manifest, target / manifest)
    pending.unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)


def _relative(path: str) -> str:
    """A listed path, refused when it would leave its folder (``..``, absolute)."""
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts:
        raise ValueError(f"the listed path {path!r} is not inside the folder")
    return pure.as_posix()


def _files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def _refuse_collisions(
    target: Path, old: set[str], new: set[str], *, manifest: str, parameter: str
) -> None:
    """Refuse new files that would land on, or beside in a folder matchkit writes, files the
    old manifest does not list."""
    foreign: list[str] = []
    folders = {parent for path in new for parent in PurePosixPath(path).parents} - {
        PurePosixPath(".")
    }
    for path in sorted(new):
        where = target / path
        if (where.exists() or where.is_symlink()) and path not in old and path != manifest:
            foreign.append(path)
    for folder in sorted(map(str, folders)):
        where = target / folder
        if where.is_symlink() or (where.exists() and not where.is_dir()):
            foreign.append(folder)
        elif where.is_dir():
            foreign += [path for path in files_under(target, folder) if path not in old]
    if foreign:
        shown = ", ".join(sorted(set(foreign))[:5]) + (" ..." if len(set(foreign)) > 5 else "")
        raise InvalidArgumentError(
            f"{target} holds {shown}, which matchkit did not write (its manifest does not list "
            "them) where the new files go; matchkit never deletes what it did not write: move "
            "them away or choose a new folder",
            parameter=parameter,
        )


def _prune(target: Path, old: set[str]) -> None:
    """Remove the folders of deleted files that are now empty, deepest first."""
    folders = {parent for path in old for parent in PurePosixPath(path).parents}
    for folder in sorted(folders, key=lambda item: len(item.parts), reverse=True):
        if folder == PurePosixPath("."):
            continue
        path = target / folder
        if path.is_dir() and not path.is_symlink() and not any(path.iterdir()):
            path.rmdir()
