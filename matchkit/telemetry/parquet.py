"""TelemetryFrames on disk: one Parquet file per table and a manifest.

Layout under the folder you name::

    _matchkit_telemetry.json     format, tables, columns, dtypes, row counts, each file's
                                 SHA-256, problems; written last, so it marks a complete write
    files.parquet  queue_events.parquet  ...  (one per table)

A write goes to a hidden folder beside the target and is moved into place at the end
(:func:`matchkit.model.replace.replace_folder`: an overwrite deletes exactly the files the old
manifest lists), so an interrupted write never leaves a folder that :func:`read_telemetry`
accepts. Reading checks
every table's file, SHA-256 and row count against the manifest: a missing or changed file is an
error, never a smaller result or other values.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from matchkit.errors import StorageError
from matchkit.model import manifest as manifests
from matchkit.model.replace import replace_folder
from matchkit.telemetry.schema import TABLE_NAMES

if TYPE_CHECKING:
    from matchkit.telemetry.frames import TelemetryFrames

__all__ = ["FORMAT", "MANIFEST", "read_telemetry", "write_telemetry"]

FORMAT = "matchkit-telemetry/2"
"""The format written and read: the manifest records each file's SHA-256."""
MANIFEST = "_matchkit_telemetry.json"


def _listed(manifest: Path) -> list[str]:
    """The files a manifest lists: itself and one file per table."""
    tables = orjson.loads(manifest.read_bytes())["tables"]
    return [MANIFEST, *(f"{name}.parquet" for name in tables)]


def write_telemetry(
    frames: TelemetryFrames, path: str | os.PathLike[str], *, overwrite: bool = False
) -> Path:
    """Write every table of ``frames`` under ``path``.

    Raises:
        InvalidArgumentError: ``path`` is a file, or a non-empty folder and ``overwrite`` is
            false, or a folder that does not hold telemetry frames (never replaced).
        StorageError: the file system refused the write; nothing was changed.
    """
    target = Path(path)
    manifests.check_target_folder(
        target,
        manifest=MANIFEST,
        overwrite=overwrite,
        foreign="exists and does not hold TelemetryFrames; refusing to replace it",
    )
    staging = target.parent / f".{target.name}.writing-{uuid.uuid4().hex}"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging.mkdir()
        tables = {}
        for name, frame in frames.tables.items():
            tables[name] = {
                "rows": len(frame),
                "columns": list(frame.columns),
                "dtypes": {column: manifests.dtype_spec(frame[column].dtype) for column in frame},
            }
            table = pa.Table.from_pandas(frame, preserve_index=False)
            pq.write_table(table, staging / f"{name}.parquet")
            tables[name]["sha256"] = manifests.file_digest(staging / f"{name}.parquet")
        manifest = {"format": FORMAT, "tables": tables, "problems": list(frames.problems)}
        (staging / MANIFEST).write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
        replace_folder(staging, target, manifest=MANIFEST, listed=_listed)
    except BaseException as error:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(error, OSError):
            raise StorageError(
                f"could not write {target}: {error.strerror or error}"
                f"{f' ({error.filename})' if error.filename else ''}; nothing was changed",
                path=target,
            ) from error
        raise
    return target


def read_telemetry(path: str | os.PathLike[str]) -> TelemetryFrames:
    """Read what :func:`write_telemetry` wrote, with the dtypes it had.

    Raises:
        StorageError: no manifest (not telemetry frames, or an interrupted write), a manifest
            that cannot be read or is of another format, or a table's file is missing, is not
            the file written (its SHA-256 differs), cannot be read, or its rows differ from the
            manifest's count.
    """
    from matchkit.telemetry.frames import TelemetryFrames

    folder = Path(path)
    manifest = manifests.read_manifest(
        folder,
        MANIFEST,
        format=FORMAT,
        missing=f"does not hold complete TelemetryFrames: {MANIFEST} is missing (write them "
        "with TelemetryFrames.to_parquet; an interrupted write leaves none)",
        again="write the telemetry frames again",
    )
    tables = {}
    for name in TABLE_NAMES:
        spec = manifest["tables"].get(name)
        if not isinstance(spec, dict):
            raise StorageError(
                f"{folder / MANIFEST} lists no table {name!r}", path=folder / MANIFEST
            )
        file = folder / f"{name}.parquet"
        if not file.exists():
            raise StorageError(f"{file} is missing; the telemetry frames are incomplete", path=file)
        manifests.check_digest(file, spec.get("sha256"))
        tables[name] = manifests.read_as_described(
            _read_table, file, spec, again="write the telemetry frames again"
        )
    return TelemetryFrames(**tables, problems=tuple(manifest.get("problems", ())))


def _read_table(file: Path, spec: dict) -> pd.DataFrame:
    """One table's file, with the dtypes the manifest gives (its rows and columns checked)."""
    frame = pq.read_table(file).to_pandas(types_mapper=manifests.TYPES_MAPPER)
    if len(frame) != spec["rows"] or list(frame.columns) != spec["columns"]:
        raise StorageError(
            f"{file} holds {len(frame)} rows and columns {list(frame.columns)}; the "
            f"manifest says {spec['rows']} rows of {spec['columns']}",
            path=file,
        )
    return pd.DataFrame(
        {
            column: manifests.restored(frame[column], manifests.dtype_of(spec["dtypes"][column]))
            for column in spec["columns"]
        }
    )
