"""States an archive can be left in, built on purpose, and the check that every view is whole.

:func:`kill_before_matches` leaves what a sync killed between its last table commit and the
``matches`` commit leaves (the batch staged and recorded as pending, every other table
committed), through the archive's own writer; :func:`orphans` counts, in each lazy table of an
opened archive, the rows whose match is not in ``matches``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import dask
import orjson

import matchkit.archive as archive
from matchkit.archive.staging import stage
from matchkit.archive.writer import commit_batch, prepare_batch
from matchkit.client.client import Client
from matchkit.errors import ArchiveError
from matchkit.rules.windows import format_time


def kill_before_matches(client: Client, folder: Path, start: datetime, end: datetime) -> int:
    """Leave batch N (the matches of ``[start, end)``) as a sync killed just before its
    ``matches`` commit leaves it: staged, pending in ``archive.json``, every other table
    committed. The archive's watermark is ``start`` (so that the next sync resumes there).

    Returns:
        N.
    """
    frames = client.matches(start, end)
    assert len(frames) > 0
    prepared = prepare_batch(frames.tables)
    manifest = orjson.loads((folder / "archive.json").read_bytes())
    batch = manifest["batch"] + 1
    stage(folder, batch, prepared)
    manifest["pending"] = {
        "batch": batch,
        "start": format_time(start),
        "end": format_time(end),
        "problems": [],
    }
    (folder / "archive.json").write_bytes(orjson.dumps(manifest))
    commit_batch(folder, batch, {label: t for label, t in prepared.items() if label != "matches"})
    return batch


def lazy_tables(opened: archive.Archive) -> Iterator[tuple[str, object]]:
    """Each lazy table of an opened archive that names a match, by label."""
    for name, table in opened.tables.items():
        if name not in ("matches", "players", "teams"):
            yield name, table
    yield "player_snapshots", opened.player_snapshots
    yield "team_snapshots", opened.team_snapshots
    if opened.telemetry is not None:
        for name in dir(opened.telemetry):
            yield f"telemetry/{name}", getattr(opened.telemetry, name)


def orphans(opened: archive.Archive) -> dict[str, int]:
    """Per lazy table, its rows whose match is not in ``matches`` (none: the view is whole)."""
    with dask.config.set(scheduler="sync"):
        matches = set(opened.matches["match_id"].compute())
        found = {}
        for label, table in lazy_tables(opened):
            ids = table["match_id"].compute()  # type: ignore[index]
            found[label] = int((~ids.isin(matches)).sum())
    return {label: count for label, count in found.items() if count}


def orphans_in_files(folder: Path, version: int | None = None) -> dict[str, int]:
    """:func:`orphans` of the archive at ``version`` (default: as it opens), read from the data
    files its lazy tables are built of (pyarrow, no Dask: the quick check of the chaos suite).

    Raises:
        ArchiveError: as :func:`matchkit.archive.open`.
    """
    import pyarrow.parquet as pq

    from matchkit.archive.reader import existing_manifest
    from matchkit.archive.versions import checked_files, pinned_tables

    manifest = existing_manifest(folder)
    try:
        pinned = manifest.pinned(version)
    except KeyError:
        raise ArchiveError(f"no version {version}", path=folder) from None
    ids: dict[str, set[str]] = {}
    for label, table in pinned_tables(folder, pinned).items():
        files = checked_files(folder / label, table)
        ids[label] = {
            value
            for file in files
            for value in pq.read_table(file.path, columns=["match_id"]).column(0).to_pylist()
        }
    matches = ids.pop("matches", set())
    found = {label: len(values - matches) for label, values in ids.items()}
    return {label: count for label, count in found.items() if count}


def every_version_whole(folder: Path, *, lazy: bool = True) -> dict[object, dict[str, int]]:
    """The orphans of the archive opened as it is and at each version it records: empty when
    every view is whole. A version whose files a compaction removed is an ArchiveError naming
    the missing file (counted as whole). ``lazy=False`` reads the data files, not the lazy
    tables (quicker)."""
    from matchkit.archive.manifest import read_manifest

    manifest = read_manifest(folder)
    found: dict[object, dict[str, int]] = {}
    for version in [None, *sorted(manifest.versions)] if manifest else [None]:
        try:
            if lazy:
                found[version] = orphans(archive.open(folder, version=version))
            else:
                found[version] = orphans_in_files(folder, version)
        except ArchiveError as error:  # a version whose files a compaction removed: typed
            found[version] = {} if "missing" in str(error) else {f"error: {error}": 1}
    return {version: counted for version, counted in found.items() if counted}
